import Yams
@_spi(Generated) import SesameDescription

/// The check-extraction pass: the JSON Schema 2020-12 keywords that do not change a model's
/// Swift type, as a `ModelCheck` of the decoded JSON (checked by the runtime's `SchemaCheck`),
/// with every keyword of the subschemas they hold.
extension ModelTranslator {
    /// The keywords of `entries` that the Swift type does not express, as a check of the JSON
    /// value; nil when there are none. `unevaluatedProperties: false` when the schema is a
    /// struct, which translates that keyword itself (ModelTranslator+Unevaluated).
    mutating func checkedKeywords(_ entries: [Entry], unevaluatedProperties: Bool = true, reader: inout NodeReader) -> ModelCheck? {
        guard entries.contains(where: { Self.isCheckedKeyword($0.key) }) else { return nil }
        var check = ModelCheck()
        // anyOf and oneOf beside a type or properties: checks, not choices (see isChoice).
        if !isChoice(entries) && entries["discriminator"] == nil {
            for key in ["anyOf", "oneOf"] {
                guard let entry = entries[key], let members = reader.sequence(entry.value, key) else { continue }
                let checks = members.map { schemaCheck($0, reader: &reader) }
                if key == "anyOf" { check.anyOf = checks } else { check.oneOf = checks }
            }
        }
        if let entry = entries["multipleOf"], let value = reader.number(entry.value, "multipleOf") {
            if value > 0 { check.multipleOf = value } else { reader.error("multipleOf must be greater than 0", at: entry.value) }
        }
        if let entry = entries["uniqueItems"] { check.uniqueItems = reader.bool(entry.value, "uniqueItems") ?? false }
        check.minProperties = entries["minProperties"].flatMap { count($0, reader: &reader) }
        check.maxProperties = entries["maxProperties"].flatMap { count($0, reader: &reader) }
        check.minContains = entries["minContains"].flatMap { count($0, reader: &reader) }
        check.maxContains = entries["maxContains"].flatMap { count($0, reader: &reader) }
        if entries["contains"] == nil {
            for key in ["minContains", "maxContains"] {
                if let entry = entries[key] { reader.error("\(key) needs contains", at: entry.keyNode) }
            }
        }
        if let entry = entries["dependentRequired"], let dependencies = reader.mapping(entry.value, "dependentRequired") {
            for dependency in dependencies {
                check.dependentRequired[dependency.key] = reader.strings(dependency.value, "dependentRequired")?.map(\.0) ?? []
            }
        }
        if let entry = entries["dependentSchemas"], let dependencies = reader.mapping(entry.value, "dependentSchemas") {
            // `dependentSchemas: { card: S }` is `if: { type: object, required: [card] }, then: S`:
            // S applies to the whole object when it has the key (and to nothing else).
            for dependency in dependencies {
                var present = ModelCheck()
                present.types = [.object]
                present.required = [dependency.key]
                var conditional = ModelCheck()
                conditional.ifSchema = present
                conditional.thenSchema = schemaCheck(dependency.value, reader: &reader)
                check.allOf.append(conditional)
            }
        }
        if let entry = entries["propertyNames"] { check.propertyNames = schemaCheck(entry.value, reader: &reader) }
        if let entry = entries["patternProperties"], let patterns = reader.mapping(entry.value, "patternProperties") {
            for pattern in patterns {
                if (try? Regex(pattern.key)) == nil {
                    reader.error("'\(pattern.key)' is not a valid regular expression", at: pattern.keyNode)
                    continue
                }
                if let problem = Self.nonECMASyntax(pattern.key) {
                    reader.error("'\(pattern.key)' is not an ECMA-262 regular expression: \(problem)", at: pattern.keyNode)
                    continue
                }
                check.patternProperties[pattern.key] = schemaCheck(pattern.value, reader: &reader)
            }
        }
        if let entry = entries["prefixItems"], let items = reader.sequence(entry.value, "prefixItems") {
            check.prefixItems = items.map { schemaCheck($0, reader: &reader) }
        }
        if let entry = entries["contains"] { check.contains = schemaCheck(entry.value, reader: &reader) }
        if let entry = entries["not"] { check.not = schemaCheck(entry.value, reader: &reader) }
        if let entry = entries["if"] {
            check.ifSchema = schemaCheck(entry.value, reader: &reader)
            check.thenSchema = entries["then"].map { schemaCheck($0.value, reader: &reader) }
            check.elseSchema = entries["else"].map { schemaCheck($0.value, reader: &reader) }
        }
        // `then` and `else` without `if` are ignored, as 2020-12 says.
        if let entry = entries["unevaluatedItems"], !unevaluatedItemsAreItems(entries),
            let unevaluated = unevaluatedItemsCheck(entry, in: entries, reader: &reader)
        {
            check.allOf.append(unevaluated)
        }
        if unevaluatedProperties, let entry = entries["unevaluatedProperties"],
            let unevaluated = unevaluatedPropertiesCheck(entry, in: entries, reader: &reader)
        {
            check.allOf.append(unevaluated)
        }
        return check.isEmpty ? nil : check
    }

    /// A whole subschema as a check of the JSON value: the schemas inside `not`, `if`,
    /// `contains`, `propertyNames`, `prefixItems` and `patternProperties`.
    /// `reportingUnsupported: false` when the caller reported the schema's unsupported
    /// keywords already (a schema whose Swift type is JSONValue, checked as a whole).
    mutating func schemaCheck(_ node: Node, reportingUnsupported: Bool = true, reader: inout NodeReader) -> ModelCheck {
        var check = ModelCheck()
        if case .scalar = node, let flag = node.bool { return flag ? check : .never }
        guard let entries = reader.mapping(node, "a schema", grammar: Grammar.schema)?.entries else { return check }
        if reportingUnsupported { reportUnsupported(entries, reader: &reader) }
        if let ref = entries["$ref"] {
            if let name = resolveReference(ref.value, reader: &reader), declarations[name] != nil {
                check.reference = name
            }
        }
        if let entry = entries["type"] {
            let names: [String]
            switch entry.value {
            case .sequence(let items): names = items.compactMap { $0.isNullScalar ? "null" : reader.string($0, "a type") }
            default: names = reader.string(entry.value, "type").map { [$0] } ?? []
            }
            let known: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]
            for name in names where !known.contains(name) {
                reader.error("unknown type '\(name)'; expected string, integer, number, boolean, array, object or null", at: entry.value)
            }
            check.types = names.compactMap(ModelCheck.JSONType.init(rawValue:))
        }
        check.constValue = entries["const"].flatMap { literal($0.value, reader: &reader) }
        if let entry = entries["enum"], let items = reader.sequence(entry.value, "enum") {
            check.enumValues = items.compactMap { literal($0, reader: &reader) }
        }
        check.minimum = entries["minimum"].flatMap { reader.number($0.value, "minimum") }
        check.maximum = entries["maximum"].flatMap { reader.number($0.value, "maximum") }
        check.exclusiveMinimum = entries["exclusiveMinimum"].flatMap { reader.number($0.value, "exclusiveMinimum") }
        check.exclusiveMaximum = entries["exclusiveMaximum"].flatMap { reader.number($0.value, "exclusiveMaximum") }
        check.minLength = entries["minLength"].flatMap { count($0, reader: &reader) }
        check.maxLength = entries["maxLength"].flatMap { count($0, reader: &reader) }
        check.minItems = entries["minItems"].flatMap { count($0, reader: &reader) }
        check.maxItems = entries["maxItems"].flatMap { count($0, reader: &reader) }
        check.pattern = pattern(entries, reader: &reader)
        if let entry = entries["format"], let format = reader.string(entry.value, "format") {
            if let known = StringFormat(rawValue: format) {
                // An annotation (`models: { formats: annotate }`) is not checked.
                if options.asserts(known) { check.format = format }
            } else if !KnownFormats.contains(format) {
                reportUnknownFormat(format, at: entry.value, reader: &reader)
            }
        }
        if let entry = entries["items"] { check.items = schemaCheck(entry.value, reader: &reader) }
        if let entry = entries["properties"], let properties = reader.mapping(entry.value, "properties") {
            for property in properties { check.properties[property.key] = schemaCheck(property.value, reader: &reader) }
        }
        if let entry = entries["required"] { check.required = reader.strings(entry.value, "required")?.map(\.0) ?? [] }
        if let entry = entries["additionalProperties"] {
            check.additionalProperties = schemaCheck(entry.value, reader: &reader)
        }
        if let entry = entries["allOf"], let members = reader.sequence(entry.value, "allOf") {
            check.allOf = members.map { schemaCheck($0, reader: &reader) }
        }
        if isChoice(entries) || entries["discriminator"] != nil {
            // Here every schema is a check, a choice too (checkedKeywords reads the others).
            for key in ["anyOf", "oneOf"] {
                guard let entry = entries[key], let members = reader.sequence(entry.value, key) else { continue }
                let checks = members.map { schemaCheck($0, reader: &reader) }
                if key == "anyOf" { check.anyOf = checks } else { check.oneOf = checks }
            }
        }
        if let more = checkedKeywords(entries, reader: &reader) { check.merge(more) }
        return check
    }
}

extension ModelCheck {
    /// Adds the keywords of `other` that this check leaves out.
    mutating func merge(_ other: ModelCheck) {
        multipleOf = multipleOf ?? other.multipleOf
        uniqueItems = uniqueItems || other.uniqueItems
        minProperties = minProperties ?? other.minProperties
        maxProperties = maxProperties ?? other.maxProperties
        minContains = minContains ?? other.minContains
        maxContains = maxContains ?? other.maxContains
        dependentRequired.merge(other.dependentRequired) { first, _ in first }
        propertyNames = propertyNames ?? other.propertyNames
        patternProperties.merge(other.patternProperties) { first, _ in first }
        if prefixItems.isEmpty { prefixItems = other.prefixItems }
        contains = contains ?? other.contains
        not = not ?? other.not
        ifSchema = ifSchema ?? other.ifSchema
        thenSchema = thenSchema ?? other.thenSchema
        elseSchema = elseSchema ?? other.elseSchema
        required += other.required.filter { !required.contains($0) }
        additionalProperties = additionalProperties ?? other.additionalProperties
        constValue = constValue ?? other.constValue
        if anyOf.isEmpty { anyOf = other.anyOf }
        if oneOf.isEmpty { oneOf = other.oneOf }
        allOf += other.allOf.filter { !allOf.contains($0) }
    }
}
