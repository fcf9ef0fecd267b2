import ArgumentParser
import BenchmarkTargets
import Foundation

/// `sesame-bench all`: `generate` at 50, 500 and 2,000 models, `references` (1,000 files), then the runtime's
/// `refresh-storm` (10,000 requests, expired and 401), `overhead` and `events` (2,000 events:
/// 1,000 subscribers paced; 1 and 10 unpaced at 5,000 events a second; 1,000 unpaced), the stores' `store-insert` (100,000 rows)
/// `migrate` (200,000 rows) and `launch`, `processes` (8 processes sharing a session), the models' `decode` and `encode`, OpenID Connect's `id-token` (a figure, no target), the JSON lines written to results/latest.jsonl, a table, and
/// every target of the issues met or missed. Exits 1 when any target is missed, naming each
/// on standard error (``Verdict``).
struct AllBenchmarks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract:
            "Runs generate at 50, 500 and 2000 models, the runtime and store benchmarks, writes results/latest.jsonl, prints a table and exits 1 when a target is missed.",
        discussion:
            "The last line on standard error says 'all N targets met', or 'MISSED k of N targets:' followed by one line per missed target."
    )

    static let sizes = [50, 500, 2000]

    @Option(
        help:
            "How many times each figure is measured at 2000 models; smaller schemas get proportionally more runs (at most 40). The best (minimum) is kept."
    )
    var repetitions = 5

    @Option(help: "Where the JSON lines go (default: results/latest.jsonl in the Benchmarks package).")
    var output: String?

    @Flag(help: "Also time each stage (read, translate, render) and show it in the table.")
    var stages = false

    @Option(help: "The sesame binary whose whole `generate` command is timed (default: .build/release/sesame at the repository root).")
    var sesame: String?

    func validate() throws {
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
    }

    func run() async throws {
        var results: [BenchmarkResult] = []
        var stageTimes: [StageTimes] = []
        for size in Self.sizes {
            let runs = Self.repetitions(for: size, base: repetitions)
            let result = try GenerateBenchmark.measure(models: size, repetitions: runs)
            results.append(result)
            if stages { stageTimes.append(GenerateBenchmark.stageTimes(models: size, repetitions: runs)) }
        }
        var commandChecks: [TargetCheck] = []
        var commandLine: String?
        do {
            let timing = try GenerateCommandTiming.measure(models: 2000, repetitions: 3, sesame: GenerateCommandTiming.binary(sesame))
            commandLine = timing.jsonLine
            commandChecks = timing.checks
        } catch let missing as GenerateCommandTiming.CommandMissing {
            commandChecks = [
                TargetCheck(name: "sesame generate, 2000 models: the command is built", measured: missing.description, met: false)
            ]
        }
        var referencesChecks: [TargetCheck] = []
        var referencesLine: String?
        do {
            let references = try ReferencesBenchmark.measure(files: 1000, sesame: GenerateCommandTiming.binary(sesame))
            referencesLine = references.jsonLine
            referencesChecks = references.checks
        } catch let missing as GenerateCommandTiming.CommandMissing {
            referencesChecks = [TargetCheck(name: "references: the command is built", measured: missing.description, met: false)]
        }
        let destination = URL(fileURLWithPath: output ?? Self.defaultOutput)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        var storms: [RefreshStormBenchmark.Result] = []
        for variant in RefreshStormBenchmark.Variant.allCases {
            storms.append(try await RefreshStormBenchmark.measure(requests: 10_000, variant: variant))
        }
        let overhead = try await OverheadBenchmark.measure(requests: 100_000, rounds: 7)
        var events: [EventsBenchmark.Result] = []
        for (subscribers, paced, rate) in Self.eventRuns {
            events.append(try await EventsBenchmark.measure(subscribers: subscribers, events: Self.eventCount, paced: paced, rate: rate))
        }
        let insert = try StoreInsertBenchmark.measure(rows: Self.storeInsertRows, repetitions: 3)
        let migrate = try MigrateBenchmark.measure(rows: Self.migrateRows)
        let launch = try await LaunchBenchmark.measure(runs: Self.launchRuns)
        let processes = try await ProcessesBenchmark.measure(processes: 8, requests: 1000, rounds: 3, signOuts: 5, kills: 10)
        let coding = try CodingBenchmark.Direction.allCases.flatMap { try CodingBenchmark.measure($0, rounds: Self.codingRounds) }
        let idTokens = try await IDTokenBenchmark.measure(rounds: 7, tokens: 1000)
        let dpop = try await DPoPBenchmark.measure(requests: 5_000, rounds: 7)
        var lines =
            results.map(\.jsonLine) + (commandLine.map { [$0] } ?? []) + (referencesLine.map { [$0] } ?? [])
            + storms.map(\.jsonLine) + [overhead.jsonLine]
            + events.map(\.jsonLine) + [insert.jsonLine]
            + migrate.jsonLines + [launch.jsonLine, processes.jsonLine]
        lines += coding.map(\.jsonLine) + idTokens.map(\.jsonLine) + [dpop.jsonLine]
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: destination, options: .atomic)
        print(Self.table(results, stages: stageTimes))
        if let commandLine { print("generate: whole command \(commandLine)") }
        if let referencesLine { print("generate: references \(referencesLine)") }
        print("")
        for storm in storms { print("runtime: refresh-storm \(storm.jsonLine)") }
        print("runtime: overhead \(overhead.jsonLine)")
        print("runtime: dpop \(dpop.jsonLine)")
        for run in events { print("runtime: events \(run.jsonLine)") }
        print("")
        print(Self.storeTable(insert: insert, migrate: migrate))
        print("stores: launch \(launch.jsonLine)")
        print("sessions: processes \(processes.jsonLine)")
        print("")
        print(CodingBenchmark.table(coding))
        for result in idTokens { print(IDTokenBenchmark.line(result)) }
        print("JSON lines: \(destination.path)")
        var checks = Self.generateChecks(results) + commandChecks + referencesChecks
        checks += storms.flatMap(\.checks) + [overhead.check] + events.flatMap(\.checks) + [insert.check] + migrate.checks + [launch.check]
        checks += dpop.checks
        checks += processes.checks + coding.flatMap(\.checks)
        let verdict = Verdict(checks)
        print("")
        print("targets:")
        for check in checks { print("  \(check)") }
        // Unbuffered on standard error, after the table: what a failing `make bench` says last.
        // `print` buffers standard output (fully, into a pipe or file): flush it first
        // (`fflush(nil)` flushes every output stream, without naming the global `stdout`).
        fflush(nil)
        FileHandle.standardError.write(Data("\(verdict.report)\n".utf8))
        if !verdict.passed { throw ExitCode(verdict.exitStatus) }
    }

    /// The generator's targets, from the runs at 500 and 2,000 models (none when either is missing).
    static func generateChecks(_ results: [BenchmarkResult]) -> [TargetCheck] {
        guard let large = results.first(where: { $0.models == 2000 }), let medium = results.first(where: { $0.models == 500 }) else {
            return []
        }
        return Targets.generate(secondsAt2000: large.seconds, parseRatioAt2000: large.parseRatio, secondsAt500: medium.seconds)
    }

    /// The events' size in `all`: the issue's 1,000 subscribers, a fiftieth of its 100,000
    /// events (the whole run takes minutes on 2 shared cores; `events` runs it on its own).
    /// Paced at 1,000 (lossless, cost); unpaced at a steady 5,000 events a second to 1 and 10
    /// subscribers, which keep up (lossless), and as fast as the service reads to 1,000, which
    /// cannot on 2 shared cores (its losses a figure).
    static let eventRuns: [(subscribers: Int, paced: Bool, rate: Double?)] = [
        (1000, true, nil), (1, false, 5000), (10, false, 5000), (1000, false, nil),
    ]
    static let eventCount = 2000

    /// The stores' sizes in `all`: `store-insert`'s default, and a fifth of `migrate`'s
    /// (1,000,000 rows take about 8 s to build and migrate on 2 shared cores).
    static let storeInsertRows = 100_000
    static let migrateRows = 200_000
    /// Alternated rounds of `decode` and `encode` in `all`, as their default.
    static let codingRounds = 15
    /// Launches of each kind in `all`, as `launch`'s default.
    static let launchRuns = 30

    /// The stores' figures and each migration step's verdict.
    static func storeTable(insert: StoreInsertBenchmark.Result, migrate: MigrateBenchmark.Result) -> String {
        var lines = [
            "stores: store-insert \(insert.rows) rows: insertAll \(String(format: "%.4f", insert.seconds)) s, C API "
                + "\(String(format: "%.4f", insert.rawSeconds)) s, raw/ours \(String(format: "%.2f", insert.ratio))",
            "stores: migrate \(migrate.rows) rows, raw INSERT…SELECT + index \(String(format: "%.4f", migrate.baseline)) s",
        ]
        lines += migrate.verdicts.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    /// Small schemas finish in milliseconds, where one preemption by another process skews a
    /// figure most: they get as many runs as process the same number of models as `base`
    /// runs at 2000 models, up to 40.
    static func repetitions(for models: Int, base: Int) -> Int {
        max(base, min(40, base * 2000 / models))
    }

    /// results/latest.jsonl beside Package.swift, wherever the command runs from.
    static var defaultOutput: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("results/latest.jsonl").path
    }

    /// The figures as a table, the stage times when measured, and the growth from 500 to 2,000 models.
    static func table(_ results: [BenchmarkResult], stages: [StageTimes]) -> String {
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
        var lines = [
            [
                pad("models", 7), pad("pipeline s", 11), pad("Yams parse s", 13), pad("× parse", 8), pad("µs/model", 9),
                pad("Swift lines", 12),
            ]
            .joined(separator: "  ")
        ]
        for result in results {
            lines.append(
                [
                    pad("\(result.models)", 7), pad(fixed(result.seconds, 4), 11), pad(fixed(result.parseSeconds, 4), 13),
                    pad(fixed(result.parseRatio, 2), 8), pad(fixed(result.seconds / Double(result.models) * 1e6, 1), 9),
                    pad("\(result.swiftLines)", 12),
                ].joined(separator: "  "))
        }
        if stages.count == results.count {
            lines.append("")
            lines.append([pad("models", 7), pad("read s", 9), pad("translate s", 12), pad("render s", 9)].joined(separator: "  "))
            for (result, time) in zip(results, stages) {
                lines.append(
                    [
                        pad("\(result.models)", 7), pad(fixed(time.read, 4), 9), pad(fixed(time.translate, 4), 12),
                        pad(fixed(time.render, 4), 9),
                    ].joined(separator: "  "))
            }
        }
        if let large = results.first(where: { $0.models == 2000 }), let medium = results.first(where: { $0.models == 500 }) {
            lines.append("")
            lines.append("time ×\(fixed(large.seconds / medium.seconds, 2)) from 500 to 2000 models (×4)")
        }
        return lines.joined(separator: "\n")
    }
}
