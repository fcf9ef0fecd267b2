import Foundation
import SesameGenerator

/// Reads a schema folder and every file its `$ref`s name (JSON Schema and OpenAPI documents,
/// docs/format.md "References"), following references until no file is missing.
///
/// A file is read only when it is inside the schema folder or inside a root sdk.yaml declares
/// (`references: { roots: [../api] }`), once every symbolic link is resolved (a link that
/// leads out of them is refused), and when it is at most `maximumSize` bytes (the read stops
/// there, before it buffers more). A file that is refused is reported at each `$ref` that names it.
///
/// A released copy of the folder (`released/schema`) keeps the files from outside the folder
/// under `.references/` (`ReferencedFiles.releasedPath(of:)`): they are read from there first.
enum ReferencedFileReader {
    /// The largest referenced file read, in bytes.
    static let maximumSize = 16 << 20
    /// How many referenced files one schema may read.
    static let maximumFiles = 1_000

    struct Result {
        var sources: [SchemaSource]
        /// Why a referenced file was not read, by its path relative to the schema folder.
        var unreadable: [String: String]
    }

    static func read(_ schema: String) throws -> Result {
        var sources = try SchemaFolder.read(schema)
        var unreadable: [String: String] = [:]
        var attempted: Set<String> = []
        var search = ReferencedFiles.Search(sources)
        while true {
            let referenced = search.missing()
            let next = referenced.missing.filter { !attempted.contains($0) && referenced.settings.allows($0) }
            if next.isEmpty { break }
            var read: [SchemaSource] = []
            defer { search.add(read) }
            for path in next {
                attempted.insert(path)
                guard attempted.count <= maximumFiles else {
                    unreadable[path] = "a schema may read at most \(maximumFiles) referenced files"
                    continue
                }
                switch load(path, schema: schema, roots: referenced.settings.roots) {
                case .success(let text):
                    let display = schema.hasSuffix("/") ? schema + path : schema + "/" + path
                    read.append(SchemaSource(path: display, relativePath: path, text: text, isReferencedDocument: true))
                    sources.append(read[read.count - 1])
                case .failure(let reason):
                    unreadable[path] = reason.description
                }
            }
        }
        return Result(sources: sources, unreadable: unreadable)
    }

    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// The text of the file at `path` (relative to the schema folder), or why it is not read.
    static func load(_ path: String, schema: String, roots: [String]) -> Swift.Result<String, Refusal> {
        let folder = URL(fileURLWithPath: schema)
        var candidate = folder.appendingPathComponent(path).path
        let copy = folder.appendingPathComponent(ReferencedFiles.releasedPath(of: path)).path
        if path.hasPrefix("../"), FileManager.default.fileExists(atPath: copy) { candidate = copy }
        guard let real = realPath(candidate) else { return .failure(Refusal(description: "no such file")) }
        // Where the file may be once every link is resolved: the folder, or the roots.
        let allowed = ([schema] + roots.map { folder.appendingPathComponent($0).path }).compactMap(realPath)
        guard allowed.contains(where: { real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            return .failure(Refusal(description: "it is a symbolic link out of the schema folder and the declared roots"))
        }
        var status = stat()
        guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failure(Refusal(description: "it is not a regular file"))
        }
        guard let handle = FileHandle(forReadingAtPath: real) else { return .failure(Refusal(description: "it cannot be opened")) }
        defer { try? handle.close() }
        let data = handle.readData(ofLength: maximumSize + 1)
        guard data.count <= maximumSize else {
            return .failure(Refusal(description: "it is larger than \(maximumSize >> 20) MiB"))
        }
        return .success(String(decoding: data, as: UTF8.self))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
