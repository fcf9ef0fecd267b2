/// A value in a request body or header, written in the schema as a literal or with
/// `{placeholders}`, parsed and checked by the generator.
@_spi(Generated) public enum Template: Sendable, Hashable {
    /// A fixed value.
    case literal(JSONValue)
    /// Exactly one placeholder: the value keeps its JSON type.
    case variable(Placeholder)
    /// Text with placeholders: always a string.
    case interpolation([TemplatePart])

    /// The placeholders the template reads, in order.
    public var placeholders: [Placeholder] {
        switch self {
        case .literal: return []
        case .variable(let placeholder): return [placeholder]
        case .interpolation(let parts): return parts.compactMap { if case .variable(let placeholder) = $0 { placeholder } else { nil } }
        }
    }

    /// Resolves the template; `lookup` returns nil for a placeholder without a value.
    /// - Throws: ``TemplateError`` naming the placeholder that has no value.
    public func resolve(_ lookup: (Placeholder) -> JSONValue?) throws -> JSONValue {
        switch self {
        case .literal(let value):
            return value
        case .variable(let placeholder):
            guard let value = lookup(placeholder) else { throw TemplateError(placeholder: placeholder.spelling) }
            return value
        case .interpolation(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .text(let literal): text += literal
                case .variable(let placeholder):
                    guard let value = lookup(placeholder) else { throw TemplateError(placeholder: placeholder.spelling) }
                    text += value.formValue
                }
            }
            return .string(text)
        }
    }
}

/// A piece of an interpolated template.
@_spi(Generated) public enum TemplatePart: Sendable, Hashable {
    case text(String)
    case variable(Placeholder)
}

/// A named body field whose value is a template.
@_spi(Generated) public struct TemplateField: Sendable, Hashable {
    public var name: String
    public var value: Template

    public init(name: String, value: Template) {
        self.name = name
        self.value = value
    }

    public init(_ name: String, _ value: Template) {
        self.init(name: name, value: value)
    }
}

@_spi(Generated) extension [TemplateField] {
    /// Whether a field reads `placeholder`.
    public func reads(_ placeholder: Placeholder) -> Bool {
        contains { $0.value.placeholders.contains(placeholder) }
    }
}

/// A placeholder had no value when a request was built.
@_spi(Generated) public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var placeholder: String

    public init(placeholder: String) {
        self.placeholder = placeholder
    }

    public var description: String { "no value for {\(placeholder)}" }
}
