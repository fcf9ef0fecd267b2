@_spi(Generated) import SesameDescription
/// The first pass: what the schema folder declares, before anything is translated. Each
/// file of a role (sdk, auth, errors, events, store), every model of the models files, and
/// every operation name of auth.yaml, so that later passes can resolve names across files.
struct SchemaSymbols {
    /// The one file of each role other than models.
    var roleFiles: [SchemaSource.Role: ParsedFile] = [:]
    /// The models files' declarations, collected; `translateAll()` translates them.
    var models: ModelTranslator
    /// Every operation name auth.yaml declares, including those that will fail to translate,
    /// so that references to them do not add a second error.
    var declaredOperations: Set<String> = []
    /// A second file of one role is an error at its first line.
    var diagnostics: [Diagnostic] = []

    /// - Parameter unreadable: why a referenced file could not be read, by its path relative
    ///   to the schema folder (reported at each `$ref` that names it).
    init(files: [ParsedFile], unreadable: [String: String] = [:]) {
        // Referenced documents, and YAML files of the folder that are documents (an OpenAPI
        // document, a JSON Schema document with `$schema`), declare no models of their own.
        let isDocument = { (file: ParsedFile) in
            file.source.isReferencedDocument || (file.source.role == .models && OpenAPIDocument.isDocument(file.root))
        }
        let documents = SchemaDocuments(
            modelFiles: files.filter { $0.source.role == .models && !isDocument($0) },
            documents: files.filter(isDocument).map(OpenAPIDocument.normalized),
            otherFiles: files.filter { [.auth, .events].contains($0.source.role) && !$0.source.isReferencedDocument },
            settings: ReferenceSettings.read(files.first { $0.source.role == .sdk && !$0.source.isReferencedDocument }),
            unreadable: unreadable)
        models = ModelTranslator(
            modelFiles: files.filter { $0.source.role == .models && !isDocument($0) }, documents: documents,
            options: ModelOptions.read(files.first { $0.source.role == .sdk && !$0.source.isReferencedDocument }))
        for file in files where file.source.role != .models && !file.source.isReferencedDocument {
            if let previous = roleFiles[file.source.role] {
                diagnostics.append(
                    .error(
                        "a schema has one \(file.source.role.rawValue) file; this one repeats \(previous.source.path)",
                        at: SourceLocation(file: file.source.path, line: 1, column: 1)))
                continue
            }
            roleFiles[file.source.role] = file
        }
        declaredOperations = Self.operationNames(in: roleFiles[.auth])
    }

    /// The keys of auth.yaml's `operations`; its translator reports any problem with them.
    private static func operationNames(in file: ParsedFile?) -> Set<String> {
        guard let file, let root = file.root else { return [] }
        var scratch = NodeReader(file: file.source.path)
        guard let entries = scratch.mapping(root, "auth.yaml", grammar: Grammar.authFile),
            let operations = entries["operations"].flatMap({ scratch.mapping($0.value, "operations") })
        else { return [] }
        return Set(operations.map(\.key))
    }
}
