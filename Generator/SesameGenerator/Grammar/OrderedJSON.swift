/// A JSON value whose objects keep their keys in the order given, so that a document is
/// written the same bytes every time.
indirect enum OrderedJSON: Sendable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case null
    case array([OrderedJSON])
    case object([(String, OrderedJSON)])

    /// Pretty-printed with two spaces, as `json.dump(indent=2, ensure_ascii=False)` does.
    func written() -> String {
        var text = ""
        write(to: &text, indent: 0)
        return text + "\n"
    }

    private func write(to text: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent)
        let inner = String(repeating: "  ", count: indent + 1)
        switch self {
        case .string(let value): text += Self.quoted(value)
        case .integer(let value): text += String(value)
        case .bool(let value): text += value ? "true" : "false"
        case .null: text += "null"
        case .array(let items):
            if items.isEmpty {
                text += "[]"
                return
            }
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += inner
                item.write(to: &text, indent: indent + 1)
                text += index == items.count - 1 ? "\n" : ",\n"
            }
            text += pad + "]"
        case .object(let members):
            if members.isEmpty {
                text += "{}"
                return
            }
            text += "{\n"
            for (index, (key, value)) in members.enumerated() {
                text += inner + Self.quoted(key) + ": "
                value.write(to: &text, indent: indent + 1)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += pad + "}"
        }
    }

    static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
