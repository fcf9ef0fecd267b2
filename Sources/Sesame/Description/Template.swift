/// A value in a request body or header, written in the schema as a literal or with
/// `{placeholders}`, parsed and checked by the generator.
///
/// Placeholders name a method parameter (`{identifier}`), a value the app supplies between
/// steps (`{code}`), a field of an earlier step's response (`{initialize.challengeId}`), or a
/// credential value (`{accessToken}`, `{refreshToken}`).
public enum Template: Sendable, Hashable {
    /// A fixed value.
    case literal(JSONValue)
    /// Exactly one placeholder: the value keeps its JSON type.
    case variable([String])
    /// Text with placeholders: always a string.
    case interpolation([TemplatePart])

    /// Resolves the template; `lookup` returns nil for an unknown placeholder.
    /// - Throws: ``TemplateError`` naming the placeholder that has no value.
    public func resolve(_ lookup: ([String]) -> JSONValue?) throws -> JSONValue {
        switch self {
        case .literal(let value):
            return value
        case .variable(let path):
            guard let value = lookup(path) else { throw TemplateError(placeholder: path.joined(separator: ".")) }
            return value
        case .interpolation(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .text(let literal): text += literal
                case .variable(let path):
                    guard let value = lookup(path) else { throw TemplateError(placeholder: path.joined(separator: ".")) }
                    text += value.formValue
                }
            }
            return .string(text)
        }
    }
}

/// A piece of an interpolated template.
public enum TemplatePart: Sendable, Hashable {
    case text(String)
    case variable([String])
}

/// A named body field whose value is a template.
public struct TemplateField: Sendable, Hashable {
    public var name: String
    public var value: Template

    public init(_ name: String, _ value: Template) {
        self.name = name
        self.value = value
    }
}

/// A placeholder had no value when a request was built.
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var placeholder: String
    public var description: String { "no value for {\(placeholder)}" }
}
