/// Swift spellings of description values shared by the schema and method renderers.
enum DescriptionLiteral {
    static func method(_ method: HTTPMethodIR) -> String { ".\(method.rawValue.lowercased())" }

    static func duration(_ duration: DurationIR) -> String {
        duration.milliseconds % 1000 == 0 ? ".seconds(\(duration.milliseconds / 1000))" : ".milliseconds(\(duration.milliseconds))"
    }

    static func template(_ template: TemplateIR, types: TypeRendering) -> String {
        switch template {
        case .literal(let value): return ".literal(\(types.jsonLiteral(value)))"
        case .variable(let path): return ".variable([\(path.map(SwiftName.stringLiteral).joined(separator: ", "))])"
        case .interpolation(let parts):
            let rendered = parts.map { part -> String in
                switch part {
                case .text(let text): return ".text(\(SwiftName.stringLiteral(text)))"
                case .variable(let path): return ".variable([\(path.map(SwiftName.stringLiteral).joined(separator: ", "))])"
                }
            }
            return ".interpolation([\(rendered.joined(separator: ", "))])"
        }
    }

    static func fields(_ fields: [TemplateFieldIR], types: TypeRendering) -> String {
        if fields.isEmpty { return "[]" }
        return "["
            + fields.map { "TemplateField(\(SwiftName.stringLiteral($0.name)), \(template($0.value, types: types)))" }.joined(
                separator: ", ") + "]"
    }

    static func request(
        name: String, line: RequestLineIR, authenticated: Bool, encoding: EncodingIR,
        clientAuthentication: ClientAuthenticationIR, fresh: DurationIR?
    ) -> String {
        var arguments = [
            "name: \(SwiftName.stringLiteral(name))", "method: \(method(line.method))", "path: \(SwiftName.stringLiteral(line.path))",
        ]
        if !authenticated { arguments.append("authenticated: false") }
        if encoding != .json { arguments.append("encoding: .\(encoding.rawValue)") }
        if clientAuthentication != .none { arguments.append("clientAuthentication: .\(clientAuthentication.rawValue)") }
        if let fresh { arguments.append("freshAuthentication: \(duration(fresh))") }
        if line.server != .api { arguments.append("server: .\(line.server.rawValue)") }
        return "RequestDescription(\(arguments.joined(separator: ", ")))"
    }
}
