@_spi(Generated) import SesameDescription

extension Template {
    /// The template with each `{name}` that names one of `provided` read as that runtime
    /// value: the parser reads every single name as a parameter, and only the translator
    /// knows what the runtime supplies where the template is (``Placeholder/init(path:provided:)``).
    func providing(_ provided: some Sequence<Placeholder>) -> Template {
        let provided = Set(provided)
        func resolved(_ placeholder: Placeholder) -> Placeholder {
            guard case .parameter(let name) = placeholder else { return placeholder }
            return Placeholder(path: [name], provided: provided)
        }
        switch self {
        case .literal: return self
        case .variable(let placeholder): return .variable(resolved(placeholder))
        case .interpolation(let parts):
            return .interpolation(
                parts.map { part in
                    if case .variable(let placeholder) = part { return .variable(resolved(placeholder)) }
                    return part
                })
        }
    }
}

extension TemplateFieldIR {
    /// The field with its template read as ``Template/providing(_:)`` says.
    func providing(_ provided: some Sequence<Placeholder>) -> TemplateFieldIR {
        var field = self
        field.value = value.providing(provided)
        return field
    }
}

extension Placeholder {
    /// The placeholder as a schema writes it, split at its dots: `["initialize", "challengeId"]`.
    var path: [String] { spelling.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
}
