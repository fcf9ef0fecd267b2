/// A value that decoded as JSON but breaks a constraint its schema declares
/// (`maxLength`, `pattern`, `minimum`, `format`, `const`, …).
///
/// Thrown by the `init(from:)` of generated models. `path` names the offending value as a
/// JSON path from the root of the decoded document, such as `$.items[2].email`.
public struct SchemaViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the value, `$` for the root.
    public var path: String
    /// The JSON Schema keyword that failed, such as `maxLength`.
    public var keyword: String
    /// What was expected and, where it is short and not secret, what was found.
    public var message: String

    public init(path: String, keyword: String, message: String) {
        self.path = path
        self.keyword = keyword
        self.message = message
    }

    /// Creates a violation at the value a decoder or encoder has reached.
    public init(codingPath: [any CodingKey], keyword: String, message: String) {
        self.init(path: SchemaViolation.jsonPath(codingPath), keyword: keyword, message: message)
    }

    public var description: String { "\(path): \(keyword): \(message)" }

    /// Renders a coding path as a JSON path: `$.user.emails[0]`.
    public static func jsonPath(_ codingPath: [any CodingKey]) -> String {
        var path = "$"
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else if key.stringValue.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) && !key.stringValue.isEmpty {
                path += ".\(key.stringValue)"
            } else {
                path += "[\"\(key.stringValue.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"]"
            }
        }
        return path
    }

    /// A short excerpt of a received value for an error message, so that a long or
    /// multi-line value cannot flood a log.
    public static func excerpt(_ text: String, limit: Int = 40) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: "\\n")
        return flat.count <= limit ? flat : String(flat.prefix(limit)) + "…"
    }
}
