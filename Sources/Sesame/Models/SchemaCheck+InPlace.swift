@_spi(Generated) import SesameDescription

extension SchemaCheck {
    /// How a check of an object model is told on the model's own decoder, with no
    /// ``JSONValue`` of the object: which properties are present (`contains` on the
    /// model's container), its type (an object, since the container was made), and a `$ref`
    /// to a model, which holds when the model decodes from the same decoder, strictly, or, for
    /// a `$ref` the generator marked (``ModelCoding/reference(_:inPlaceRequires:)``), when the
    /// referenced model's required keys are present (the checking model's own decoding checks
    /// the values).
    ///
    /// Only `type`, `required`, `dependentRequired`, `$ref`, `allOf`, `not` and
    /// `if`/`then`/`else` are told this way; a check with any other keyword is not (`nil`).
    enum InPlace: Sendable, Equatable {
        /// Told exactly: met or not (presence and type only, no `$ref`).
        case exact
        /// Told when met: a `$ref` the value decodes as, in `allOf`, `then` or `else` only.
        /// A model that does not decode from this decoder says nothing: the whole check then
        /// runs on the ``JSONValue``, which decides and names the failure.
        case whenMet

        init?(
            _ check: ModelCheck, reference: Reference?, allOf: [SchemaCheck], not: SchemaCheck?, ifSchema: SchemaCheck?,
            thenSchema: SchemaCheck?, elseSchema: SchemaCheck?
        ) {
            // Keywords of other JSON types say nothing of an object.
            var rest = check.objectKeywords
            // What is told in place.
            rest.types = nil
            rest.required = []
            rest.dependentRequired = [:]
            rest.reference = nil
            rest.allOf = []
            rest.not = nil
            rest.ifSchema = nil
            rest.thenSchema = nil
            rest.elseSchema = nil
            guard rest.isEmpty else { return nil }
            var kind = InPlace.exact
            if check.reference != nil {
                guard reference?.decodes != nil else { return nil }
                kind = .whenMet
            }
            // A condition or a `not` must be told exactly: `false` there decides too.
            for exact in [not, ifSchema].compactMap({ $0 }) where exact.inPlace != .exact { return nil }
            for schema in allOf + [thenSchema, elseSchema].compactMap({ $0 }) {
                guard let inner = schema.inPlace else { return nil }
                if inner == .whenMet { kind = .whenMet }
            }
            self = kind
        }
    }

    /// Whether the object a model's `decoder` is at, whose keyed `container` the model made,
    /// meets the check, told in place (``InPlace``). Call only when ``inPlace`` is not `nil`.
    ///
    /// `true` says the check is met: running it on the ``JSONValue`` would accept the object
    /// too (a `$ref` decodes the model from the decoder in hand, as it does from the
    /// ``JSONValue`` of the same object; a `$ref` marked with the keys it requires is met when
    /// they are present, provided the model then decodes its properties, which refuses every
    /// value the referenced model would). `false` is exact when ``inPlace`` is
    /// ``InPlace/exact``; otherwise it says only that this shortcut cannot tell.
    func isMet(inPlace decoder: any Decoder, container: KeyedDecodingContainer<PropertyKey>) -> Bool {
        if let types = check.types, !types.contains(.object) { return false }
        for name in check.required where !container.contains(PropertyKey(name)) { return false }
        for (name, needed) in sortedDependentRequired where container.contains(PropertyKey(name)) {
            for other in needed where !container.contains(PropertyKey(other)) { return false }
        }
        if let required = reference?.inPlaceRequired {
            // The model's own decoding, which follows, checks the referenced model's properties.
            for key in required where !container.contains(key) { return false }
        } else if let decodes = reference?.decodes, !decodes(decoder) {
            return false
        }
        for schema in allOf where !schema.isMet(inPlace: decoder, container: container) { return false }
        if let not, not.isMet(inPlace: decoder, container: container) { return false }
        if let ifSchema {
            let branch = ifSchema.isMet(inPlace: decoder, container: container) ? thenSchema : elseSchema
            if let branch, !branch.isMet(inPlace: decoder, container: container) { return false }
        }
        return true
    }
    /// Whether an object model being encoded meets the check, told as
    /// ``isMet(inPlace:container:)`` tells it on decode, by the names the encoding writes
    /// (`isPresent`, every name it writes) instead of the container. Call only when
    /// ``inPlace`` is not `nil`.
    ///
    /// A `$ref` is told only when the generator marked it with the keys it requires: the
    /// model's own `encode(to:)` then checks the referenced model's properties, as its
    /// decoding does. Any other `$ref` says nothing here (`false`): the caller checks the JSON.
    func isMet(inPlaceEncoding isPresent: (String) -> Bool) -> Bool {
        if let types = check.types, !types.contains(.object) { return false }
        for name in check.required where !isPresent(name) { return false }
        for (name, needed) in sortedDependentRequired where isPresent(name) {
            for other in needed where !isPresent(other) { return false }
        }
        if let reference {
            guard let required = reference.inPlaceRequired else { return false }
            for key in required where !isPresent(key.stringValue) { return false }
        }
        for schema in allOf where !schema.isMet(inPlaceEncoding: isPresent) { return false }
        if let not, not.isMet(inPlaceEncoding: isPresent) { return false }
        if let ifSchema {
            let branch = ifSchema.isMet(inPlaceEncoding: isPresent) ? thenSchema : elseSchema
            if let branch, !branch.isMet(inPlaceEncoding: isPresent) { return false }
        }
        return true
    }
}
