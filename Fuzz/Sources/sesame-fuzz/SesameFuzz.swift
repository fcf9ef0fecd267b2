import Foundation
import SesameGenerator

/// libFuzzer's entry point: one input is a whole schema folder (see `FuzzInput`), its
/// referenced documents found in rounds as `sesame` reads them, read, validated and rendered
/// as `sesame generate` does, store and snapshot checks included, then diffed against the
/// released schema as `sesame diff` does when the input has one; a discovery document in the
/// input is read and merged into its sdk.yaml as `sesame discover` does.
/// Diagnostics are the expected outcome of most inputs; only a crash, a hang or runaway
/// memory is a finding, and libFuzzer detects those itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(bytes: UnsafeRawBufferPointer(start: start, count: count))
    // The CLI refuses a folder without YAML before the pipeline runs.
    guard input.sources.contains(where: { !$0.isReferencedDocument }) else { return -1 }
    if let discovery = input.discovery { discover(discovery, into: input.sources) }
    // The documents the folder's `$ref`s name, a round at a time, as ReferencedFileReader
    // reads them from disk: only those named, each once.
    var search = ReferencedFiles.Search(input.sources.filter { !$0.isReferencedDocument })
    var sources = input.sources.filter { !$0.isReferencedDocument }
    var read: Set<String> = []
    while true {
        let named = search.missing().missing.filter { !read.contains($0) }
        let found = input.sources.filter { $0.isReferencedDocument && named.contains($0.relativePath) }
        read.formUnion(named)
        if found.isEmpty { break }
        search.add(found)
        sources += found
    }
    let generation = GeneratorPipeline.generate(sources, released: input.released)
    // The pipeline promises files or errors: an input that yields neither would mean a stage
    // dropped a problem on the floor, and `sesame generate` would write an empty SDK.
    if generation.files.isEmpty && !generation.diagnostics.hasErrors {
        fatalError("no files and no error for a schema of \(input.sources.count) files")
    }
    if !input.previous.isEmpty, let new = generation.ir, let old = GeneratorPipeline.validate(input.previous).ir {
        _ = SchemaDiff.compare(old: old, new: new)
    }
    return 0
}

/// `sesame discover` on a document: read, then merged into the input's sdk.yaml.
func discover(_ data: Data, into sources: [SchemaSource]) {
    let (document, _) = DiscoveryDocument.read(data, file: "discovery.json", expectedIssuer: nil)
    guard let document, let sdk = sources.first(where: { $0.relativePath == "sdk.yaml" }) else { return }
    for algorithms in [DiscoveryImport.Algorithms.replace, .merge] {
        _ = DiscoveryImport.update(sdk.text, file: sdk.path, with: document, algorithms: algorithms)
    }
}

/// How one fuzz input frames a schema folder. A line `=== <path>` starts the file at that
/// path relative to the schema folder (`models.yaml`, `models/billing.yaml`); text before
/// the first such line, if any, is `sdk.yaml`. A `.json` path under `released/`
/// (`released/store/cache/1.json`) is a recorded store snapshot, and a YAML file under
/// `released/schema/` belongs to the released schema (`make check`'s `sesame diff`). Another
/// `.json` path (`schemas/user.json`) is a document the folder's `$ref`s may name, read only
/// when one does, and `discovery.json` is a discovery document for `sesame discover`. As in a
/// real folder, a path holds one file (the last one wins), and only paths the CLI could read
/// count: `.yaml`, `.yml` or `.json` files, with no empty, `.` or `..` component.
struct FuzzInput {
    static let marker = "=== "

    var sources: [SchemaSource] = []
    var released: [String: String] = [:]
    var previous: [SchemaSource] = []
    var discovery: Data?

    init(bytes: UnsafeRawBufferPointer) {
        // The CLI decodes files the same way: invalid UTF-8 becomes U+FFFD.
        let text = String(decoding: bytes, as: UTF8.self)
        var files: [String: String] = [:]
        var path = "sdk.yaml"
        var lines: [String] = []
        // An input that starts with a marker has no `sdk.yaml` unless it names one.
        var named = false
        // Split on the scalar: as a `Character`, `\r\n` is not `\n`.
        for scalars in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(scalars)
            if line.hasPrefix(Self.marker) {
                if named || !lines.isEmpty { files[path] = lines.joined(separator: "\n") }
                path = String(line.dropFirst(Self.marker.count))
                lines = []
                named = true
            } else {
                lines.append(line)
            }
        }
        if named || !lines.isEmpty { files[path] = lines.joined(separator: "\n") }
        for (path, contents) in files.sorted(by: { $0.key < $1.key }) where Self.isReadable(path) {
            let yaml = path.hasSuffix(".yaml") || path.hasSuffix(".yml")
            if path.hasPrefix("released/schema/"), yaml {
                let relative = String(path.dropFirst("released/schema/".count))
                previous.append(SchemaSource(path: "Schema/\(path)", relativePath: relative, text: contents))
            } else if path.hasPrefix("released/") {
                if path.hasSuffix(".json") { released[path] = contents }
            } else if path == "discovery.json" {
                discovery = Data(contents.utf8)
            } else if yaml {
                sources.append(SchemaSource(path: "Schema/\(path)", relativePath: path, text: contents))
            } else if path.hasSuffix(".json") {
                sources.append(SchemaSource(path: "Schema/\(path)", relativePath: path, text: contents, isReferencedDocument: true))
            }
        }
    }

    /// Whether a folder could hold a file at this relative path.
    static func isReadable(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }
}
