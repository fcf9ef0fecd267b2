extension SchemaCheck {
    /// What a `$ref` of a check names: how a value is checked against the model, on the
    /// ``JSONValue`` the check holds and, when it can be, on the decoder the value is in.
    ///
    /// Called as a function on a ``JSONValue``: `reference(value, codingPath)` throws a
    /// ``SchemaViolation`` when the value is not the model.
    public struct Reference: Sendable {
        /// Checks a ``JSONValue`` found at a coding path.
        let validate: @Sendable (JSONValue, [any CodingKey]) throws -> Void
        /// Whether the value a decoder is at decodes as the model, strictly; `nil` when the
        /// reference can only check a ``JSONValue``. `false` says only that this decoder did not
        /// decode it: the caller then checks the ``JSONValue``, which decides and names the failure.
        let decodes: (@Sendable (any Decoder) -> Bool)?
        /// The keys whose presence tells the `$ref` on the decoder of the one object model whose
        /// check holds it, when that model's own decoding checks every present property of the
        /// referenced model as the referenced model does (the generator decides it:
        /// ``ModelCoding/reference(_:inPlaceRequires:)``); `nil` otherwise.
        let inPlaceRequired: [PropertyKey]?

        /// A reference that checks a ``JSONValue`` with `validate`, which throws a
        /// ``SchemaViolation`` when the value does not match.
        public init(_ validate: @escaping @Sendable (JSONValue, [any CodingKey]) throws -> Void) {
            self.validate = validate
            self.decodes = nil
            self.inPlaceRequired = nil
        }

        /// A reference that checks a ``JSONValue`` with `validate`, and the value a decoder is
        /// at with `decodes` (see ``SchemaCheck/Reference``).
        init(
            _ validate: @escaping @Sendable (JSONValue, [any CodingKey]) throws -> Void,
            decodes: @escaping @Sendable (any Decoder) -> Bool, inPlaceRequired: [PropertyKey]? = nil
        ) {
            self.validate = validate
            self.decodes = decodes
            self.inPlaceRequired = inPlaceRequired
        }

        /// Checks `value`, found at `codingPath`.
        /// - Throws: ``SchemaViolation`` naming the path and keyword of the failure.
        public func callAsFunction(_ value: JSONValue, _ codingPath: [any CodingKey]) throws {
            try validate(value, codingPath)
        }
    }
}
