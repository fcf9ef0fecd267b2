/// The JSON Schema (draft 2020-12) of the YAML format, rendered from the grammar table
/// (`Grammar`): what docs/sesame-format.schema.json holds, for editors to validate and
/// complete schema files. Keys keep the table's order; the output is the same bytes for
/// the same table.
public enum FormatJSONSchema {
    /// The JSON Schema's text, pretty-printed with two spaces and a final newline.
    public static func render() -> String {
        document().written()
    }

    static func document() -> OrderedJSON {
        .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("Sesame schema files")),
            (
                "description",
                .string(
                    "The YAML format of a Sesame schema folder (docs/format.md), generated from the generator's grammar table by `sesame grammar --json-schema`. A file's role comes from its name: use the per-file schemas in docs/schema/ (or #/$defs/sdkFile, authFile, errorsFile, eventsFile, storeFile, modelsFile). Against this root, a file must match one of the kinds."
                )
            ),
            ("anyOf", .array(Grammar.fileKinds.map { .object([("$ref", .string("#/$defs/\($0)File"))]) })),
            ("$defs", .object(Grammar.shared.map { ($0.name, .object(described($0.meaning, $0.value))) })),
        ])
    }

    private static func described(_ meaning: String, _ value: GrammarValue) -> [(String, OrderedJSON)] {
        [("description", .string(meaning))] + members(value)
    }

    /// The keywords of a value's schema.
    static func members(_ value: GrammarValue) -> [(String, OrderedJSON)] {
        switch value {
        case .string(let pattern):
            return [("type", .string("string"))] + (pattern.map { [("pattern", .string($0))] } ?? [])
        case .integer(let minimum, let maximum):
            return [("type", .string("integer"))] + (minimum.map { [("minimum", .integer($0))] } ?? [])
                + (maximum.map { [("maximum", .integer($0))] } ?? [])
        case .number(let exclusiveMinimum):
            return [("type", .string("number"))] + (exclusiveMinimum.map { [("exclusiveMinimum", .integer($0))] } ?? [])
        case .boolean:
            return [("type", .string("boolean"))]
        case .any:
            return []
        case .oneOf(let words):
            return [("enum", .array(words.map { .string($0) }))]
        case .jsonTypes(let types):
            return [("type", types.count == 1 ? .string(types[0]) : .array(types.map { .string($0) }))]
        case .list(let item, let minimumCount, let unique):
            return [("type", .string("array")), ("items", .object(members(item)))]
                + (minimumCount.map { [("minItems", .integer($0))] } ?? []) + (unique ? [("uniqueItems", .bool(true))] : [])
        case .dictionary(let names, let values, let minimumCount):
            return [("type", .string("object"))] + (minimumCount.map { [("minProperties", .integer($0))] } ?? [])
                + (names.map { [("propertyNames", .object(members($0)))] } ?? [])
                + [("additionalProperties", .object(members(values)))]
        case .mapping(let mapping):
            return members(mapping)
        case .either(let forms):
            return [("anyOf", .array(forms.map { .object(members($0)) }))]
        case .shared(let name):
            return [("$ref", .string("#/$defs/\(name)"))]
        case .refined(let base, let more):
            return members(base) + more
        case .template(let placeholders):
            let names = placeholders.sorted().joined(separator: "|")
            return members(.either([.string(pattern: "^([^{]|\\{(\(names))\\})*$"), .jsonTypes(["number", "boolean", "null"])]))
        }
    }

    private static func members(_ mapping: GrammarMapping) -> [(String, OrderedJSON)] {
        var result: [(String, OrderedJSON)] = [
            ("type", mapping.nullable ? .array([.string("object"), .string("null")]) : .string("object")),
            ("properties", .object(mapping.keys.map { ($0.name, .object(described($0.description, $0.value))) })),
        ]
        let required = mapping.keys.filter(\.isRequired).map { OrderedJSON.string($0.name) }
        if !required.isEmpty { result.append(("required", .array(required))) }
        if !mapping.requiresOneOf.isEmpty {
            result.append(("anyOf", .array(mapping.requiresOneOf.map { .object([("required", .array([.string($0)]))]) })))
        }
        if let names = mapping.names {
            if let pattern = names.pattern.pattern {
                result.append(("patternProperties", .object([(pattern, .object(members(names.value)))])))
                result.append(("additionalProperties", .bool(false)))
            } else {
                result.append(("additionalProperties", .object(members(names.value))))
            }
        } else {
            result.append(("additionalProperties", .bool(false)))
        }
        // The keys a key needs beside it in the same mapping; paths elsewhere in the folder
        // are the translator's to check.
        let dependencies = mapping.keys.compactMap { key -> (String, OrderedJSON)? in
            let siblings = key.requires.filter { mapping.key($0) != nil }
            return siblings.isEmpty ? nil : (key.name, .array(siblings.map { .string($0) }))
        }
        if !dependencies.isEmpty { result.append(("dependentRequired", .object(dependencies))) }
        return result + mapping.extra
    }
}
