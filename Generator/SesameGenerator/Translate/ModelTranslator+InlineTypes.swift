import Yams
@_spi(Generated) import SesameDescription

/// Inline schemas (properties, items, parameters, bodies): a reference to a declared model, a
/// nested model hoisted from the schema, or a type of its own (`schemaType`); and literals
/// (`default`, `const`) checked against their type.
extension ModelTranslator {
    struct Resolved {
        var type: TypeIR
        var constraints: ConstraintsIR
        var nullable: Bool
        var defaultValue: JSONValue?
        var description: String?
    }

    /// The type of an inline schema. Inline objects, enums and unions become nested
    /// models of `qualifiedName`, named `hint`.
    mutating func inlineType(
        _ node: Node, qualifiedName: String, hint: String, nested: inout [ModelIR], reader: inout NodeReader
    ) -> Resolved {
        if let flag = Self.booleanSchema(node) { return Self.booleanResolved(flag) }
        // `response: Note` and `body: NewNote`: a bare model name.
        if case .scalar(let scalar) = node {
            if let model = declarations[scalar.string] {
                return Resolved(type: .model(model.reference), constraints: ConstraintsIR(), nullable: false)
            }
            reportUnknownModel(scalar.string, at: node, reader: &reader)
            return Resolved(type: .any, constraints: ConstraintsIR(), nullable: false)
        }
        guard let entries = reader.mapping(node, "a schema", grammar: Grammar.schema)?.entries else {
            return Resolved(type: .any, constraints: ConstraintsIR(), nullable: false)
        }
        let description = documentation(entries, reader: &reader)
        reportUnsupported(entries, reader: &reader)
        // `oneOf: [{ $ref: X }, { type: null }]`: an optional X.
        if let member = nullableMember(entries) {
            var resolved = inlineType(member, qualifiedName: qualifiedName, hint: hint, nested: &nested, reader: &reader)
            resolved.nullable = true
            resolved.description = description ?? resolved.description
            return resolved
        }
        let needsType =
            entries["enum"] != nil || (entries["oneOf"] != nil && entries["discriminator"] != nil) || entries["allOf"] != nil
            || isChoice(entries)
            || (isObject(entries) && (entries["properties"] != nil || entries["unevaluatedProperties"] != nil))
            // An object `const` is the check of a struct of its own (a dictionary has none).
            || (isObject(entries) && entries["const"] != nil)
        if needsType {
            let swiftName = uniqueNestedName(hint, in: nested, owner: qualifiedName)
            let path = qualifiedName.isEmpty ? swiftName : "\(qualifiedName).\(swiftName)"
            let model = namedModel(name: swiftName, swiftName: swiftName, qualifiedName: path, node: node, reader: &reader)
            nested.append(model)
            let reference = ModelRef(declaredName: nil, swiftPath: path)
            var defaultValue = entries["default"].flatMap { literal($0.value, reader: &reader) }
            if let value = defaultValue, let entry = entries["default"],
                !checkLiteral(value, .model(reference), nested: nested, what: "default", at: entry.value, reader: &reader)
            {
                defaultValue = nil
            }
            return Resolved(
                type: .model(reference), constraints: ConstraintsIR(), nullable: nullable(entries),
                defaultValue: defaultValue, description: description)
        }
        var resolved = schemaType(entries, node: node, qualifiedName: qualifiedName, hint: hint, nested: &nested, reader: &reader)
        resolved.description = description
        if let value = resolved.defaultValue, let entry = entries["default"],
            !checkLiteral(value, resolved.type, nested: nested, what: "default", at: entry.value, reader: &reader)
        {
            resolved.defaultValue = nil
        }
        if let value = resolved.defaultValue, let entry = entries["default"], let broken = Self.violation(of: value, resolved.constraints) {
            reader.error("default breaks its own schema (\(broken)); every value that leaves it out would fail to decode", at: entry.value)
            resolved.defaultValue = nil
        }
        if let value = resolved.constraints.const, let entry = entries["const"] {
            switch resolved.type {
            case .string(nil), .integer, .number, .boolean, .any:
                if !checkLiteral(value, resolved.type, nested: nested, what: "const", at: entry.value, reader: &reader) {
                    resolved.constraints.const = nil
                }
            default:
                reader.error("const is supported on plain strings, numbers, booleans and schemas without a type", at: entry.keyNode)
                resolved.constraints.const = nil
            }
        }
        return resolved
    }

    /// Checks a `default` or `const` against its type; reports and returns false when it
    /// does not fit or Sesame cannot write it in Swift.
    mutating func checkLiteral(
        _ value: JSONValue, _ type: TypeIR, nested: [ModelIR], what: String, at node: Node,
        reader: inout NodeReader
    ) -> Bool {
        if case .null = value { return true }
        switch (value, type) {
        case (_, .string(let format?)) where !format.keepsText:
            reader.error("\(what) is not supported on a \(format.rawValue) string", at: node)
            return false
        case (.array(let items), .array(let element)):
            return items.allSatisfy { checkLiteral($0, element, nested: nested, what: what, at: node, reader: &reader) }
        case (_, .model(let reference)):
            let path = reference.swiftPath
            let last = String(path.split(separator: ".").last ?? "")
            let target =
                path.contains(".") || nested.contains(where: { $0.swiftName == path })
                ? findNested(path, in: nested) : model(swiftName: last)
            guard let target, case .enumeration(let enumeration) = target.kind else {
                reader.error("\(what) is supported on strings, numbers, booleans, enums and arrays of them", at: node)
                return false
            }
            let raw: String?
            switch value {
            case .string(let text): raw = text
            case .integer(let number): raw = String(number)
            default: raw = nil
            }
            guard let raw, enumeration.cases.contains(where: { $0.rawValue == raw }) else {
                let values = enumeration.cases.map(\.rawValue).joined(separator: ", ")
                reader.error("\(what) must be one of the enum's values (\(values))", at: node)
                return false
            }
            return true
        default:
            if LiteralCheck.fits(value, type, declarations: declarations) { return true }
            reader.error("\(what) does not match the type \(type.schemaName)", at: node)
            return false
        }
    }

    func findNested(_ path: String, in nested: [ModelIR]) -> ModelIR? {
        let components = path.split(separator: ".").map(String.init)
        // The path may start with owners that are not in `nested`: the first suffix that
        // resolves from `nested` names the type. Not merely the suffix from the first name
        // found there: an owner may share its nested type's name (`A.Item.Item`, the enum of
        // a property `item` inside a property `item`), and that owner is not in `nested`.
        for start in components.indices {
            var pool = nested
            var found: ModelIR?
            for component in components[start...] {
                guard let match = pool.first(where: { $0.swiftName == component }) else {
                    found = nil
                    break
                }
                found = match
                pool = match.nested
            }
            if let found { return found }
        }
        return nil
    }

    func nullable(_ entries: [Entry]) -> Bool {
        if let type = entries["type"], case .sequence(let items) = type.value {
            return items.contains { $0.isNullScalar || $0.string == "null" }
        }
        return false
    }

    /// A YAML value as a literal.
    func literal(_ node: Node, reader: inout NodeReader) -> JSONValue? {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain {
                if node.isNullScalar { return .null }
                if let value = node.bool, ["true", "false"].contains(scalar.string) { return .bool(value) }
                if let value = node.int { return .integer(value) }
                // JSON has no infinity or NaN: `.inf` and `1e999` stay text, as Swift could not spell them.
                if let value = node.float, value.isFinite, scalar.string.contains(".") || scalar.string.lowercased().contains("e") {
                    return .number(value)
                }
            }
            return .string(scalar.string)
        case .sequence(let items):
            var values: [JSONValue] = []
            for item in items {
                guard let value = literal(item, reader: &reader) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .mapping(let mapping):
            var values: [String: JSONValue] = [:]
            for index in mapping.indices {
                let (key, value) = mapping[index]
                guard let keyText = key.string, let literal = literal(value, reader: &reader) else { return nil }
                values[keyText] = literal
            }
            return .object(values)
        case .alias:
            reader.error("YAML aliases are not supported", at: node)
            return nil
        }
    }
}
