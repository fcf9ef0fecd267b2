import BenchmarkTargets
import Foundation

/// Times the whole `sesame generate` command, as a process, on a synthetic schema written to
/// files: what a developer or a CI job waits for.
///
/// Three runs of the command, in this order, each a new process: `generate` into an empty
/// folder (read, generate, write every file), `generate --check` (read, generate, compare
/// every file, write nothing) and `generate` again (nothing to write). Each gives its wall
/// time, CPU time (user + system, from `wait4`'s resource usage) and peak resident memory.
enum GenerateCommandTiming {
    /// One run of the command.
    struct Run: Sendable {
        var seconds: Double
        var userSeconds: Double
        var systemSeconds: Double
        /// Peak resident set, in kilobytes (`ru_maxrss`).
        var maximumResidentKilobytes: Int
        var status: Int32

        var jsonFields: String {
            func format(_ value: Double) -> String { String(format: "%.4f", value) }
            return "{\"seconds\": \(format(seconds)), \"user_seconds\": \(format(userSeconds)), "
                + "\"system_seconds\": \(format(systemSeconds)), \"max_rss_mb\": \(maximumResidentKilobytes / 1024), \"status\": \(status)}"
        }
    }

    struct Result: Sendable {
        var models: Int
        var files: Int
        var write: Run
        var check: Run
        var unchanged: Run

        var checks: [TargetCheck] {
            Targets.generateCommand(
                models: models, succeeded: write.status == 0 && unchanged.status == 0, checkPassed: check.status == 0)
        }

        var jsonLine: String {
            "{\"command\": \"sesame generate\", \"models\": \(models), \"files\": \(files), \"write\": \(write.jsonFields), "
                + "\"check\": \(check.jsonFields), \"unchanged\": \(unchanged.jsonFields)}"
        }
    }

    /// The `sesame` binary: `path` if given; else this package's release build of it
    /// (`swift build -c release --product sesame` in Benchmarks/, which reuses the generator
    /// the benchmarks built), if there is one; else the root package's release build.
    static func binary(_ path: String?) -> URL {
        if let path { return URL(fileURLWithPath: path) }
        let benchmarks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let local = benchmarks.appendingPathComponent(".build/release/sesame")
        if FileManager.default.isExecutableFile(atPath: local.path) { return local }
        return benchmarks.deletingLastPathComponent().appendingPathComponent(".build/release/sesame")
    }

    /// Writes the synthetic schema of `models` models and times the three runs, best of
    /// `repetitions` each (a new output folder for every `write`).
    /// - Throws: `ValidationError` when the binary does not exist.
    static func measure(models: Int, repetitions: Int, sesame: URL) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: sesame.path) else {
            throw CommandMissing(path: sesame.path)
        }
        let directory = try StoreBench.Directory()
        defer { directory.remove() }
        let schema = directory.url.appendingPathComponent("Bench", isDirectory: true)
        try SyntheticSchema(models: models).write(to: schema)
        var writes: [Run] = []
        var checks: [Run] = []
        var unchangedRuns: [Run] = []
        var files = 0
        for repetition in 0..<repetitions {
            let output = directory.url.appendingPathComponent("Generated\(repetition)", isDirectory: true)
            writes.append(try run(sesame, ["generate", schema.path, "--output", output.path]))
            checks.append(try run(sesame, ["generate", schema.path, "--output", output.path, "--check"]))
            unchangedRuns.append(try run(sesame, ["generate", schema.path, "--output", output.path]))
            files = swiftFiles(in: output)
            try? FileManager.default.removeItem(at: output)
        }
        return Result(models: models, files: files, write: best(writes), check: best(checks), unchanged: best(unchangedRuns))
    }

    /// The fastest run; a failed run if any failed, so a failure is never hidden.
    static func best(_ runs: [Run]) -> Run {
        if let failed = runs.first(where: { $0.status != 0 }) { return failed }
        return runs.min { $0.seconds < $1.seconds }!
    }

    /// Runs `binary` with `arguments`, its output discarded, and measures it.
    static func run(_ binary: URL, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let before = childrenUsage()
        let started = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let seconds = (ContinuousClock.now - started).seconds
        let after = childrenUsage()
        return Run(
            seconds: seconds, userSeconds: after.user - before.user, systemSeconds: after.system - before.system,
            maximumResidentKilobytes: after.maxRSS, status: process.terminationStatus)
    }

    /// The resource usage of the children reaped so far. `ru_maxrss` is the largest of any
    /// child's: each run's figure is at least as large as the largest run before it.
    private static func childrenUsage() -> (user: Double, system: Double, maxRSS: Int) {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime), Int(usage.ru_maxrss))
    }

    private static func swiftFiles(in folder: URL) -> Int {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var count = 0
        while let url = enumerator?.nextObject() as? URL { if url.pathExtension == "swift" { count += 1 } }
        return count
    }

    /// The `sesame` binary is not built.
    struct CommandMissing: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "no sesame binary at \(path): build it first (in Benchmarks/ or at the repository root): swift build -c release --product sesame"
        }
    }
}
