import ArgumentParser
import Foundation
import Sesame
import SesameTestSupport

/// `sesame-bench refresh-storm --requests N`: N concurrent requests with an expired
/// credential against the in-memory back-end; they must share one refresh.
struct RefreshStormBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh-storm",
        abstract: "Sends N concurrent requests with an expired credential and prints one JSON line.",
        discussion: """
            Prints {"requests": N, "succeeded": …, "refreshes": …, "seconds": …}: how many of the
            requests succeeded, how many refresh requests reached the back-end (the target is 1),
            and the wall time of the whole storm. Exits 1 when a target is missed.
            Example: swift run -c release sesame-bench refresh-storm --requests 10000
            """
    )

    @Option(help: "How many concurrent requests.")
    var requests = 10_000

    func validate() throws {
        guard requests >= 1 else { throw ValidationError("--requests must be at least 1") }
    }

    func run() async throws {
        let result = try await Self.measure(requests: requests)
        print(result.jsonLine)
        if !result.metTargets { throw ExitCode.failure }
    }

    struct Result: Sendable {
        var requests: Int
        var succeeded: Int
        var refreshes: Int
        var seconds: Double

        var metTargets: Bool { refreshes == 1 && succeeded == requests }

        var jsonLine: String {
            "{\"requests\": \(requests), \"succeeded\": \(succeeded), \"refreshes\": \(refreshes), \"seconds\": \(String(format: "%.6f", seconds))}"
        }
    }

    /// Signs in, moves the clock past the credential's expiry, then sends every request at once.
    static func measure(requests: Int) async throws -> Result {
        let clock = ManualClock.followingRealTime()
        let backEnd = BenchBackEnd(clock: clock)
        let service = RuntimeBench.service(transport: backEnd, clock: clock)
        _ = try await service.authenticate(with: GuestSignIn())
        clock.advance(by: backEnd.expiresIn + 60)
        let notes = OperationRequest(RuntimeBench.notes)
        let started = ContinuousClock.now
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<requests {
                group.addTask { (try? await service.perform(notes)) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let seconds = (ContinuousClock.now - started).seconds
        return Result(requests: requests, succeeded: succeeded, refreshes: backEnd.refreshes, seconds: seconds)
    }
}
