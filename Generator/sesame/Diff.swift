import ArgumentParser
import Foundation
import SesameGenerator

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reports every change between two schema folders, graded breaking or compatible.",
        discussion: """
            Positions point into NEW, or into OLD for removals. Exits 1 when a change is breaking
            (or, with --fail-on warning, when any change is a warning or worse).
            Example: sesame diff released/Schema Schema --format github
            """
    )

    enum Threshold: String, ExpressibleByArgument, CaseIterable {
        case breaking, warning
    }

    @Argument(help: "The schema folder apps were built against.")
    var old: String

    @Argument(help: "The schema folder to compare with it.")
    var new: String

    @Option(help: "How changes are printed: text, json or github.")
    var format: OutputFormat = .text

    @Option(name: .customLong("fail-on"), help: "The grade that makes the command fail: breaking or warning.")
    var failOn: Threshold = .breaking

    func run() throws {
        var irs: [SDKIR] = []
        for folder in [old, new] {
            let read = try ReferencedFileReader.read(folder)
            let validation = GeneratorPipeline.validate(read.sources, unreadable: read.unreadable)
            DiagnosticPrinter.print(validation.diagnostics, format: format)
            guard let ir = validation.ir else {
                FileHandle.standardError.write(Data("\(folder) is not a valid schema; fix it before comparing\n".utf8))
                throw ExitCode(2)
            }
            irs.append(ir)
        }
        let changes = SchemaDiff.compare(old: irs[0], new: irs[1])
        switch format {
        case .text:
            for change in changes { print(change) }
            let breaking = changes.filter { $0.grade == .breaking }.count
            FileHandle.standardError.write(Data("\(changes.count) change(s), \(breaking) breaking\n".utf8))
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(changes), as: UTF8.self))
        case .github:
            for change in changes {
                let level = change.grade == .breaking ? "error" : change.grade == .warning ? "warning" : "notice"
                let location = change.location.map { "file=\($0.file),line=\($0.line),col=\($0.column)" } ?? ""
                print("::\(level) \(location)::\(change.grade.rawValue): \(change.message) [\(change.kind)]")
            }
        }
        let threshold: SchemaChange.Grade = failOn == .warning ? .warning : .breaking
        if changes.contains(where: { $0.grade >= threshold }) { throw ExitCode(1) }
    }
}
