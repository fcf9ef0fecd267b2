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

    init(files: [ParsedFile]) {
        models = ModelTranslator(modelFiles: files.filter { $0.source.role == .models })
        for file in files where file.source.role != .models {
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
