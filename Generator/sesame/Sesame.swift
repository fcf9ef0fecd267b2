import ArgumentParser
import Foundation
import SesameGenerator

@main
struct Sesame: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesame",
        abstract: "Turns YAML descriptions of an authentication back-end into a Swift SDK.",
        discussion: """
        Examples:
          sesame validate Schema
          sesame generate Schema --output Sources/ReferenceSDK/Generated
          sesame generate Schema --output Sources/ReferenceSDK/Generated --check

        Diagnostics are printed as file:line:column: error: message, every problem in one run.
        The format is described in docs/format.md.
        """,
        subcommands: [Validate.self, Generate.self, Diff.self]
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
        let sources = try SchemaFolder.read(schema)
        let validation = GeneratorPipeline.validate(sources)
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
        Example: sesame generate Schema --output Sources/ReferenceSDK/Generated --check
        """
    )

    @Argument(help: "The schema folder.")
    var schema: String

    @Option(help: "The folder the generated Swift files go in.")
    var output: String

    @Flag(help: "Write nothing; exit 1 when the generated files are not up to date.")
    var check = false

    @Option(help: "How diagnostics are printed: text, json or github.")
    var format: OutputFormat = .text

    func run() throws {
        let sources = try SchemaFolder.read(schema)
        let generation = GeneratorPipeline.generate(sources)
        DiagnosticPrinter.print(generation.diagnostics, format: format)
        if generation.diagnostics.hasErrors { throw ExitCode(1) }
        let changes = try OutputFolder(path: output).changes(for: generation.files)
        if check {
            if changes.isEmpty {
                FileHandle.standardError.write(Data("\(output): up to date (\(generation.files.count) files)\n".utf8))
                return
            }
            for change in changes {
                let message = "\(change.path): \(change.kind.rawValue); run `sesame generate \(schema) --output \(output)` (or `make generate`) and commit the result"
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
}
