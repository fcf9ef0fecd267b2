import ArgumentParser
import BenchmarkTargets
import Foundation
import SesameGenerator
import Yams

/// `sesame-bench generate --models N`: one synthetic schema, timed end to end and against
/// the Yams parse of the same texts, printed as one JSON line.
struct GenerateBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Times the generator on a synthetic schema of N models and prints one JSON line.",
        discussion: """
            Prints {"models": N, "seconds": …, "parse_seconds": …, "swift_lines": …}: the best of
            the repetitions for the whole pipeline and for Yams.compose of the same YAML alone.
            Exits 1, printing the diagnostics, when the pipeline reports an error.
            With --command, also writes the schema to files and times the whole `sesame generate`
            process (a release build of the CLI: `swift build -c release --product sesame` at the
            repository root): into an empty folder, with --check, and again with nothing to
            write; one more JSON line with each run's wall, user and system seconds and peak
            memory. Exits 1 when a run fails or --check finds a change right after a write.
            Example: swift run -c release sesame-bench generate --models 2000 --command
            """
    )

    @Option(help: "How many object models the synthetic schema declares (operations: a quarter of that).")
    var models: Int

    @Option(help: "How many times each figure is measured; the best (minimum) is kept.")
    var repetitions = 5

    @Flag(help: "Also print, to standard error, the time of each stage (read, translate, render).")
    var stages = false

    @Flag(help: "Also time the whole `sesame generate` command on files: write, --check, unchanged.")
    var command = false

    @Option(help: "The sesame binary for --command (default: .build/release/sesame at the repository root).")
    var sesame: String?

    func validate() throws {
        guard models >= 1 else { throw ValidationError("--models must be at least 1") }
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
    }

    func run() throws {
        let result = try Self.measure(models: models, repetitions: repetitions)
        print(result.jsonLine)
        if stages {
            let times = Self.stageTimes(models: models, repetitions: repetitions)
            FileHandle.standardError.write(Data("\(times.jsonLine)\n".utf8))
        }
        if command {
            let timing = try GenerateCommandTiming.measure(
                models: models, repetitions: min(repetitions, 3), sesame: GenerateCommandTiming.binary(sesame))
            print(timing.jsonLine)
            let verdict = Verdict(timing.checks)
            if !verdict.passed {
                FileHandle.standardError.write(Data("\(verdict.report)\n".utf8))
                throw ExitCode(verdict.exitStatus)
            }
        }
    }

    /// Measures one schema size.
    /// - Throws: `ExitCode.failure`, after printing them, when the pipeline reports an error
    ///   diagnostic or generates nothing; any error of Yams.
    static func measure(models: Int, repetitions: Int) throws -> BenchmarkResult {
        let sources = SyntheticSchema(models: models).sources
        // A first run outside the timing, to check the schema is valid: a benchmark of a
        // pipeline that stops at the first error would measure nothing worth reporting.
        try check(GeneratorPipeline.generate(sources), models: models)
        let pipeline = Stopwatch.best(of: repetitions) { GeneratorPipeline.generate(sources) }
        try check(pipeline.result, models: models)
        let parse = try Stopwatch.best(of: repetitions) { try sources.map { try Yams.compose(yaml: $0.text) } }
        guard parse.result.allSatisfy({ $0 != nil }) else { throw failure("Yams composed an empty document") }
        let lines = pipeline.result.files.reduce(0) { $0 + lineCount($1.contents) }
        return BenchmarkResult(models: models, seconds: pipeline.seconds, parseSeconds: parse.seconds, swiftLines: lines)
    }

    /// Times the stages separately (each the best of the repetitions): reading is
    /// `YAMLReader.parse` of every file, translation is `GeneratorPipeline.validate` less
    /// reading, rendering is `SwiftRenderer.render` of the validated IR.
    static func stageTimes(models: Int, repetitions: Int) -> StageTimes {
        let sources = SyntheticSchema(models: models).sources
        let read = Stopwatch.best(of: repetitions) { sources.map { YAMLReader.parse($0) } }
        let validate = Stopwatch.best(of: repetitions) { GeneratorPipeline.validate(sources) }
        guard let ir = validate.result.ir else { return StageTimes(read: read.seconds, validate: validate.seconds, render: .nan) }
        let render = Stopwatch.best(of: repetitions) { SwiftRenderer.render(ir) }
        return StageTimes(read: read.seconds, validate: validate.seconds, render: render.seconds)
    }

    private static func check(_ generation: GeneratorPipeline.Generation, models: Int) throws {
        let errors = generation.diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            for diagnostic in errors.prefix(20) { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
            throw failure("the synthetic schema of \(models) models has \(errors.count) error(s)")
        }
        if generation.files.isEmpty { throw failure("the pipeline generated no file for \(models) models") }
    }

    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("sesame-bench: error: \(message)\n".utf8))
        return ExitCode.failure
    }

    /// Lines of a text, counting a last line without a newline.
    static func lineCount(_ text: String) -> Int {
        var count = 0
        var last: UInt8 = 0x0A
        for byte in text.utf8 {
            if byte == 0x0A { count += 1 }
            last = byte
        }
        return last == 0x0A ? count : count + 1
    }
}
