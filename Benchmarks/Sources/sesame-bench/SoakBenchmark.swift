import ArgumentParser
import Foundation
import SesameSoak

/// `sesame-bench soak --requests N`: the fault-injected soak of Reference/Sources/SesameSoak, at scale.
struct SoakBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Drives the generated reference SDK through a fault-injecting back-end and checks every request ends exactly once.",
        discussion: """
            Sends N requests (listNotes, createNote, me, serverStatus) through the generated
            ReferenceSDK and its AuthenticationService over an in-memory back-end that injects
            faults: 10% transport errors, 1% of refreshes failing (half 503, half invalid_grant,
            after which the soak signs in again), 2% RFC 6750 rejections of good tokens, 0.5%
            redirects to another origin, and up to 2 ms of latency on a quarter of the requests.
            Tokens last 90 s on a virtual clock that moves 0.1 s per request, so proactive
            refreshes happen throughout and rejections press on the schema's refresh window. Prints the figures (requests, completed_once, lost,
            duplicated, refreshes, window_violations, untyped_errors, …), then one JSON line.
            Exits 1 when a request was lost or duplicated, an error was untyped, a refresh went
            beyond the schema's window, or another check failed (credential sent to another
            origin, rotated refresh token reused, write replayed, inconsistent end state).
            Example: swift run -c release sesame-bench soak --requests 100000
            """
    )

    @Option(help: "How many requests.")
    var requests = 100_000

    @Option(help: "Seeds the operations and the faults (the interleaving still varies between runs).")
    var seed: UInt64 = 1

    @Option(help: "How many requests are in flight at once.")
    var concurrency = 64

    func validate() throws {
        guard requests >= 1, concurrency >= 1 else { throw ValidationError("--requests and --concurrency must be at least 1") }
    }

    func run() async throws {
        let report = await SoakDriver(configuration: SoakConfiguration(requests: requests, concurrency: concurrency, seed: seed)).run()
        print(report.summary)
        print(report.jsonLine)
        let problems = report.problems
        guard problems.isEmpty else {
            for problem in problems { print("FAILED: \(problem)") }
            throw ExitCode.failure
        }
    }
}
