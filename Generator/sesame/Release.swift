import ArgumentParser
import Foundation
import SesameGenerator

struct Release: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Records a schema folder as released: its YAML and its store versions.",
        discussion: """
            Writes <schema>/released/schema/ (a copy of the schema's YAML, which `sesame diff` and
            `make check` compare later schemas with; files no longer in the schema are removed) and
            <schema>/released/store/<kind>/<version>.json for every declared store version not yet
            recorded. A recorded store version is frozen: when one was edited or dropped, the release
            fails with the error at its position and writes nothing.
            With --check, writes nothing and exits 1 naming each file that would change.
            Example: sesame release Schema
            """
    )

    @Argument(help: "The schema folder.")
    var schema: String

    @Flag(help: "Write nothing; exit 1 when the schema is not recorded as released.")
    var check = false

    @Option(help: "How diagnostics are printed: text, json or github.")
    var format: OutputFormat = .text

    func run() throws {
        let read = try ReferencedFileReader.read(schema)
        let release = GeneratorPipeline.release(
            read.sources, released: try SchemaFolder.readReleased(schema), unreadable: read.unreadable)
        DiagnosticPrinter.print(release.diagnostics, format: format)
        if release.diagnostics.hasErrors { throw ExitCode(1) }
        let changes = try ReleasedFolder(schema: schema).changes(for: release.files)
        if check {
            if changes.isEmpty {
                FileHandle.standardError.write(Data("\(schema): released (\(release.files.count) files recorded)\n".utf8))
                return
            }
            for change in changes {
                FileHandle.standardError.write(
                    Data("\(change.path): \(change.kind.rawValue); run `sesame release \(schema)` when this schema ships\n".utf8))
            }
            throw ExitCode(1)
        }
        try OutputFolder(path: schema).apply(changes)
        FileHandle.standardError.write(Data("\(schema): \(changes.count) released file(s) changed of \(release.files.count)\n".utf8))
    }
}

/// The `released/` folder of a schema folder: what a release would change in it.
struct ReleasedFolder {
    let schema: String

    /// New and changed files, and YAML under `released/schema/` that the schema no longer
    /// has. Store snapshots are never removed: dropping a recorded version is an error first.
    func changes(for files: [GeneratedFile]) throws -> [OutputFolder.Change] {
        let manager = FileManager.default
        var changes: [OutputFolder.Change] = []
        var expected: Set<String> = []
        for file in files {
            let full = (schema as NSString).appendingPathComponent(file.path)
            expected.insert(URL(fileURLWithPath: full).standardizedFileURL.path)
            if let data = manager.contents(atPath: full) {
                if data != Data(file.contents.utf8) { changes.append(.init(path: full, kind: .modified, contents: file.contents)) }
            } else {
                changes.append(.init(path: full, kind: .created, contents: file.contents))
            }
        }
        let folder = URL(fileURLWithPath: schema).appendingPathComponent(GeneratorPipeline.releasedSchemaFolder)
        if let enumerator = manager.enumerator(at: folder, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where ["yaml", "yml", "json"].contains(url.pathExtension) {
                let full = url.standardizedFileURL.path
                if !expected.contains(full) { changes.append(.init(path: full, kind: .removed, contents: nil)) }
            }
        }
        return changes.sorted { $0.path < $1.path }
    }
}
