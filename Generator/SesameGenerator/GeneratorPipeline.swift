/// The generator's stages, each a pure function over values: sources → parsed files →
/// validated IR → Swift files. The CLI and the plugins do all file and console I/O.
public enum GeneratorPipeline {
    /// The outcome of reading and validating a schema folder.
    public struct Validation: Sendable {
        /// The IR, when the schema has no errors.
        public internal(set) var ir: SDKIR?
        /// Every diagnostic, in file, line, column order.
        public var diagnostics: [Diagnostic]
    }

    /// The outcome of a generation.
    public struct Generation: Sendable {
        /// The files to write, sorted by path; empty when there are errors.
        public var files: [GeneratedFile]
        /// Every diagnostic, in file, line, column order.
        public var diagnostics: [Diagnostic]
        /// The IR, when the schema has no errors.
        public internal(set) var ir: SDKIR?
    }

    /// The outcome of recording a schema folder as released.
    public struct Release: Sendable {
        /// The files that record the release, relative to the schema folder, sorted by path:
        /// `released/schema/<file>` for every source file, and
        /// `released/store/<kind>/<version>.json` for every declared store version. Empty when
        /// there are errors.
        public var files: [GeneratedFile]
        /// Every diagnostic, in file, line, column order.
        public var diagnostics: [Diagnostic]
    }

    /// The folder inside the schema folder that holds the released schema's YAML.
    public static let releasedSchemaFolder = "released/schema"

    /// Parses every source and validates the whole schema, reporting all problems at once.
    /// - Parameter released: the recorded store snapshots by path relative to the schema
    ///   folder (`released/store/persistence/1.json`); a declared version that differs from
    ///   its snapshot is an error, and so is a recorded version no longer declared. A declared
    ///   version with no snapshot is accepted: it is in development until `release` records it.
    /// - Parameter unreadable: why a file a `$ref` names could not be read (outside the
    ///   declared roots, a symbolic link out of them, too large, missing), by its path relative
    ///   to the schema folder; each `$ref` that names it is an error at its position.
    public static func validate(
        _ sources: [SchemaSource], released: [String: String] = [:], unreadable: [String: String] = [:]
    ) -> Validation {
        var diagnostics: [Diagnostic] = []
        var files: [ParsedFile] = []
        // What aliases may add counts over every file of the schema, not per file.
        var aliasBudget = YAMLReader.aliasedNodeLimit
        for source in sources.sorted(by: { $0.relativePath < $1.relativePath }) {
            let (file, problems) = YAMLReader.parse(source, aliasBudget: &aliasBudget)
            diagnostics += problems
            files.append(file)
        }
        // A file that did not parse would make every reference into it look unknown: report
        // the syntax errors of every file, and nothing that would follow from them.
        if diagnostics.hasErrors { return Validation(ir: nil, diagnostics: diagnostics.sortedByLocation()) }
        let translator = SDKTranslator(files: files, unreadable: unreadable)
        let (ir, problems) = translator.translate()
        diagnostics += problems
        if let ir { diagnostics += SchemaValidator.checkReleasedStore(ir.store, recorded: released) }
        return Validation(ir: diagnostics.hasErrors ? nil : ir, diagnostics: diagnostics.sortedByLocation())
    }

    /// Validates, then renders the SDK's Swift files.
    public static func generate(
        _ sources: [SchemaSource], released: [String: String] = [:], unreadable: [String: String] = [:]
    ) -> Generation {
        let validation = validate(sources, released: released, unreadable: unreadable)
        guard let ir = validation.ir else { return Generation(files: [], diagnostics: validation.diagnostics, ir: nil) }
        let schemaFiles = Dictionary(sources.map { ($0.path, $0.relativePath) }, uniquingKeysWith: { first, _ in first })
        var files = SwiftRenderer.render(ir, schemaFiles: schemaFiles)
        if let store = ir.store, let namespace = ir.typeNames.store {
            files += StoreRenderer(store: store, namespace: namespace, schema: ir.typeNames.schema).files()
        }
        return Generation(files: files.sorted { $0.path < $1.path }, diagnostics: validation.diagnostics, ir: ir)
    }

    /// Validates, then returns what records the schema as released: a copy of every source
    /// (what `sesame diff` compares later schemas with) and a snapshot of every declared store
    /// version (frozen from then on). A recorded store version that was edited or dropped is
    /// an error here as in `validate`, so a release never rewrites a shipped version.
    public static func release(
        _ sources: [SchemaSource], released: [String: String] = [:], unreadable: [String: String] = [:]
    ) -> Release {
        let validation = validate(sources, released: released, unreadable: unreadable)
        guard let ir = validation.ir else { return Release(files: [], diagnostics: validation.diagnostics) }
        let copies = sources.map {
            GeneratedFile(path: "\(releasedSchemaFolder)/\(ReferencedFiles.releasedPath(of: $0.relativePath))", contents: $0.text)
        }
        let snapshots = ir.store.map(StoreSnapshots.snapshots) ?? []
        return Release(files: (copies + snapshots).sorted { $0.path < $1.path }, diagnostics: validation.diagnostics)
    }
}
