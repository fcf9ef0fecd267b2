/// Renders an SDK's IR into Swift files: one per top-level model, plus the schema
/// description, methods, operations, errors and events.
public enum SwiftRenderer {
    public static func render(_ sdk: SDKIR) -> [GeneratedFile] {
        let types = TypeRendering(models: sdk.models)
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
        files.append(GeneratedFile(path: "\(sdk.typeNames.schema).swift", contents: SchemaRenderer(sdk: sdk, types: types).render()))
        files.append(GeneratedFile(path: "Methods.swift", contents: MethodRenderer(sdk: sdk, types: types).render()))
        files.append(GeneratedFile(path: "Operations.swift", contents: OperationRenderer(sdk: sdk, types: types).render()))
        files.append(GeneratedFile(path: "Errors.swift", contents: ErrorRenderer(sdk: sdk).render()))
        files.append(GeneratedFile(path: "Events.swift", contents: EventRenderer(sdk: sdk, types: types).render()))
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
        let cleaned = String(
            swiftName.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_" })
        return cleaned.isEmpty ? "_" : cleaned
    }
}
