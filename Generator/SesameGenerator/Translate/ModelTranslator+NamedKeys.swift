@_spi(Generated) import SesameDescription

/// The keys an object model's own checks name without declaring them (issue 27, `oneOf/8` of
/// the JSON-Schema-Test-Suite): `{ type: object, oneOf: [{ required: [foo, bar] }, { required:
/// [foo, baz] }] }` accepts `{"foo": 1, "bar": 2}`, and a struct that kept nothing of it would
/// encode `{}`, which its own `oneOf` refuses. So such a model keeps each key its checks name
/// (`required`, `dependentRequired`, `properties`, in the check itself and in its `allOf`,
/// `anyOf`, `oneOf`, `not`, `if`/`then`/`else` and `dependentSchemas` branches) as a
/// `JSONValue?` property of its own, decoded and encoded back as received.
///
/// Only a model that ignores its undeclared keys needs them: one that keeps them
/// (`additionalProperties` or `unevaluatedProperties` `true` or a schema, or an
/// `unevaluatedProperties` a branch decides) holds them in its dictionary already, and one
/// that refuses them (`false`) never decodes them.
extension ModelTranslator {
    /// `object` with a property for each key its check names and it does not declare, after
    /// its declared properties, in key order; unchanged when it has none or does not ignore
    /// its undeclared keys.
    static func keepingKeysNamedByChecks(_ object: ObjectIR, at location: SourceLocation) -> ObjectIR {
        guard object.additionalProperties == .ignored, let schema = object.schema else { return object }
        let declared = Set(object.properties.map(\.name))
        var result = object
        for key in namedKeys(schema).subtracting(declared).sorted() {
            var property = PropertyIR(
                name: key, type: .any, required: false, nullable: false, defaultValue: nil, constraints: ConstraintsIR(),
                description: "Named by the schema's checks, not declared in `properties`: kept as received (`null` too).",
                location: location)
            property.namedByChecks = true
            result.properties.append(property)
        }
        return result
    }

    /// The keys `check` names for the object it applies to, and those its in-place branches
    /// name; not those of the subschemas that apply to other values (`properties` values,
    /// `items`, `additionalProperties`, `propertyNames`, …) nor those of a `$ref`'s model.
    /// Walked with a work list: a check is a finite tree.
    static func namedKeys(_ check: ModelCheck) -> Set<String> {
        var keys: Set<String> = []
        var pending = [check]
        while let next = pending.popLast() {
            keys.formUnion(next.required)
            keys.formUnion(next.properties.keys)
            for (key, names) in next.dependentRequired {
                keys.insert(key)
                keys.formUnion(names)
            }
            pending += next.allOf + next.anyOf + next.oneOf
            for single in [next.not, next.ifSchema, next.thenSchema, next.elseSchema] {
                if let single { pending.append(single) }
            }
        }
        return keys
    }
}
