/// Renders an SDK's IR into Swift files: one per top-level model, plus the schema
/// description, methods, operations, errors and events.
public enum SwiftRenderer {
    public static func render(_ sdk: SDKIR) -> [GeneratedFile] {
        let types = TypeRendering(models: sdk.models)
        let names = Names(sdk: sdk)
        var files: [GeneratedFile] = []
        let modelRenderer = ModelRenderer(types: types)
        var usedPaths: Set<String> = []
        for model in sdk.models {
            var writer = fileWriter(imports: ["Foundation", "Sesame"])
            modelRenderer.render(model, qualifiedName: model.swiftName, into: &writer)
            // Distinct even on case-insensitive file systems.
            var path = "Models/\(fileName(model.swiftName)).swift"
            var counter = 2
            while usedPaths.contains(path.lowercased()) {
                path = "Models/\(fileName(model.swiftName))_\(counter).swift"
                counter += 1
            }
            usedPaths.insert(path.lowercased())
            files.append(GeneratedFile(path: path, contents: writer.text))
        }
        files.append(GeneratedFile(path: "\(sdk.name)Schema.swift", contents: SchemaRenderer(sdk: sdk, names: names, types: types).render()))
        files.append(GeneratedFile(path: "Methods.swift", contents: MethodRenderer(sdk: sdk, names: names, types: types).render()))
        files.append(GeneratedFile(path: "Operations.swift", contents: OperationRenderer(sdk: sdk, names: names, types: types).render()))
        files.append(GeneratedFile(path: "Errors.swift", contents: ErrorRenderer(sdk: sdk, names: names).render()))
        files.append(GeneratedFile(path: "Events.swift", contents: EventRenderer(sdk: sdk, names: names, types: types).render()))
        return files
    }

    static func fileWriter(imports: [String]) -> CodeWriter {
        var writer = CodeWriter(capacity: 8192)
        writer.line(GeneratedFile.header)
        writer.line()
        for module in imports { writer.line("import \(module)") }
        writer.line()
        return writer
    }

    /// A file name from a type name: ASCII letters, digits and `_` only.
    static func fileName(_ swiftName: String) -> String {
        let cleaned = String(swiftName.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_" })
        return cleaned.isEmpty ? "_" : cleaned
    }
}

/// The names of the SDK's own generated types.
struct Names {
    let schema: String
    let error: String
    let event: String

    init(sdk: SDKIR) {
        schema = "\(sdk.name)Schema"
        error = "\(sdk.name)Error"
        event = "\(sdk.name)Event"
    }
}

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
        return "[" + fields.map { "TemplateField(\(SwiftName.stringLiteral($0.name)), \(template($0.value, types: types)))" }.joined(separator: ", ") + "]"
    }

    static func request(name: String, line: RequestLineIR, authenticated: Bool, encoding: EncodingIR,
                        clientAuthentication: ClientAuthenticationIR, fresh: DurationIR?) -> String {
        var arguments = ["name: \(SwiftName.stringLiteral(name))", "method: \(method(line.method))", "path: \(SwiftName.stringLiteral(line.path))"]
        if !authenticated { arguments.append("authenticated: false") }
        if encoding != .json { arguments.append("encoding: .\(encoding.rawValue)") }
        if clientAuthentication != .none { arguments.append("clientAuthentication: .\(clientAuthentication.rawValue)") }
        if let fresh { arguments.append("freshAuthentication: \(duration(fresh))") }
        return "RequestDescription(\(arguments.joined(separator: ", ")))"
    }
}
