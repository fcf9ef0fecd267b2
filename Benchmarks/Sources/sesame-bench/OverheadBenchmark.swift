import ArgumentParser
import BenchmarkTargets
import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Generated) import Sesame
import SesameStore
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// `sesame-bench overhead`: what the credential middleware adds to a request that needs no
/// refresh, over the bare in-memory transport, measured in the same run.
struct OverheadBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overhead",
        abstract: "Times the credential middleware against the bare transport and prints one JSON line.",
        discussion: """
            Prints {"microseconds_per_request": …, "bare_microseconds": …, "middleware_microseconds": …,
            "perform_microseconds": …, "shared_perform_microseconds": …}: the middleware's cost per
            request (its time less the bare transport's), and, for reference, the time per request of
            the bare transport, of the transport through the middleware, of the service's whole
            perform(_:) (middleware, logging, error handling, body collection) over the same transport,
            and of perform(_:) by a service whose session store is shared across processes
            (SharedSQLiteSessionStore: what its refresh lock and polling cost a request that needs no
            refresh). Each figure is the best of the rounds. Target: at most 2 µs. Exits 1 when it is missed.
            Example: swift run -c release sesame-bench overhead
            """
    )

    @Option(help: "Requests per round.")
    var requests = 100_000

    @Option(help: "Rounds; the best (minimum) of each figure is kept.")
    var rounds = 7

    func validate() throws {
        guard requests >= 1, rounds >= 1 else { throw ValidationError("--requests and --rounds must be at least 1") }
    }

    func run() async throws {
        let result = try await Self.measure(requests: requests, rounds: rounds)
        print(result.jsonLine)
        if !result.metTarget { throw ExitCode.failure }
    }

    struct Result: Sendable {
        var bare: Double
        var middleware: Double
        var perform: Double
        var sharedPerform: Double

        /// The middleware's cost per request, in microseconds.
        var overhead: Double { middleware - bare }
        var check: TargetCheck { Targets.overhead(microseconds: overhead) }
        var metTarget: Bool { check.met }

        var jsonLine: String {
            func format(_ value: Double) -> String { String(format: "%.3f", value) }
            return "{\"microseconds_per_request\": \(format(overhead)), \"bare_microseconds\": \(format(bare)), "
                + "\"middleware_microseconds\": \(format(middleware)), \"perform_microseconds\": \(format(perform)), "
                + "\"shared_perform_microseconds\": \(format(sharedPerform))}"
        }
    }

    /// Alternates the three loops, round after round, so that each sees the same machine.
    static func measure(requests: Int, rounds: Int) async throws -> Result {
        let clock = ManualClock.followingRealTime()
        let transport = BenchBackEnd(clock: clock, checksNotes: false)
        let service = RuntimeBench.service(transport: transport, clock: clock)
        _ = try await service.authenticate(with: GuestSignIn())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-overhead-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let contexts = try AppContexts(root: folder)
        let shared = RuntimeBench.service(
            transport: transport, clock: clock,
            sessionStore: contexts.standard.sharedSessionStore { (details: BenchDetails) in details.uid })
        _ = try await shared.authenticate(with: GuestSignIn())
        let middleware = service.credentialMiddleware
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/notes")
        let baseURL = RuntimeBench.baseURL
        let notes = OperationRequest(RuntimeBench.notes)
        let next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
            try await transport.send($0, body: $1, baseURL: $2, operationID: "listNotes")
        }
        var best = Result(bare: .infinity, middleware: .infinity, perform: .infinity, sharedPerform: .infinity)
        for round in 0...rounds {
            let bare = try await RuntimeBench.perRequest(requests) { _ = try await next(request, nil, baseURL) }
            let through = try await RuntimeBench.perRequest(requests) {
                _ = try await middleware.intercept(request, body: nil, baseURL: baseURL, operationID: "listNotes", next: next)
            }
            let perform = try await RuntimeBench.perRequest(requests) { _ = try await service.perform(notes) }
            let sharedPerform = try await RuntimeBench.perRequest(requests) { _ = try await shared.perform(notes) }
            guard round > 0 else { continue }  // round 0 warms up
            best.bare = min(best.bare, bare)
            best.middleware = min(best.middleware, through)
            best.perform = min(best.perform, perform)
            best.sharedPerform = min(best.sharedPerform, sharedPerform)
        }
        return best
    }
}
