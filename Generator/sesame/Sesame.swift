import ArgumentParser
import Foundation
import SesameGenerator

@main
struct Sesame: ParsableCommand {
    /// Runs the command on a thread with a 64 MiB stack. The translator recurses once per
    /// level of nesting, which the format bounds at 64 (docs/format.md, "Depth"), but a
    /// debug build (what a build plugin runs in a debug build of the app) spends about
    /// 140 KB of stack per level: the deepest schema the format allows overflowed the main
    /// thread's 8 MiB.
    static func main() {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Self.main(nil)
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
    }

    static let configuration = CommandConfiguration(
        commandName: "sesame",
        abstract: "Turns YAML descriptions of an authentication back-end into a Swift SDK.",
        discussion: """
            Examples:
              sesame validate Schema
              sesame generate Schema --output Reference/Sources/ReferenceSDK/Generated
              sesame generate Schema --output Reference/Sources/ReferenceSDK/Generated --check
              sesame release Schema
              sesame grammar --json-schema > docs/sesame-format.schema.json
              sesame discover https://idp.example.com --schema Schema

            Diagnostics are printed as file:line:column: error: message, every problem in one run.
            The format is described in docs/format.md.
            """,
        subcommands: [Validate.self, Generate.self, Diff.self, Release.self, GrammarCommand.self, Discover.self]
    )
}

/// How diagnostics are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// `file:line:column: error: message`, as compilers print.
    case text
    /// One JSON array of diagnostics.
    case json
    /// GitHub Actions workflow annotations (`::error file=…,line=…,col=…::message`).
    case github
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checks a schema folder and prints every problem with its position.",
        discussion: "Exits 1 when the schema has an error. Example: sesame validate Schema"
    )

    @Argument(help: "The schema folder.")
    var schema: String

    @Option(help: "How diagnostics are printed: text, json or github.")
    var format: OutputFormat = .text

    func run() throws {
        let read = try ReferencedFileReader.read(schema)
        let sources = read.sources
        let validation = GeneratorPipeline.validate(
            sources, released: try SchemaFolder.readReleased(schema), unreadable: read.unreadable)
        DiagnosticPrinter.print(validation.diagnostics, format: format)
        if validation.diagnostics.hasErrors { throw ExitCode(1) }
        if format == .text { FileHandle.standardError.write(Data("\(schema): valid (\(sources.count) files)\n".utf8)) }
    }
}

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generates the Swift SDK from a schema folder.",
        discussion: """
            Writes only the files whose bytes change and removes generated files the schema no longer
            produces (files that start with the generated header; hand-written files are left alone).
            With --check, writes nothing and exits 1 naming each file that would change.
            With --single-file PATH instead of --output, writes every generated file into the one
            Swift file PATH (imports first, then each file under a MARK comment); the SwiftPM build
            plugin uses it because its outputs must be named before the generator runs.
            Example: sesame generate Schema --output Reference/Sources/ReferenceSDK/Generated --check
            """
    )

    @Argument(help: "The schema folder.")
    var schema: String

    @Option(help: "The folder the generated Swift files go in.")
    var output: String?

    @Option(
        name: .customLong("single-file"),
        help: ArgumentHelp(
            "Write the whole SDK into this one Swift file instead of a folder (for build plugins).",
            valueName: "path"))
    var singleFile: String?

    @Flag(help: "Write nothing; exit 1 when the generated files are not up to date.")
    var check = false

    @Option(help: "How diagnostics are printed: text, json or github.")
    var format: OutputFormat = .text

    func validate() throws {
        switch (output, singleFile) {
        case (nil, nil): throw ValidationError("Missing expected argument '--output <output>' (or '--single-file <path>')")
        case (.some, .some): throw ValidationError("--output and --single-file cannot be used together")
        default: break
        }
    }

    func run() throws {
        let read = try ReferencedFileReader.read(schema)
        let released = try SchemaFolder.readReleased(schema)
        let generation = GeneratorPipeline.generate(read.sources, released: released, unreadable: read.unreadable)
        DiagnosticPrinter.print(generation.diagnostics, format: format)
        if generation.diagnostics.hasErrors { throw ExitCode(1) }
        if let singleFile { return try writeSingleFile(generation.files, to: singleFile) }
        guard let output else { return }
        // Only the output folder is written: recording released store versions is `sesame release`.
        let changes = try OutputFolder(path: output).changes(for: generation.files)
        if check {
            if changes.isEmpty {
                FileHandle.standardError.write(Data("\(output): up to date (\(generation.files.count) files)\n".utf8))
                return
            }
            for change in changes {
                let message =
                    "\(change.path): \(change.kind.rawValue); run `sesame generate \(schema) --output \(output)` (or `make generate`) and commit the result"
                switch format {
                case .github: print("::error file=\(change.path)::generated file is stale: \(change.kind.rawValue)")
                default: FileHandle.standardError.write(Data("\(message)\n".utf8))
                }
            }
            throw ExitCode(1)
        }
        try OutputFolder(path: output).apply(changes)
        FileHandle.standardError.write(Data("\(output): \(changes.count) file(s) changed of \(generation.files.count)\n".utf8))
    }

    private func writeSingleFile(_ files: [GeneratedFile], to path: String) throws {
        let contents = SingleFile.merge(files)
        if check {
            if FileManager.default.contents(atPath: path) == Data(contents.utf8) {
                FileHandle.standardError.write(Data("\(path): up to date (\(files.count) files in one)\n".utf8))
                return
            }
            let kind = FileManager.default.fileExists(atPath: path) ? "would change" : "would be created"
            switch format {
            case .github: print("::error file=\(path)::generated file is stale: \(kind)")
            default: FileHandle.standardError.write(Data("\(path): \(kind); run `sesame generate \(schema) --single-file \(path)`\n".utf8))
            }
            throw ExitCode(1)
        }
        let changed = try SingleFile.write(contents, to: path)
        FileHandle.standardError.write(Data("\(path): \(changed ? "written" : "unchanged") (\(files.count) files in one)\n".utf8))
    }
}
