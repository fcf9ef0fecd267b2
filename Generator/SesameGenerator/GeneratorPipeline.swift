/// The generator's stages, each a pure function over values: sources → parsed files →
/// validated IR → Swift files. The CLI and the plugins do all file and console I/O.
public enum GeneratorPipeline {
    /// The outcome of reading and validating a schema folder.
    public struct Validation: Sendable {
        /// The IR, when the schema has no errors.
        public var ir: SDKIR?
        /// Every diagnostic, in file, line, column order.
        public var diagnostics: [Diagnostic]
    }

    /// The outcome of a generation.
    public struct Generation: Sendable {
        /// The files to write, sorted by path; empty when there are errors.
        public var files: [GeneratedFile]
        public var diagnostics: [Diagnostic]
        public var ir: SDKIR?
        /// Snapshots of the store versions, relative to the schema folder
        /// (`released/store/persistence/1.json`), to record where none is recorded yet.
        public var storeSnapshots: [GeneratedFile] = []
    }

    /// Parses every source and validates the whole schema, reporting all problems at once.
    /// - Parameter released: the recorded store snapshots by path relative to the schema
    ///   folder (`released/store/persistence/1.json`); a declared version that differs from
    ///   its snapshot is an error.
    public static func validate(_ sources: [SchemaSource], released: [String: String] = [:]) -> Validation {
        var diagnostics: [Diagnostic] = []
        var files: [ParsedFile] = []
        for source in sources.sorted(by: { $0.relativePath < $1.relativePath }) {
            let (file, problems) = YAMLReader.parse(source)
            diagnostics += problems
            files.append(file)
        }
        // A file that did not parse would make every reference into it look unknown: report
        // the syntax errors of every file, and nothing that would follow from them.
        if diagnostics.hasErrors { return Validation(ir: nil, diagnostics: diagnostics.sortedByLocation()) }
        var translator = SDKTranslator(files: files)
        let (ir, problems) = translator.translate()
        diagnostics += problems
        if let ir { diagnostics += StoreSnapshots.check(ir.store, recorded: released) }
        return Validation(ir: diagnostics.hasErrors ? nil : ir, diagnostics: diagnostics.sortedByLocation())
    }

    /// Validates, then renders the SDK's Swift files.
    public static func generate(_ sources: [SchemaSource], released: [String: String] = [:]) -> Generation {
        let validation = validate(sources, released: released)
        guard let ir = validation.ir else { return Generation(files: [], diagnostics: validation.diagnostics, ir: nil) }
        var files = SwiftRenderer.render(ir)
        if let store = ir.store { files += StoreGenerator.render(store, sdk: ir) }
        return Generation(files: files.sorted { $0.path < $1.path }, diagnostics: validation.diagnostics, ir: ir,
                          storeSnapshots: ir.store.map(StoreSnapshots.snapshots) ?? [])
    }
}
