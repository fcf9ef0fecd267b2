import Yams
@_spi(Generated) import SesameDescription

/// The draft 2020-12 forms that have no Swift type of their own beyond `JSONValue`: boolean
/// schemas (`true`, `false`) and an `allOf` whose members are not all objects. Each becomes
/// `JSONValue`, checked on decode by the whole schema (a `SchemaCheck`).
extension ModelTranslator {
    /// `true` or `false` when `node` is a boolean schema: a plain `true` or `false` scalar
    /// (in YAML, `"true"` quoted names a model called `true`).
    static func booleanSchema(_ node: Node) -> Bool? {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return nil }
        switch scalar.string {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// The type of a boolean schema: any JSON value, refused by `false` wherever it stands.
    static func booleanResolved(_ flag: Bool) -> Resolved {
        var constraints = ConstraintsIR()
        if !flag { constraints.schema = .never }
        return Resolved(type: .any, constraints: constraints, nullable: false)
    }

    /// Whether an `allOf` merges into one struct: every member is a `$ref` or an object
    /// schema (`type: object`, `properties`, `additionalProperties` or `required`). Any other
    /// member (`true`, `{ minimum: 1 }`, `{ type: string }`, `{}`) makes the whole schema a
    /// check of a `JSONValue`, as JSON Schema applies it: every member to the same value.
    func isObjectAllOf(_ members: [Node]) -> Bool {
        members.allSatisfy { member in
            guard case .mapping(let mapping) = member else { return false }
            let keys = Set(mapping.keys.compactMap(\.string))
            if keys.contains("$ref") { return true }
            if let type = mapping["type"] { return type.string == "object" }
            return !keys.isDisjoint(with: ["properties", "additionalProperties", "required"])
        }
    }
}

extension ModelTranslator {
    /// Whether an `enum` is a Swift enum (which keeps unknown values): a non-empty list of
    /// strings (any scalar, with `type: string`), or of integers. Any other list — mixing
    /// strings and numbers, holding `true`, `null`, `1.5`, objects or arrays, or empty — is
    /// JSON Schema's exact list of values: a `JSONValue` checked against it.
    func isSwiftEnum(_ entry: Entry, entries: [Entry]) -> Bool {
        guard case .sequence(let items) = entry.value, !items.isEmpty,
            items.allSatisfy({ if case .scalar = $0 { return true } else { return false } })
        else { return false }
        switch entries["type"]?.value.string {
        case "string"?: return true
        case "integer"?: return true  // a value that is not an integer is an error at the value
        case nil: break
        default: return false
        }
        let integers = items.filter { $0.isPlainInteger }.count
        if integers == items.count { return true }
        return integers == 0 && items.allSatisfy { !$0.isPlainNonString }
    }
}

extension Node {
    /// A plain scalar that reads as an integer (`3`, `-1`).
    fileprivate var isPlainInteger: Bool {
        guard case .scalar(let scalar) = self, scalar.style == .plain else { return false }
        return int != nil
    }

    /// A plain scalar that JSON reads as something else than a string: `null`, `~`, an empty
    /// value, `true`, `false` or a number.
    fileprivate var isPlainNonString: Bool {
        guard case .scalar(let scalar) = self, scalar.style == .plain else { return false }
        let text = scalar.string
        let isNumber = !text.isEmpty && text.allSatisfy { "0123456789+-.eE".contains($0) } && Double(text) != nil
        return isNumber || ["null", "~", "", "true", "false"].contains(text)
    }
}
