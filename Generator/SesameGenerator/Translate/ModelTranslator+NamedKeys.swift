import Yams
@_spi(Generated) import SesameDescription

/// The keys an object model's own checks name without declaring them (as in `oneOf/8` of
/// the JSON-Schema-Test-Suite): `{ type: object, oneOf: [{ required: [foo, bar] }, { required:
/// [foo, baz] }] }` accepts `{"foo": 1, "bar": 2}`, and a struct that kept nothing of it would
/// encode `{}`, which its own `oneOf` refuses. So such a model keeps each key its checks name
/// (`required`, `dependentRequired`, `properties`, the keys of an object `const` or `enum`
/// value, in the check itself and in its `allOf`,
/// `anyOf`, `oneOf`, `not`, `if`/`then`/`else` and `dependentSchemas` branches, and in the
/// checks of the models their `$ref`s name) as a `JSONValue?` property of its own, decoded and
/// encoded back as received; and the undeclared keys its checks count or match without naming
/// them (`minProperties`, `patternProperties`) in an `additionalProperties` dictionary.
///
/// Only a model that ignores its undeclared keys needs them: one that keeps them
/// (`additionalProperties` or `unevaluatedProperties` `true` or a schema, or an
/// `unevaluatedProperties` a branch decides) holds them in its dictionary already, and one
/// that refuses them (`false`) never decodes them.
extension ModelTranslator {
    /// What an object's checks need it to keep of the keys it does not declare.
    struct ChecksKeys {
        /// The keys the checks name, here and through the models their `$ref`s name.
        var keys: Set<String> = []
        /// Those of ``keys`` found only through a `$ref` (counted against
        /// `maximumMergedProperties`, as `allOf` copies are).
        var throughReferences: Set<String> = []
        /// The `patternProperties` patterns of the checks.
        var patterns: Set<String> = []
        /// Whether a check tells the undeclared keys apart where refusing them can make the
        /// object pass (`not`, `oneOf`, `if`): then every one is kept.
        var keepsAll = false
        /// The largest `minProperties` of the checks: past the keys always present (the
        /// required properties), it counts undeclared keys, and every one is kept.
        var minProperties = 0
    }

    /// `object` with a property for each key its checks name and it does not declare, after
    /// its declared properties, in key order, and with its undeclared keys kept when its checks
    /// count or match them; unchanged when it does not ignore its undeclared keys. An error at
    /// `node` when the keys found through `$ref`s would pass `maximumMergedProperties`.
    mutating func keepingKeysNamedByChecks(
        _ object: ObjectIR, at location: SourceLocation, node: Node, reader: inout NodeReader
    ) -> ObjectIR {
        guard object.additionalProperties == .ignored, let schema = object.schema else { return object }
        let declared = Set(object.properties.map(\.name))
        let found = checksKeys(schema)
        let added = found.throughReferences.subtracting(declared)
        if mergedProperties + added.count > Self.maximumMergedProperties {
            reader.error(
                "the $refs of this object's checks would add more than \(Self.maximumMergedProperties) properties to the models that name their keys, in all models; declare the keys in properties",
                at: node)
            return object
        }
        mergedProperties += added.count
        var result = object
        for key in found.keys.subtracting(declared).sorted() {
            var property = PropertyIR(
                name: key, type: .any, required: false, nullable: false, defaultValue: nil, constraints: ConstraintsIR(),
                description: "Named by the schema's checks, not declared in `properties`: kept as received (`null` too).",
                location: location)
            property.namedByChecks = true
            result.properties.append(property)
        }
        // A required property is always written (`null` too): `minProperties` up to their count
        // is met without any undeclared key.
        let keepsAll = found.keepsAll || found.minProperties > object.properties.filter(\.required).count
        if keepsAll || !found.patterns.isEmpty {
            result.additionalProperties = .kept(.any, ConstraintsIR())
            result.keptForChecks = keepsAll ? .all : .matching(found.patterns.sorted())
        }
        return result
    }

    /// What `check` needs kept of the object it applies to: the keys it and its in-place
    /// branches name, count or match, and those of the models their `$ref`s name; not those of
    /// the subschemas that apply to other values (`properties` values, `items`,
    /// `additionalProperties`, `propertyNames`, …).
    ///
    /// Walked with a work list and a set of the models seen (a chain of 100,000 `$ref`s
    /// costs memory, never call-stack depth, and a cycle ends). A referenced object
    /// model that ignores its undeclared keys holds what its checks need already (its
    /// properties, ``ObjectIR/keptForChecks``): it is read, not walked again. A model not
    /// translated yet is noted (`model(named:)`), and the model is tried again once it is.
    mutating func checksKeys(_ check: ModelCheck) -> ChecksKeys {
        var found = ChecksKeys()
        // `mixed`: under `not`, `oneOf` or `if`, where a branch that fails can make the object pass.
        var pending: [(check: ModelCheck, mixed: Bool, referenced: Bool)] = [(check, false, false)]
        var seen: Set<String> = []
        func add(_ keys: some Sequence<String>, referenced: Bool) {
            for key in keys where found.keys.insert(key).inserted && referenced { found.throughReferences.insert(key) }
            if !referenced { found.throughReferences.subtract(keys) }
        }
        while let item = pending.popLast() {
            let (next, mixed, referenced) = item
            add(next.required, referenced: referenced)
            add(next.properties.keys, referenced: referenced)
            for (key, names) in next.dependentRequired { add([key] + names, referenced: referenced) }
            // An object `const` or `enum` value names its keys too.
            for case .object(let value)? in [next.constValue] + (next.enumValues ?? []).map(Optional.some) {
                add(value.keys, referenced: referenced)
            }
            found.patterns.formUnion(next.patternProperties.keys)
            found.minProperties = max(found.minProperties, next.minProperties ?? 0)
            if mixed && (next.maxProperties != nil || next.propertyNames != nil || next.additionalProperties != nil) {
                found.keepsAll = true
            }
            pending += (next.allOf + next.anyOf).map { ($0, mixed, referenced) }
            pending += next.oneOf.map { ($0, true, referenced) }
            for (single, branchMixed) in [(next.not, true), (next.ifSchema, true), (next.thenSchema, mixed), (next.elseSchema, mixed)] {
                if let single { pending.append((single, branchMixed, referenced)) }
            }
            guard let name = next.reference, seen.insert("\(mixed) \(name)").inserted, let model = model(named: name) else {
                continue
            }
            switch model.kind {
            case .object(let object):
                add(object.properties.map(\.name), referenced: true)
                switch object.keptForChecks {
                case .all?: found.keepsAll = true
                case .matching(let patterns)?: found.patterns.formUnion(patterns)
                case nil: break
                }
                let summarized = object.additionalProperties == .ignored || object.keptForChecks != nil
                if let schema = object.schema, mixed || !summarized { pending.append((schema, mixed, true)) }
            case .alias(let type, let constraints):
                if let schema = constraints.schema { pending.append((schema, mixed, true)) }
                if case .model(let target) = type, let declared = target.declaredName {
                    pending.append((ModelCheck(reference: declared), mixed, true))
                }
            case .union(let union):
                // The value is one of the variants: which one depends on its keys.
                pending += union.variants.compactMap(\.model.declaredName).map { (ModelCheck(reference: $0), true, true) }
            case .choice(let choice):
                for case .model(let target)? in choice.variants.map(\.type) {
                    if let declared = target.declaredName { pending.append((ModelCheck(reference: declared), true, true)) }
                }
            case .enumeration:
                break
            }
        }
        return found
    }
}
