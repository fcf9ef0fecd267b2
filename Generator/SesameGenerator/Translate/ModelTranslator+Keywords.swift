import Foundation
import Yams

/// The keyword pass of a schema: which keywords Sesame reads and where they apply
/// (`reportUnsupported`, counts, `pattern` as ECMA-262, `format` names), and `anyOf`, `oneOf`
/// without a discriminator and `type` lists, which become enums of their schemas. The checks
/// on the decoded JSON are extracted in ModelTranslator+Checks, the `default` checks in
/// ModelTranslator+Defaults.
extension ModelTranslator {
    /// Annotations: read and ignored (or documentation), so they may stand beside any keyword,
    /// `$ref`, `allOf`, `oneOf`, `anyOf`, `enum` and type lists included (JSON Schema 2020-12
    /// documents carry `$schema` at their root, beside whatever the root says).
    static let annotations: Set<String> = [
        "description", "title", "deprecated", "examples", "$comment", "$schema", "readOnly", "writeOnly", "contentEncoding",
        "contentMediaType", "contentSchema",
    ]

    /// Annotations and the keywords that name or declare schemas (`$id`, `$anchor`, `$defs`),
    /// which the reference pass reads wherever they stand.
    static let annotationsAndDeclarations: Set<String> = annotations.union(["$id", "$anchor", "$defs"])

    /// Keywords allowed beside `$ref` (annotations).
    static let besideReference: Set<String> = annotationsAndDeclarations.union(["$ref", "default"])

    /// Reports every unsupported keyword of a schema (`Grammar.unsupportedKeywords`, which
    /// the reader lets through), and an `$id` that is not a string.
    func reportUnsupported(_ entries: [Entry], reader: inout NodeReader) {
        for entry in entries {
            switch entry.key {
            // A switch compares without hashing: this runs for every key of every schema.
            case "unevaluatedProperties", "unevaluatedItems":
                // A struct's extra keys, the check of a choice or a JSON check
                // (ModelTranslator+Unevaluated); beside a type list or a discriminated oneOf, an
                // error where those are translated.
                break
            case "$dynamicRef", "$dynamicAnchor", "$recursiveRef":
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
        case "multipleOf", "uniqueItems", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "propertyNames",
            "patternProperties",
            "prefixItems", "contains", "minContains", "maxContains", "not", "if", "then", "else", "anyOf", "oneOf", "unevaluatedItems",
            "unevaluatedProperties":
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
                // `\p{Letter}`, `\u{1F600}`: the braces belong to the escape, so the `}` of
                // `\p{Letter}+` is no quantifier (it was read as a possessive `}+`).
                if let next, "pPu".contains(next), index + 2 < characters.count, characters[index + 2] == "{",
                    let close = characters[(index + 3)...].firstIndex(of: "}")
                {
                    index = close + 1
                    continue
                }
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

    /// An unknown format: an error in the team's own models files, where a typo is likely;
    /// in a referenced document, or with `models: { unknown: ignore }`, an annotation (the
    /// value is read as its type says, unchecked), as JSON Schema 2020-12 and OpenAPI say.
    func reportUnknownFormat(_ text: String, at node: Node, reader: inout NodeReader) {
        if reader.ignoresUnknown {
            reader.note("format '\(text)' is not one Sesame knows; read as an annotation (not checked)", at: node)
            return
        }
        reader.error(
            "unsupported format '\(text)'; Sesame supports \(KnownFormats.all.joined(separator: ", "))", at: node)
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
            for other in entries where other.key != "type" && !Self.annotations.contains(other.key) {
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
                case "integer": type = .integer(nil)
                case "number": type = .number(nil)
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
        // `unevaluatedItems`, `unevaluatedProperties` and `allOf` beside a choice make it a checked choice
        // (`checkedChoice`, ModelTranslator+Unevaluated), read before this.
        let checkedChoiceKeys = ["unevaluatedItems", "unevaluatedProperties", "allOf"]
        for other in entries
        where other.key != key && !Self.annotationsAndDeclarations.contains(other.key)
            && !checkedChoiceKeys.contains(other.key)
        {
            reader.error("'\(other.key)' beside \(key) is not supported; move it into each of the \(key) schemas", at: other.keyNode)
        }
        var variants: [ChoiceVariantIR] = []
        for (index, member) in (reader.sequence(entries[key]!.value, key) ?? []).enumerated() {
            let location = reader.location(of: member)
            if isNullSchema(member) {
                variants.append(ChoiceVariantIR(type: nil, hint: "null", location: location))
                continue
            }
            let hint = NamingPass.optionTypeHint(index)
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
}
