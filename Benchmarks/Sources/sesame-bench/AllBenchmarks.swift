import ArgumentParser
import Foundation

/// `sesame-bench all`: `generate` at 50, 500 and 2,000 models, then the runtime's
/// `refresh-storm` (10,000 requests), `overhead` and `events` (1,000 subscribers, 2,000 events),
/// the stores' `store-insert` (100,000 rows) and `migrate` (200,000 rows), the JSON lines
/// written to results/latest.jsonl and a table printed with the issues' targets.
struct AllBenchmarks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "all",
        abstract:
            "Runs generate at 50, 500 and 2000 models, the runtime and store benchmarks, writes results/latest.jsonl and prints a table."
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
        let destination = URL(fileURLWithPath: output ?? Self.defaultOutput)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let storm = try await RefreshStormBenchmark.measure(requests: 10_000)
        let overhead = try await OverheadBenchmark.measure(requests: 100_000, rounds: 7)
        let events = try await EventsBenchmark.measure(subscribers: Self.eventSubscribers, events: Self.eventCount, paced: true)
        let insert = try StoreInsertBenchmark.measure(rows: Self.storeInsertRows, repetitions: 3)
        let migrate = try MigrateBenchmark.measure(rows: Self.migrateRows)
        let lines = results.map(\.jsonLine) + [storm.jsonLine, overhead.jsonLine, events.jsonLine, insert.jsonLine] + migrate.jsonLines
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: destination, options: .atomic)
        print(Self.table(results, stages: stageTimes))
        print("")
        print("runtime: refresh-storm \(storm.jsonLine)  \(storm.metTargets ? "met" : "MISSED") (refreshes = 1, all succeeded)")
        print("runtime: overhead \(overhead.jsonLine)  \(overhead.metTarget ? "met" : "MISSED") (≤ 2 µs per request)")
        print(
            "runtime: events \(events.jsonLine)  \(events.lossless ? "met" : "MISSED") (every subscriber gets every event once, in order)")
        print("")
        print(Self.storeTable(insert: insert, migrate: migrate))
        print("JSON lines: \(destination.path)")
        if !events.lossless { FileHandle.standardError.write(Data("\(events.failure)\n".utf8)) }
        if !migrate.rowsKept || !events.lossless { throw ExitCode.failure }
    }

    /// The events' size in `all`: the issue's 1,000 subscribers, a fiftieth of its 100,000
    /// events (the whole run takes minutes on 2 shared cores; `events` runs it on its own).
    static let eventSubscribers = 1000
    static let eventCount = 2000

    /// The stores' sizes in `all`: `store-insert`'s default, and a fifth of `migrate`'s
    /// (1,000,000 rows take about 8 s to build and migrate on 2 shared cores).
    static let storeInsertRows = 100_000
    static let migrateRows = 200_000

    /// The stores' figures, each against its target.
    static func storeTable(insert: StoreInsertBenchmark.Result, migrate: MigrateBenchmark.Result) -> String {
        func mark(_ met: Bool) -> String { met ? "met" : "MISSED" }
        var lines = [
            "stores: store-insert \(insert.rows) rows: insertAll \(String(format: "%.4f", insert.seconds)) s, C API "
                + "\(String(format: "%.4f", insert.rawSeconds)) s, raw/ours \(String(format: "%.2f", insert.ratio))  \(mark(insert.metTarget)) (≥ 0.6)",
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

    /// The figures as a table, the stage times when measured, and each target met or missed.
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
            let growth = large.seconds / medium.seconds
            let perModel = growth / 4
            func mark(_ met: Bool) -> String { met ? "met" : "MISSED" }
            lines.append("")
            lines.append("targets at 2000 models:")
            lines.append("  under 0.6 s:              \(fixed(large.seconds, 3)) s  \(mark(large.seconds < 0.6))")
            lines.append("  at most 2× the Yams parse: \(fixed(large.parseRatio, 2))×  \(mark(large.parseRatio <= 2))")
            lines.append(
                "  linear from 500 to 2000:  time ×\(fixed(growth, 2)) for models ×4, per model ×\(fixed(perModel, 2))  \(mark(perModel <= 1.15))"
            )
        }
        return lines.joined(separator: "\n")
    }
}
