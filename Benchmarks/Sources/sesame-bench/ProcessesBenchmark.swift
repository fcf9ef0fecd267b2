import ArgumentParser
import BenchmarkTargets
import Foundation
import Logging
import ReferenceSDK
import ReferenceSDKTestSupport
import ReferenceServer
import SesameStore
import SesameTestSupport

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// `sesame-bench processes --processes 8 --requests 1000`: one session shared by several
/// processes (issue 28), against the reference server with refresh-token rotation, in
/// processes of this executable (`sesame-bench shared-session-child`).
struct ProcessesBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "processes",
        abstract: "Runs processes that share one session against the reference server and prints one JSON line.",
        discussion: """
            Refresh rounds: the app signs in with a token already due, then `--processes` processes \
            send `--requests` requests each; the server counts the refreshes (target: one per \
            round, no invalid_grant). Sign-out rounds: `--processes` processes watch while the app \
            signs out; each reports when its state changed (target: p99 ≤ 100 ms). Kill rounds: \
            a process refreshing is killed with SIGKILL after a random delay, then another process \
            sends a request: the session survived when it succeeds.
            Prints {"processes", "requests", "refreshes", "expected_refreshes", "invalid_grant", \
            "failed_requests", "signout_propagation_ms_p50", "signout_propagation_ms_p99", "kills", "survived"}.
            Example: swift run -c release sesame-bench processes --processes 8 --requests 1000
            """
    )

    @Option(help: "How many processes share the session.")
    var processes = 8
    @Option(help: "How many requests each process sends per refresh round.")
    var requests = 1000
    @Option(help: "How many refresh rounds (one expiry each).")
    var rounds = 3
    @Option(help: "How many sign-outs are timed (each watched by every process).")
    var signOuts = 5
    @Option(help: "How many processes are killed during a refresh.")
    var kills = 10

    func run() async throws {
        let result = try await Self.measure(
            processes: processes, requests: requests, rounds: rounds, signOuts: signOuts, kills: kills)
        print(result.jsonLine)
        let verdict = Verdict(result.checks)
        if !verdict.passed {
            FileHandle.standardError.write(Data("\(verdict.report)\n".utf8))
            throw ExitCode(verdict.exitStatus)
        }
    }

    struct Result: Sendable {
        var processes: Int
        var requests: Int
        var refreshes: Int
        var expectedRefreshes: Int
        var invalidGrant: Int
        var failedRequests: Int
        var propagation: [Double]
        var kills: Int
        var survived: Int

        func percentile(_ p: Double) -> Double {
            guard !propagation.isEmpty else { return .nan }
            let sorted = propagation.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded(.up)))]
        }

        var checks: [TargetCheck] {
            Targets.processes(
                refreshes: refreshes, expectedRefreshes: expectedRefreshes, invalidGrant: invalidGrant,
                failedRequests: failedRequests, propagationP99: percentile(0.99))
        }

        var jsonLine: String {
            "{\"benchmark\": \"processes\", \"processes\": \(processes), \"requests\": \(requests), \"refreshes\": \(refreshes), "
                + "\"expected_refreshes\": \(expectedRefreshes), \"invalid_grant\": \(invalidGrant), "
                + "\"failed_requests\": \(failedRequests), "
                + "\"signout_propagation_ms_p50\": \(String(format: "%.1f", percentile(0.5))), "
                + "\"signout_propagation_ms_p99\": \(String(format: "%.1f", percentile(0.99))), "
                + "\"kills\": \(kills), \"survived\": \(survived)}"
        }
    }

    /// A process of this executable running `shared-session-child` with `arguments`.
    static func child(_ arguments: [String]) throws -> ChildProcess {
        #if os(Linux)
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
        return try ChildProcess(executable, arguments: ["shared-session-child"] + arguments)
    }

    static func measure(processes: Int, requests: Int, rounds: Int, signOuts: Int, kills: Int) async throws -> Result {
        let server = ReferenceServer(
            configuration: .init(
                port: 0, logger: Logger(label: "bench.reference-server") { _ in SwiftLogNoOpLogHandler() }))
        let endpoint = try await server.start()
        defer { Task { await server.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-processes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = endpoint.baseURL
        let app = try AppSession<ReferenceSDKSchema>(
            configuration: .init(
                service: .init(
                    baseURL: base, client: ClientCredentials(clientID: "sesame-demo", clientSecret: "demo-secret"),
                    logger: Logger(label: "bench.app") { _ in SwiftLogNoOpLogHandler() },
                    receivesServerEvents: false, authorizationServerURL: base),
                directory: folder, sharing: .acrossProcesses()))
        let arguments = [base.absoluteString, folder.path, "sesame-demo", "demo-secret"]
        var result = Result(
            processes: processes, requests: requests, refreshes: 0, expectedRefreshes: rounds, invalidGrant: 0,
            failedRequests: 0, propagation: [], kills: kills, survived: 0)

        // Refresh rounds: a token already due (30 s, within the 60 s leeway), then an hour.
        let before = await server.state.counters()
        for _ in 0..<rounds {
            await server.state.setAccessTokenLifetime(.seconds(30))
            _ = try await app.auth.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
            await server.state.setAccessTokenLifetime(.seconds(3600))
            let counted = await server.state.counters()
            let outputs = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<processes {
                    group.addTask { try await Self.child(arguments + ["requests", "\(requests)"]).remainingOutput() }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for output in outputs {
                let line = output.split(separator: "\n").last.map(String.init) ?? ""
                let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                result.failedRequests += (object?["failed"] as? Int) ?? requests
            }
            result.refreshes += await server.state.counters().refreshes - counted.refreshes
        }
        result.invalidGrant = await server.state.counters().rejectedRefreshes - before.rejectedRefreshes

        // Sign-out rounds: every process watches; the app signs out.
        for _ in 0..<signOuts {
            _ = try await app.auth.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
            let watchers = try (0..<processes).map { _ in try Self.child(arguments + ["watch"]) }
            for watcher in watchers { _ = try await watcher.line() }
            let signedOut = Date().timeIntervalSince1970 * 1000
            await app.auth.unauthenticate()
            for watcher in watchers {
                let fields = try await watcher.line().split(separator: " ")
                if fields.count == 4, fields[1] == "unauthenticated", let at = Double(fields[3]) {
                    result.propagation.append(max(0, at - signedOut))
                }
                _ = await watcher.exitStatus()
            }
        }

        // Kill rounds: a process killed at a random point of its refresh.
        var random = SystemRandomNumberGenerator()
        for _ in 0..<kills {
            await server.state.setAccessTokenLifetime(.seconds(30))
            _ = try await app.auth.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
            await server.state.setAccessTokenLifetime(.seconds(3600))
            let victim = try Self.child(arguments + ["requests", "1"])
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...400, using: &random)))
            victim.sigkill()
            _ = await victim.exitStatus()
            let next = try await Self.child(arguments + ["requests", "1"]).remainingOutput()
            if next.contains(#""failed":0"#) { result.survived += 1 }
        }
        await app.auth.unauthenticate()
        return result
    }
}

/// `sesame-bench shared-session-child …`: one process of the benchmark (see `SharedSessionChild`).
struct SharedSessionChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shared-session-child", abstract: "One process of `processes` (not run by hand).", shouldDisplay: false)

    @Argument(parsing: .captureForPassthrough)
    var arguments: [String] = []

    func run() async throws {
        // `_exit`: see Reference/Sources/session-sharing-child.
        _exit(await SharedSessionChild.run(arguments))
    }
}
