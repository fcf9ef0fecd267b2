import Yams
@_spi(Generated) import SesameDescription

/// The keyword translation of a schema that needs no type of its own: its Swift type
/// (scalars, arrays, dictionaries, references) and the keywords checked on the Swift value
/// (`ConstraintsIR`), with those checked on the JSON (`ConstraintsIR.schema`) from the check
/// extraction (ModelTranslator+Checks).
extension ModelTranslator {
    /// The type of a schema that needs no type of its own: scalars, arrays, refs, `{}`.
    mutating func schemaType(
        _ entries: [Entry], node: Node, qualifiedName: String, hint: String, nested: inout [ModelIR],
        reader: inout NodeReader
    ) -> Resolved {
        var constraints = ConstraintsIR()
        let defaultValue = entries["default"].flatMap { literal($0.value, reader: &reader) }
        if let ref = entries["$ref"] {
            // Keywords beside `$ref` apply too (2020-12): the Swift type is the model's, and
            // the siblings are a check of the JSON (`{ $ref: "#/Tags", maxItems: 2 }`).
            // `unevaluatedItems` and `unevaluatedProperties` see the referenced model's items and
            // properties too: read with the `$ref`.
            let unevaluated = ["unevaluatedItems", "unevaluatedProperties"]
            let siblings = entries.filter { !Self.besideReference.contains($0.key) && !unevaluated.contains($0.key) }
            if let mapping = siblings.first.map({ _ in Node.Mapping(siblings.map { ($0.keyNode, $0.value) }) }) {
                constraints.schema = schemaCheck(.mapping(mapping), reportingUnsupported: false, reader: &reader)
            }
            for part in [
                entries["unevaluatedItems"].flatMap { unevaluatedItemsCheck($0, in: entries, reader: &reader) },
                entries["unevaluatedProperties"].flatMap { unevaluatedPropertiesCheck($0, in: entries, reader: &reader) },
            ] {
                guard let part else { continue }
                var check = constraints.schema ?? ModelCheck()
                check.allOf.append(part)
                constraints.schema = check
            }
            guard let name = resolveReference(ref.value, reader: &reader), let declaration = declarations[name] else {
                return Resolved(type: .any, constraints: constraints, nullable: false, defaultValue: defaultValue)
            }
            return Resolved(type: .model(declaration.reference), constraints: constraints, nullable: false, defaultValue: defaultValue)
        }
        var typeName: String?
        var isNullable = false
        if let typeEntry = entries["type"] {
            switch typeEntry.value {
            case .scalar(let scalar):
                typeName = scalar.string
            case .sequence(let items):
                let names = items.compactMap { $0.isNullScalar ? "null" : reader.string($0, "a type") }
                isNullable = names.contains("null")
                let others = names.filter { $0 != "null" }
                if others.count == 1 {
                    typeName = others[0]
                } else {
                    reader.error("a type list may hold one type and \"null\"; use oneOf for a choice of types", at: typeEntry.value)
                }
            default:
                reader.error("type must be a string or a list", at: typeEntry.value)
            }
        } else if entries["items"] != nil {
            typeName = "array"
        } else if entries["additionalProperties"] != nil {
            typeName = "object"
        }
        let type: TypeIR
        switch typeName {
        case "string"?:
            checkApplicable(entries, allowed: Self.stringKeywords, typeName: "string", reader: &reader)
            var format: StringFormat?
            if let formatEntry = entries["format"], let text = reader.string(formatEntry.value, "format") {
                format = stringFormat(text, at: formatEntry.value, reader: &reader)
            }
            constraints.minLength = entries["minLength"].flatMap { nonNegative($0, reader: &reader) }
            constraints.maxLength = entries["maxLength"].flatMap { nonNegative($0, reader: &reader) }
            constraints.pattern = pattern(entries, reader: &reader)
            type = .string(format)
        case "integer"?, "number"?:
            checkApplicable(entries, allowed: Self.numberKeywords, typeName: typeName!, reader: &reader)
            constraints.minimum = entries["minimum"].flatMap { reader.number($0.value, "minimum") }
            constraints.maximum = entries["maximum"].flatMap { reader.number($0.value, "maximum") }
            constraints.exclusiveMinimum = entries["exclusiveMinimum"].flatMap { reader.number($0.value, "exclusiveMinimum") }
            constraints.exclusiveMaximum = entries["exclusiveMaximum"].flatMap { reader.number($0.value, "exclusiveMaximum") }
            let format = entries["format"].flatMap { entry in
                reader.string(entry.value, "format").map { (text: $0, node: entry.value) }
            }
            if typeName == "integer" {
                type = .integer(format.flatMap { numericFormat($0.text, as: IntegerFormat.self, at: $0.node, reader: &reader) })
            } else {
                type = .number(format.flatMap { numericFormat($0.text, as: NumberFormat.self, at: $0.node, reader: &reader) })
            }
        case "boolean"?:
            checkApplicable(entries, allowed: [], typeName: "boolean", reader: &reader)
            type = .boolean
        case "array"?:
            checkApplicable(entries, allowed: Self.arrayKeywords, typeName: "array", reader: &reader)
            constraints.minItems = entries["minItems"].flatMap { nonNegative($0, reader: &reader) }
            constraints.maxItems = entries["maxItems"].flatMap { nonNegative($0, reader: &reader) }
            if entries["prefixItems"] != nil {
                // A tuple: its items differ in type, so the Swift array holds JSON values and
                // the JSON check types them (prefixItems, then items for the rest).
                type = .array(.any)
                if let items = entries["items"] {
                    var check = constraints.schema ?? ModelCheck()
                    check.items = schemaCheck(items.value, reader: &reader)
                    constraints.schema = check
                }
            } else if let items = entries["items"], case .scalar(let scalar) = items.value, scalar.style == .plain,
                let allowed = items.value.bool
            {
                // `items: true` is any item; `items: false` allows none (an empty array).
                type = .array(.any)
                if !allowed {
                    var check = constraints.schema ?? ModelCheck()
                    check.items = .never
                    constraints.schema = check
                }
            } else if let items = entries["items"] ?? (unevaluatedItemsAreItems(entries) ? entries["unevaluatedItems"] : nil) {
                // `unevaluatedItems` with nothing else evaluating items is `items`.
                let item = inlineType(
                    items.value, qualifiedName: qualifiedName, hint: NamingPass.itemTypeHint(of: hint), nested: &nested, reader: &reader)
                var itemConstraints = item.constraints
                if item.nullable {
                    // Items that may be null: `[JSONValue]`, each item checked by its schema.
                    var check = constraints.schema ?? ModelCheck()
                    check.items = schemaCheck(items.value, reportingUnsupported: false, reader: &reader)
                    constraints.schema = check
                    itemConstraints = ConstraintsIR()
                } else if let itemSchema = itemConstraints.schema {
                    // The items' JSON checks run with the array's.
                    var check = constraints.schema ?? ModelCheck()
                    check.items = itemSchema
                    constraints.schema = check
                    itemConstraints.schema = nil
                }
                if !itemConstraints.isEmpty { constraints.items = itemConstraints }
                type = .array(item.nullable ? .any : item.type)
            } else {
                type = .array(.any)
            }
        case "object"?:
            checkApplicable(entries, allowed: Self.objectKeywords, typeName: "object", reader: &reader)
            if let entry = entries["required"], let names = reader.strings(entry.value, "required") {
                var check = constraints.schema ?? ModelCheck()
                check.required = names.map(\.0)
                constraints.schema = check
            }
            if let additional = entries["additionalProperties"], case .mapping = additional.value {
                let value = inlineType(
                    additional.value, qualifiedName: qualifiedName, hint: NamingPass.valueTypeHint(of: hint), nested: &nested,
                    reader: &reader)
                type = .dictionary(value.type)
            } else {
                type = .dictionary(.any)
            }
        case "null"?:
            // `type: null` alone: JSONValue, checked to be null (the only value it holds).
            constraints.schema = schemaCheck(node, reportingUnsupported: false, reader: &reader)
            return Resolved(type: .any, constraints: constraints, nullable: false, defaultValue: defaultValue)
        case let other?:
            reader.error("unknown type '\(other)'; expected string, integer, number, boolean, array or object", at: entries["type"]!.value)
            type = .any
        case nil where entries.contains { Self.scalarAndArrayKeywords.contains($0.key) }:
            // String, number and array keywords without `type` apply to values of their type
            // only (2020-12): `{ minimum: 5 }` accepts "a" and refuses 4. The Swift type is
            // JSONValue, and the whole schema its check.
            constraints.schema = schemaCheck(node, reportingUnsupported: false, reader: &reader)
            return Resolved(type: .any, constraints: constraints, nullable: false, defaultValue: defaultValue)
        case nil:
            // `required` and the JSON-checked keywords apply to the values of their type only,
            // as JSON Schema says: `{ required: [a] }` accepts 42 and refuses `{}`.
            if let entry = entries["required"], let names = reader.strings(entry.value, "required") {
                constraints.schema = ModelCheck(required: names.map(\.0))
            }
            type = .any
        }
        if let constEntry = entries["const"] {
            constraints.const = literal(constEntry.value, reader: &reader)
        }
        if let more = checkedKeywords(entries, reader: &reader) {
            var check = constraints.schema ?? ModelCheck()
            check.merge(more)
            constraints.schema = check
        }
        return Resolved(type: type, constraints: constraints, nullable: isNullable, defaultValue: defaultValue)
    }

    /// The string, number and array keywords (computed once).
    private static let scalarAndArrayKeywords = stringKeywords.union(numberKeywords).union(["minItems", "maxItems"])

    /// The keywords that apply to one type only, and those of each type (computed once).
    private static let typedKeywords = stringKeywords.union(numberKeywords).union(arrayKeywords).union(objectKeywords)
        .union(checkedByType.values.joined())
    private static let applicable: [String: Set<String>] = [
        "string": stringKeywords, "integer": numberKeywords.union(["multipleOf", "format"]),
        "number": numberKeywords.union(["multipleOf", "format"]),
        "boolean": [], "array": arrayKeywords.union(checkedByType["array"]!), "object": objectKeywords.union(checkedByType["object"]!),
    ]

    /// The string format `text` names; nil for a plain `String`: an annotation (`models:
    /// { formats: annotate }`, its format only in the documentation), `binary`, a number's
    /// format (Google's APIs send 64-bit integers as `{ type: string, format: int64 }`), or
    /// an unknown format (reported).
    mutating func stringFormat(_ text: String, at node: Node, reader: inout NodeReader) -> StringFormat? {
        if let known = StringFormat(rawValue: text) { return options.asserts(known) ? known : nil }
        if !KnownFormats.contains(text) { reportUnknownFormat(text, at: node, reader: &reader) }
        return nil
    }

    /// The integer (`int32`, `int64`) or number (`float`) format `text` names, as `Format`;
    /// nil for an `Int` or a `Double`: no width, `double`, a format of another type, or an
    /// unknown one (reported).
    func numericFormat<Format: RawRepresentable<String>>(
        _ text: String, as _: Format.Type, at node: Node, reader: inout NodeReader
    ) -> Format? {
        if let known = Format(rawValue: text) { return known }
        if !KnownFormats.contains(text) { reportUnknownFormat(text, at: node, reader: &reader) }
        return nil
    }

    func checkApplicable(_ entries: [Entry], allowed: Set<String>, typeName: String, reader: inout NodeReader) {
        let allowed = Self.applicable[typeName] ?? allowed
        for entry in entries where Self.typedKeywords.contains(entry.key) && !allowed.contains(entry.key) {
            reader.error("'\(entry.key)' does not apply to \(typeName)", at: entry.keyNode)
        }
    }

    private func nonNegative(_ entry: Entry, reader: inout NodeReader) -> Int? {
        count(entry, reader: &reader)
    }
}
