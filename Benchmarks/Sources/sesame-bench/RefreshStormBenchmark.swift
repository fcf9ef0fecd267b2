import ArgumentParser
import BenchmarkTargets
import Foundation
@_spi(Generated) import Sesame
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// `sesame-bench refresh-storm --requests N`: N concurrent requests whose credential needs a
/// refresh, against the in-memory back-end; they must share one refresh. Two storms: the
/// credential expired on the client's clock (`expired`), and the back-end rejects a token
/// the clock still says is valid, answering every request 401 `invalid_token` (`401`).
struct RefreshStormBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh-storm",
        abstract: "Sends N concurrent requests that need a refresh (expired, then rejected with 401) and prints one JSON line each.",
        discussion: """
            Prints {"variant": …, "requests": N, "succeeded": …, "refresh_requests": …, "refreshes": …, \
            "seconds": …} for each storm: `expired` (the clock moved past the credential's expiry, \
            so the SDK refreshes before sending) and `401` (the back-end revoked the access token; \
            the clock says it is valid, so every request is sent, rejected, and waits for the \
            refresh before being retried). `refresh_requests` counts every refresh request that \
            reached the back-end, granted or not (the target is 1), `refreshes` those it granted; \
            `seconds` is the wall time of the whole storm. Exits 1, naming them, when a target is \
            missed: exactly 1 refresh request, every request succeeded.
            Example: swift run -c release sesame-bench refresh-storm --requests 10000
            """
    )

    @Option(help: "How many concurrent requests.")
    var requests = 10_000

    @Option(help: "Which storm: expired, 401 or both.")
    var variant = "both"

    func validate() throws {
        guard requests >= 1 else { throw ValidationError("--requests must be at least 1") }
        guard ["expired", "401", "both"].contains(variant) else { throw ValidationError("--variant must be expired, 401 or both") }
    }

    func run() async throws {
        let variants: [Variant] = variant == "both" ? Variant.allCases : [Variant(rawValue: variant)!]
        var checks: [TargetCheck] = []
        for variant in variants {
            let result = try await Self.measure(requests: requests, variant: variant)
            print(result.jsonLine)
            checks += result.checks
        }
        let verdict = Verdict(checks)
        if !verdict.passed {
            FileHandle.standardError.write(Data("\(verdict.report)\n".utf8))
            throw ExitCode(verdict.exitStatus)
        }
    }

    /// What makes the credential need a refresh.
    enum Variant: String, CaseIterable, Sendable {
        /// The clock moved past the credential's expiry: the SDK refreshes before sending.
        case expired
        /// The back-end revoked the access token while the clock says it is valid: every
        /// request is sent and rejected with 401 `invalid_token`.
        case rejected = "401"
    }

    struct Result: Sendable {
        var variant: Variant
        var requests: Int
        var succeeded: Int
        /// Refresh requests that reached the back-end, granted or not.
        var refreshRequests: Int
        /// Refreshes the back-end granted.
        var refreshes: Int
        var seconds: Double

        var checks: [TargetCheck] {
            Targets.refreshStorm(variant: variant.rawValue, requests: requests, succeeded: succeeded, refreshRequests: refreshRequests)
        }

        var jsonLine: String {
            "{\"variant\": \"\(variant.rawValue)\", \"requests\": \(requests), \"succeeded\": \(succeeded), "
                + "\"refresh_requests\": \(refreshRequests), \"refreshes\": \(refreshes), \"seconds\": \(String(format: "%.6f", seconds))}"
        }
    }

    /// Signs in, makes the credential need a refresh (`variant`), then sends every request at once.
    static func measure(requests: Int, variant: Variant) async throws -> Result {
        let clock = ManualClock.followingRealTime()
        let backEnd = BenchBackEnd(clock: clock)
        let service = RuntimeBench.service(transport: backEnd, clock: clock)
        _ = try await service.authenticate(with: GuestSignIn())
        switch variant {
        case .expired: clock.advance(by: backEnd.expiresIn + 60)
        case .rejected: backEnd.revokeAccessTokens()
        }
        let notes = OperationRequest(RuntimeBench.notes)
        let started = ContinuousClock.now
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<requests {
                group.addTask { (try? await service.perform(notes)) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let seconds = (ContinuousClock.now - started).seconds
        return Result(
            variant: variant, requests: requests, succeeded: succeeded, refreshRequests: backEnd.refreshRequests,
            refreshes: backEnd.refreshes, seconds: seconds)
    }
}
