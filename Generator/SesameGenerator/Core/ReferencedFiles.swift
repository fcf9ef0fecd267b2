/// The files the `$ref`s of a schema folder name beyond its YAML files (JSON Schema and
/// OpenAPI documents, docs/format.md "References"), which the caller reads and hands back
/// as sources with `isReferencedDocument` set. Reading follows references until no file is
/// missing, as a document may name more documents.
public struct ReferencedFiles: Sendable, Hashable {
    /// The files named but not among the sources yet, relative to the schema folder and
    /// normalized (`schemas/user.json`, `../api/openapi.yaml`), sorted.
    public var missing: [String]
    /// sdk.yaml's `references`: the roots a file outside the folder must be under.
    public var settings: ReferenceSettings

    /// The files the `$ref`s of `sources` name that `sources` lacks. Files that do not parse
    /// are skipped (validation reports them).
    public static func missing(in sources: [SchemaSource]) -> ReferencedFiles {
        var search = Search(sources)
        return search.missing()
    }

    /// A search for referenced files in rounds, as a reader runs it: the folder's files, then
    /// each round the documents the last round found missing, until none is. Each file is
    /// parsed and indexed once, and each round costs what it adds, so that a chain of `$ref`s
    /// across a thousand files costs a thousand files, not a million. What aliases may add
    /// counts over every file of the search (`YAMLReader.aliasedNodeLimit`).
    public struct Search {
        private var documents: SchemaDocuments
        private var known: Set<String>
        private var aliasBudget = YAMLReader.aliasedNodeLimit
        /// sdk.yaml's `references`.
        public let settings: ReferenceSettings

        /// Starts with `sources`: the folder's files (and any referenced documents already read).
        public init(_ sources: [SchemaSource]) {
            var budget = aliasBudget
            // Only a file whose text could name another file is parsed: a schema without
            // references to documents is not read twice.
            let files = sources.filter { source in
                source.isReferencedDocument || source.role == .sdk || mayNameAFile(source.text)
            }.map { YAMLReader.parse($0, aliasBudget: &budget).file }
            aliasBudget = budget
            let sdk = files.first { $0.source.role == .sdk && !$0.source.isReferencedDocument }
            let isDocument = { (file: ParsedFile) in
                file.source.isReferencedDocument || (file.source.role == .models && OpenAPIDocument.isDocument(file.root))
            }
            settings = ReferenceSettings.read(sdk)
            documents = SchemaDocuments(
                modelFiles: files.filter { $0.source.role == .models && !isDocument($0) },
                documents: files.filter(isDocument).map(OpenAPIDocument.normalized),
                otherFiles: files.filter { [.auth, .events].contains($0.source.role) && !$0.source.isReferencedDocument },
                settings: settings)
            // A file of the folder that was not parsed (it names no other file) is not missing:
            // `models.yaml#/Name` from auth.yaml named it, and reading it again as a referenced
            // document made the models file a document (found by `make random-schemas`, seed 29).
            known = Set(sources.map { SchemaURI.normalized($0.relativePath) })
        }

        /// Adds referenced documents that were read.
        public mutating func add(_ sources: [SchemaSource]) {
            for source in sources {
                known.insert(SchemaURI.normalized(source.relativePath))
                documents.add(document: OpenAPIDocument.normalized(YAMLReader.parse(source, aliasBudget: &aliasBudget).file))
            }
        }

        /// The files named and not read yet, with sdk.yaml's `references`: what the next
        /// round reads.
        public mutating func missing() -> ReferencedFiles {
            ReferencedFiles(missing: documents.takeMissingFiles().filter { !known.contains($0) }, settings: settings)
        }
    }

    /// Whether `text` holds `.json`, `.yaml`, `.yml`, `://` or `urn:` (ASCII case aside), one
    /// pass over its bytes: a file without any names no other file. Every YAML key is
    /// followed by a `:`, so a candidate is confirmed on its next byte before it is compared.
    static func mayNameAFile(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            func matches(_ word: StaticString, at index: Int) -> Bool { bytes.holds(word, at: index, ignoringCase: true) }
            for index in bytes.indices {
                switch bytes[index] {
                case UInt8(ascii: "."):
                    guard index + 1 < bytes.count, [UInt8(ascii: "j"), UInt8(ascii: "y")].contains(bytes[index + 1] | 0x20)
                    else { continue }
                    if matches(".json", at: index) || matches(".yaml", at: index) || matches(".yml", at: index) { return true }
                case UInt8(ascii: ":"):
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), matches("://", at: index) { return true }
                    if index >= 3, bytes[index - 1] | 0x20 == UInt8(ascii: "n"), matches("urn:", at: index - 3) { return true }
                default: continue
                }
            }
            return false
        }
    }

    /// The folder of a schema folder (or of its released copy) that holds the copies of
    /// referenced files from outside it.
    public static let outsideFolder = ".references"

    /// Where the released copy of the schema folder keeps the file at `relativePath`: the
    /// same path inside it, and a file from outside the folder under `.references/`, each
    /// `..` written `%2E%2E` (`../api/openapi.yaml` → `.references/%2E%2E/api/openapi.yaml`),
    /// where reading the copy finds it (`copyPath(of:)`).
    public static func releasedPath(of relativePath: String) -> String {
        let path = SchemaURI.normalized(relativePath)
        guard path.hasPrefix("../") else { return path }
        return outsideFolder + "/" + path.split(separator: "/").map { $0 == ".." ? "%2E%2E" : String($0) }.joined(separator: "/")
    }
}
