import Foundation
import SesameDescription
import Yams

/// The JSON Schema 2020-12 keywords that do not change a model's Swift type, checked on the
/// decoded JSON by the runtime's `SchemaCheck`; `anyOf`, `oneOf` without a discriminator and
/// `type` lists, which become enums of their schemas; and the checks of `default` values.
extension ModelTranslator {
    /// Keywords allowed beside `$ref` (annotations).
    static let besideReference: Set<String> = [
        "$ref", "description", "title", "default", "deprecated", "examples", "$comment", "$id", "$anchor", "$defs", "readOnly",
        "writeOnly",
    ]

    /// Reports every unsupported keyword of a schema (`Grammar.unsupportedKeywords`, which
    /// the reader lets through), and an `$id` that is not a string.
    func reportUnsupported(_ entries: [Entry], reader: inout NodeReader) {
        for entry in entries {
            switch entry.key {
            // A switch compares without hashing: this runs for every key of every schema.
            case "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "unevaluatedProperties", "unevaluatedItems", "dependentSchemas",
                "contentEncoding", "contentMediaType", "contentSchema":
                let message = Grammar.unsupportedKeywords.first { $0.keyword == entry.key }?.message
                reader.error(message ?? "\(entry.key) is not supported", at: entry.keyNode)
            case "$id" where entry.value.string == nil:
                reader.error("$id must be a string", at: entry.value)
            default:
                break
            }
        }
    }

    /// Whether `checkedKeywords` reads the key (a switch: no hashing for every key of every schema).
    static func isCheckedKeyword(_ key: String) -> Bool {
        switch key {
        case "multipleOf", "uniqueItems", "minProperties", "maxProperties", "dependentRequired", "propertyNames", "patternProperties",
            "prefixItems", "contains", "minContains", "maxContains", "not", "if", "then", "else", "anyOf", "oneOf":
            return true
        default:
            return false
        }
    }

    // MARK: Counts

    /// A count: a non-negative integer, written `2` or `2.0` (JSON Schema allows any number
    /// with a zero fraction).
    func count(_ entry: Entry, reader: inout NodeReader) -> Int? {
        guard case .scalar = entry.value else {
            reader.error("\(entry.key) must be a non-negative integer, found \(entry.value.describedValue)", at: entry.value)
            return nil
        }
        let value: Int
        if let integer = entry.value.int {
            value = integer
        } else if let number = entry.value.float, number.isFinite, number.rounded() == number, abs(number) < 1e15 {
            value = Int(number)
        } else {
            reader.error("\(entry.key) must be a non-negative integer, found \(entry.value.describedValue)", at: entry.value)
            return nil
        }
        if value < 0 {
            reader.error("\(entry.key) must not be negative", at: entry.value)
            return nil
        }
        return value
    }

    // MARK: Checked keywords

    /// The keywords of `entries` that the Swift type does not express, as a check of the JSON
    /// value; nil when there are none.
    mutating func checkedKeywords(_ entries: [Entry], reader: inout NodeReader) -> ModelCheck? {
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
        } else {
            for key in ["then", "else"] {
                if let entry = entries[key] { reader.error("\(key) needs if", at: entry.keyNode) }
            }
        }
        return check.isEmpty ? nil : check
    }

    /// A whole subschema as a check of the JSON value: the schemas inside `not`, `if`,
    /// `contains`, `propertyNames`, `prefixItems` and `patternProperties`.
    mutating func schemaCheck(_ node: Node, reader: inout NodeReader) -> ModelCheck {
        var check = ModelCheck()
        if case .scalar = node, let flag = node.bool { return flag ? check : .never }
        guard let entries = reader.mapping(node, "a schema", grammar: Grammar.schema)?.entries else { return check }
        reportUnsupported(entries, reader: &reader)
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
        check.constValue = entries["const"].flatMap { literal($0.value, reader: &reader)?.jsonValue }
        if let entry = entries["enum"], let items = reader.sequence(entry.value, "enum") {
            check.enumValues = items.compactMap { literal($0, reader: &reader)?.jsonValue }
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
            if StringFormat(rawValue: format) == nil { reportUnknownFormat(format, at: entry.value, reader: &reader) }
            check.format = format
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

    /// `pattern`, when it is a valid regular expression; an error at it otherwise.
    func pattern(_ entries: [Entry], reader: inout NodeReader) -> String? {
        guard let entry = entries["pattern"], let pattern = reader.string(entry.value, "pattern") else { return nil }
        if (try? Regex(pattern)) == nil {
            reader.error("pattern is not a valid regular expression", at: entry.value)
            return nil
        }
        if let problem = Self.nonECMASyntax(pattern) {
            reader.error("pattern is not an ECMA-262 regular expression: \(problem)", at: entry.value)
            return nil
        }
        return pattern
    }

    /// Syntax Swift's `Regex` accepts but ECMA-262 (JSON Schema's dialect) refuses or
    /// reads otherwise, described; nil when there is none. Accepting it would check
    /// something other than what the schema means to every other JSON Schema validator
    /// (`(?i)abc` is case-insensitive in Swift, an error in ECMA-262).
    static func nonECMASyntax(_ pattern: String) -> String? {
        let characters = Array(pattern)
        var inClass = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "\\":
                // Escapes of Swift (PCRE, Oniguruma) that ECMA-262 does not have.
                if let next, "AZzhHRKGXQENeaoOgyY".contains(next) { return "\\\(next) is not an ECMA-262 escape" }
                index += 2
                continue
            case "[" where inClass:
                return "a [ inside a character class is a nested class in Swift, a literal in ECMA-262; write \\["
            case "[":
                inClass = true
                if next == "^" { index += 1 }  // negates the class
            case "]" where inClass:
                inClass = false
            case "&" where inClass && next == "&", "~" where inClass && next == "~":
                return "\(character)\(character) inside a character class is a set operation in Swift, not in ECMA-262"
            case "(" where !inClass && next == "?":
                let after: Character? = index + 2 < characters.count ? characters[index + 2] : nil
                if let after, !":=!<".contains(after) { return "(?\(after) is not an ECMA-262 group" }
            case "*", "+", "?", "}":
                if !inClass, next == "+", character != "?" || index == 0 || characters[index - 1] != "(" {
                    return "a possessive quantifier (\(character)+) is not ECMA-262"
                }
            case "{" where !inClass && next == ",":
                return "{, is not an ECMA-262 quantifier"
            default:
                break
            }
            index += 1
        }
        return nil
    }

    func reportUnknownFormat(_ text: String, at node: Node, reader: inout NodeReader) {
        reader.error(
            "unsupported format '\(text)'; Sesame supports \(StringFormat.allCases.map(\.rawValue).joined(separator: ", "))", at: node)
    }

    // MARK: anyOf, oneOf without a discriminator, type lists

    /// Whether a schema is a `type` list of more than one type besides `null`.
    func isTypeList(_ entries: [Entry]) -> Bool {
        guard let index = entries.firstIndex(where: { $0.key == "type" }), case .sequence(let items) = entries[index].value else {
            return false
        }
        return items.filter { !($0.isNullScalar || $0.string == "null") }.count > 1
    }

    /// Whether a schema becomes a choice: `anyOf`, `oneOf` without a discriminator, or a type list.
    /// Beside `type` or `properties`, `anyOf` and `oneOf` only check the value (`type: object`
    /// with `anyOf: [{ required: [a] }, { required: [b] }]`).
    func isChoice(_ entries: [Entry]) -> Bool {
        // One pass over the keys: this runs for every schema.
        var anyOf = false
        var oneOf = false
        var alone = true
        var discriminator = false
        var type = false
        for entry in entries {
            switch entry.key {
            case "anyOf": anyOf = true
            case "oneOf": oneOf = true
            case "discriminator": discriminator = true
            case "properties": alone = false
            case "type":
                alone = false
                type = true
            default: break
            }
        }
        return (anyOf && alone) || (oneOf && !discriminator && alone) || (type && isTypeList(entries))
    }

    /// `oneOf: [X, {type: null}]` (or `anyOf`): the one schema besides null, which a property
    /// then holds as an optional.
    func nullableMember(_ entries: [Entry]) -> Node? {
        guard let key = entries.first(where: { $0.key == "oneOf" || $0.key == "anyOf" })?.key, entries["discriminator"] == nil,
            entries.allSatisfy({ [key, "description", "title", "deprecated", "examples", "$comment", "default"].contains($0.key) }),
            case .sequence(let members) = entries[key]!.value, members.count == 2
        else { return nil }
        let others = members.filter { !isNullSchema($0) }
        return others.count == 1 ? others[0] : nil
    }

    func isNullSchema(_ node: Node) -> Bool {
        guard case .mapping(let mapping) = node, mapping.count == 1, let type = mapping["type"] else { return false }
        return type.string == "null" || type.isNullScalar
    }

    /// The variants of a choice. Inline schemas with constraints become nested models, so
    /// that each variant decodes with its checks.
    mutating func choice(
        _ entries: [Entry], qualifiedName: String, nested: inout [ModelIR], reader: inout NodeReader
    ) -> ChoiceIR {
        if isTypeList(entries) {
            for other in entries where !["type", "description", "title", "deprecated", "examples", "$comment"].contains(other.key) {
                reader.error("'\(other.key)' beside a list of types is not supported; use anyOf with a schema per type", at: other.keyNode)
            }
            var variants: [ChoiceVariantIR] = []
            guard case .sequence(let items) = entries["type"]!.value else {
                return ChoiceIR(keyword: "type", exactlyOne: false, variants: [])
            }
            for item in items {
                let name = item.isNullScalar ? "null" : item.string ?? ""
                let type: TypeIR?
                switch name {
                case "null": type = nil
                case "string": type = .string(nil)
                case "integer": type = .integer
                case "number": type = .number
                case "boolean": type = .boolean
                case "array": type = .array(.any)
                case "object": type = .dictionary(.any)
                default:
                    reader.error("unknown type '\(name)'; expected string, integer, number, boolean, array, object or null", at: item)
                    continue
                }
                variants.append(ChoiceVariantIR(type: type, hint: name, location: reader.location(of: item)))
            }
            return ChoiceIR(keyword: "type", exactlyOne: false, variants: variants)
        }
        let key = entries["oneOf"] != nil ? "oneOf" : "anyOf"
        for other in entries
        where ![key, "description", "title", "deprecated", "examples", "$comment", "$id", "$anchor", "$defs"].contains(other.key) {
            reader.error("'\(other.key)' beside \(key) is not supported; move it into each of the \(key) schemas", at: other.keyNode)
        }
        var variants: [ChoiceVariantIR] = []
        for (index, member) in (reader.sequence(entries[key]!.value, key) ?? []).enumerated() {
            let location = reader.location(of: member)
            if isNullSchema(member) {
                variants.append(ChoiceVariantIR(type: nil, hint: "null", location: location))
                continue
            }
            let hint = "Option\(index + 1)"
            if case .mapping = member, let memberEntries = reader.mapping(member, "a \(key) schema", grammar: Grammar.schema)?.entries,
                let ref = memberEntries["$ref"]
            {
                guard let name = resolveReference(ref.value, reader: &reader), let declaration = declarations[name] else { continue }
                variants.append(ChoiceVariantIR(type: .model(declaration.reference), hint: declaration.swiftName, location: location))
                continue
            }
            var resolved = inlineType(member, qualifiedName: qualifiedName, hint: hint, nested: &nested, reader: &reader)
            if !resolved.constraints.isEmpty || resolved.nullable || resolved.type.isCheckedOnDecode {
                // A variant with checks of its own (a format a parser checks among them): a nested model that runs them.
                let swiftName = uniqueNestedName(hint, in: nested, owner: qualifiedName)
                let path = qualifiedName.isEmpty ? swiftName : "\(qualifiedName).\(swiftName)"
                let model = namedModel(name: swiftName, swiftName: swiftName, qualifiedName: path, node: member, reader: &reader)
                nested.removeAll { $0.swiftName == swiftName }
                nested.append(model)
                resolved.type = .model(ModelRef(declaredName: nil, swiftPath: path))
                variants.append(
                    ChoiceVariantIR(type: resolved.type, hint: Self.hint(for: resolved.type, fallback: hint), location: location))
                continue
            }
            variants.append(ChoiceVariantIR(type: resolved.type, hint: Self.hint(for: resolved.type, fallback: hint), location: location))
        }
        if variants.isEmpty { reader.error("\(key) must list at least one schema", at: entries[key]!.value) }
        return ChoiceIR(keyword: key, exactlyOne: key == "oneOf", variants: variants)
    }

    /// The case name a variant's type suggests.
    static func hint(for type: TypeIR, fallback: String) -> String {
        switch type {
        case .string(let format?): return SwiftName.lowerCamel(format.rawValue)
        case .string(nil): return "string"
        case .integer: return "integer"
        case .number: return "number"
        case .boolean: return "boolean"
        case .any: return fallback
        case .array: return "array"
        case .dictionary: return "object"
        case .model(let model): return String(model.swiftPath.split(separator: ".").last ?? Substring(fallback))
        }
    }

    // MARK: Defaults

    /// Whether a number is a multiple of `step` as the YAML writes them, not as binary floating
    /// point rounds them (0.3 is a multiple of 0.1): the rule of the runtime's
    /// `SchemaCheck.isMultiple(_:of:)`, which the generator does not link.
    static func isMultiple(_ value: LiteralIR, of step: Double) -> Bool {
        guard step > 0, step.isFinite else { return false }
        let text: String
        switch value {
        case .integer(let integer):
            if step.rounded() == step, step < 9.2e18 { return integer % Int(step) == 0 }
            text = String(integer)
        case .number(let number): text = "\(number)"
        default: return false
        }
        guard let dividend = Decimal(string: text), let divisor = Decimal(string: "\(step)"), divisor != 0 else {
            let quotient = (Double(text) ?? .nan) / step
            return quotient.isFinite && quotient.rounded() == quotient
        }
        var quotient = dividend / divisor
        var whole = Decimal()
        NSDecimalRound(&whole, &quotient, 0, .plain)
        return whole == quotient
    }

    /// What a `default` breaks among its schema's constraints, or nil when it fits them.
    static func violation(of value: LiteralIR, _ constraints: ConstraintsIR) -> String? {
        switch value {
        case .string(let text):
            // As the runtime checks them (ModelCoding.length, ModelCoding.pattern): lengths in
            // code points, patterns with ECMA-262's semantics.
            let length = text.unicodeScalars.count
            if let min = constraints.minLength, length < min { return "minLength \(min)" }
            if let max = constraints.maxLength, length > max { return "maxLength \(max)" }
            if let pattern = constraints.pattern, let regex = try? Regex(pattern), !text.contains(ecma(regex)) {
                return "pattern /\(pattern)/"
            }
        case .integer, .number:
            let number: Double
            if case .integer(let integer) = value {
                number = Double(integer)
            } else if case .number(let double) = value {
                number = double
            } else {
                return nil
            }
            if let minimum = constraints.minimum, number < minimum { return "minimum" }
            if let maximum = constraints.maximum, number > maximum { return "maximum" }
            if let bound = constraints.exclusiveMinimum, number <= bound { return "exclusiveMinimum" }
            if let bound = constraints.exclusiveMaximum, number >= bound { return "exclusiveMaximum" }
            if let step = constraints.schema?.multipleOf, !isMultiple(value, of: step) { return "multipleOf" }
        case .array(let items):
            if let min = constraints.minItems, items.count < min { return "minItems \(min)" }
            if let max = constraints.maxItems, items.count > max { return "maxItems \(max)" }
            if let itemConstraints = constraints.items?.value {
                for item in items { if let broken = violation(of: item, itemConstraints) { return broken } }
            }
        default:
            break
        }
        if let expected = constraints.const, !literalEquals(value, expected) { return "const" }
        return nil
    }

    /// `regex` read as ECMA-262 reads it, as the runtime's `ECMARegex` does: ASCII-only `\d`,
    /// `\w` and `\b`, matched by code points.
    static func ecma(_ regex: Regex<AnyRegexOutput>) -> Regex<AnyRegexOutput> {
        regex.asciiOnlyDigits().asciiOnlyWordCharacters().wordBoundaryKind(.simple).matchingSemantics(.unicodeScalar)
    }

    static func literalEquals(_ left: LiteralIR, _ right: LiteralIR) -> Bool {
        switch (left, right) {
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): return Double(a) == b
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { literalEquals($0, $1) }
        // Code point by code point, as JSON Schema compares strings (Swift's `==` equates
        // canonically equivalent ones: `é` and `e` + U+0301).
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        default: return left == right
        }
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
    }
}
