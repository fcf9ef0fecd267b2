import Foundation

/// What the schemas of a generated `oneOf` or `anyOf` said when they refused a value, so that
/// a value that matches none of them is reported where it went wrong.
///
/// A member that failed deep inside the value (`$.webauthn.publicKey.user.id`) says more than
/// the `oneOf` itself (`$.webauthn`): when exactly one member got furthest into the value,
/// its failure is the one reported, with the `oneOf` it belongs to in its message. When none
/// got further than the others, the failure stays at the `oneOf`.
@_spi(Generated) public struct ChoiceFailures: Sendable {
    private var errors: [any Error] = []

    public init() {}

    /// Runs `decode`; nil, and what it threw recorded, when it throws.
    public mutating func attempt<Value>(_ decode: () throws -> Value) -> Value? {
        do {
            return try decode()
        } catch {
            errors.append(error)
            return nil
        }
    }

    /// Records a member's failure.
    mutating func record(_ error: any Error) {
        errors.append(error)
    }

    /// The error for a value at `codingPath` of which `matches` of the `count` schemas of
    /// `keyword` matched (none, or more than one for `oneOf`).
    /// - Parameters:
    ///   - codingPath: where the value is.
    ///   - keyword: `oneOf` or `anyOf`.
    ///   - matches: how many schemas matched.
    ///   - count: how many schemas there are.
    public func violation(codingPath: [any CodingKey], keyword: String, matches: Int, of count: Int) -> SchemaViolation {
        let path = SchemaViolation.jsonPath(codingPath)
        guard matches == 0 else {
            return SchemaViolation(
                path: path, keyword: keyword, message: "the value matches \(matches) of the schemas; exactly one must match")
        }
        let none = "the value matches none of the \(count) schemas"
        let inside = errors.compactMap(SchemaViolation.init(failure:)).filter {
            Self.path($0.path, isInside: path) && Self.depth(of: $0) > Self.depth(of: path)
        }
        guard let deepest = inside.map({ Self.depth(of: $0) }).max(),
            case let furthest = inside.filter({ Self.depth(of: $0) == deepest }),
            let first = furthest.first, furthest.allSatisfy({ $0 == first })
        else { return SchemaViolation(path: path, keyword: keyword, message: none) }
        return SchemaViolation(
            path: first.path, keyword: first.keyword,
            message: "\(first.message) (so the value at \(path) matches none of the \(count) schemas of its \(keyword))")
    }

    /// Whether `inner` names a value inside the one `outer` names.
    private static func path(_ inner: String, isInside outer: String) -> Bool {
        guard inner.count > outer.count, inner.hasPrefix(outer) else { return false }
        let next = inner[inner.index(inner.startIndex, offsetBy: outer.count)]
        return next == "." || next == "["
    }

    /// How deep in the value `violation` failed. A missing property is a failure of the object
    /// that lacks it, as JSON Schema locates a `required` error: a member that only found a
    /// property missing got no further into the value than the choice itself.
    private static func depth(of violation: SchemaViolation) -> Int {
        depth(of: violation.path) - (violation.keyword == "required" ? 1 : 0)
    }

    /// How many steps a JSON path takes from `$`.
    private static func depth(of path: String) -> Int {
        var depth = 0
        var quoted = false
        var escaped = false
        for character in path {
            if quoted {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                }
                continue
            }
            switch character {
            case ".", "[": depth += 1
            case "\"": quoted = true
            default: break
            }
        }
        return depth
    }
}

extension SchemaViolation {
    /// A decoding failure said as JSON Schema says it, at its path; nil for an error that is
    /// neither a violation nor a `DecodingError`.
    init?(failure: any Error) {
        switch failure {
        case let violation as SchemaViolation:
            self = violation
        case let error as DecodingError:
            let (path, keyword, message) = Self.described(error)
            self.init(codingPath: path, keyword: keyword, message: message)
        default:
            return nil
        }
    }

    /// Where a `DecodingError` happened, and what JSON Schema keyword and message say it.
    static func described(_ error: DecodingError) -> (codingPath: [any CodingKey], keyword: String, message: String) {
        switch error {
        case .keyNotFound(let key, let context):
            return (context.codingPath + [key], "required", "the required property is missing")
        case .valueNotFound(_, let context):
            return (context.codingPath, "type", "found null")
        case .typeMismatch(let type, let context):
            return (context.codingPath, "type", "expected \(ModelCoding.jsonTypeName(type))")
        case .dataCorrupted(let context):
            return (context.codingPath, "type", "the value does not decode")
        @unknown default:
            return ([], "type", "the value does not decode")
        }
    }
}
