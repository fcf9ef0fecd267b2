/// Renders an SDK's IR into Swift files: the models in runs of a few per file (below),
/// plus the schema description, methods, operations, errors and events.
public enum SwiftRenderer {
    /// - Parameter schemaFiles: each schema file's path in the models' source locations,
    ///   mapped to its path in the schema folder (`Schema/models/billing.yaml` →
    ///   `models/billing.yaml`), which names the models' files; without an entry, the file's
    ///   last path component does.
    public static func render(_ sdk: SDKIR, schemaFiles: [String: String] = [:]) -> [GeneratedFile] {
        let types = TypeRendering(models: sdk.models)
        var files: [GeneratedFile] = []
        let modelRenderer = ModelRenderer(types: types)
        // Swift wants distinct file names in a module, whatever their folder, and distinct
        // even on case-insensitive file systems: the other files' names are taken first.
        var usedNames: Set<String> = Set(
            [sdk.typeNames.schema, "Methods", "Operations", "Errors", "Events", "Store", "Records", "Migrations"].map {
                $0.lowercased()
            })
        var stemsStarted: Set<String> = []
        for run in modelRuns(sdk.models) {
            var writer = fileWriter(imports: ["Foundation", "Sesame"])
            for (index, model) in run.enumerated() {
                if index > 0 { writer.line() }
                writer.line("// MARK: - \(model.swiftName)")
                writer.line()
                modelRenderer.render(model, qualifiedName: model.swiftName, into: &writer)
            }
            let stem = fileStem(schemaFile: run[0].location.file, schemaFiles: schemaFiles)
            let firstOfFile = stemsStarted.insert(stem).inserted
            let base = firstOfFile ? stem : "\(stem)+\(fileName(run[0].swiftName))"
            var name = base
            var counter = 2
            while usedNames.contains(name.lowercased()) {
                name = "\(base)_\(counter)"
                counter += 1
            }
            usedNames.insert(name.lowercased())
            files.append(GeneratedFile(path: "Models/\(name).swift", contents: writer.text))
        }
        files.append(GeneratedFile(path: "\(sdk.typeNames.schema).swift", contents: SchemaRenderer(sdk: sdk, types: types).render()))
        files.append(GeneratedFile(path: "Methods.swift", contents: MethodRenderer(sdk: sdk, types: types).render()))
        files.append(GeneratedFile(path: "Operations.swift", contents: OperationRenderer(sdk: sdk, types: types).render()))
        files.append(GeneratedFile(path: "Errors.swift", contents: ErrorRenderer(sdk: sdk).render()))
        files.append(GeneratedFile(path: "Events.swift", contents: EventRenderer(sdk: sdk, types: types).render()))
        return files
    }

    /// The expected number of models in a file, and the most one file holds.
    static let meanRun = 8
    static let longestRun = 32

    /// The top-level models cut into the runs that share a file. A run holds models of one
    /// schema file, consecutive in the order they are declared there; a new run starts at a
    /// model whose name hashes to a multiple of ``meanRun`` (or after ``longestRun`` models).
    ///
    /// Why runs: each Swift file costs the compiler work of its own (its object file, debug
    /// information, and the helpers every file repeats); with the shared coding key, runs
    /// take a 500-model SDK's clean debug build from 186 s to 150 s of CPU
    /// (docs/performance.md, "What keeps the generated code cheap to compile"). Why cut by names:
    /// adding, removing or editing a model rewrites the file that holds it (and splits or
    /// joins one pair of runs when its name starts one), never the files of models around
    /// it, as cutting every eight models would.
    static func modelRuns(_ models: [ModelIR]) -> [[ModelIR]] {
        let bySchemaFile = Dictionary(grouping: models) { $0.location.file }
        var runs: [[ModelIR]] = []
        for file in bySchemaFile.keys.sorted() {
            let declared = bySchemaFile[file]!.sorted { ($0.location, $0.name) < ($1.location, $1.name) }
            var run: [ModelIR] = []
            for model in declared {
                if !run.isEmpty, run.count == longestRun || startsRun(model.name) {
                    runs.append(run)
                    run = []
                }
                run.append(model)
            }
            if !run.isEmpty { runs.append(run) }
        }
        return runs
    }

    /// The name of the first file of a schema file's models: its path in the schema folder
    /// without the extension, in upper camel case (`models.yaml` → `Models`,
    /// `billing/invoices.yaml` → `Billing_Invoices`, `../api/openapi.yaml` → `Parent_Api_Openapi`); `AuthModels`, `SdkModels`, … for the
    /// models hoisted from the inline schemas of a file with a role.
    static func fileStem(schemaFile: String, schemaFiles: [String: String]) -> String {
        let relative = schemaFiles[schemaFile] ?? String(schemaFile.split(separator: "/").last ?? "")
        // A referenced document outside the folder: `../api/openapi.yaml` → `Parent_Api_Openapi`.
        var components = relative.split(separator: "/").filter { $0 != "." }.map { $0 == ".." ? "parent" : String($0) }
        if let last = components.popLast() {
            components.append(last.split(separator: ".").dropLast().joined(separator: ".").nonEmpty ?? last)
        }
        let stem = components.map { fileName(SwiftName.upperCamel($0)) }.joined(separator: "_")
        let role = SchemaSource(path: schemaFile, relativePath: relative, text: "").role
        return role == .models ? stem : stem + "Models"
    }

    /// Whether a model starts a run: FNV-1a (32 bits) of its schema name, the same on every
    /// machine and every run, unlike `Hasher`.
    static func startsRun(_ name: String) -> Bool {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return hash % UInt32(meanRun) == 0
    }

    static func fileWriter(imports: [String]) -> CodeWriter {
        var writer = CodeWriter(capacity: 8192)
        writer.line(GeneratedFile.header)
        writer.line()
        for module in imports {
            // What exists for generated code only is `@_spi(Generated)` in the runtime and in
            // the descriptions it re-exports: apps do not see it (docs/packages.md).
            if module == "Sesame" {
                writer.line("@_spi(Generated) import Sesame")
                writer.line("@_spi(Generated) import SesameDescription")
            } else if module == "SesameOpenID" {
                writer.line("@_spi(Generated) import SesameOpenID")
            } else {
                writer.line("import \(module)")
            }
        }
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

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
