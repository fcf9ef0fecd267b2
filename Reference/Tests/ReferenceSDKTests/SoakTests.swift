import Foundation
import ReferenceSDK
import ReferenceSDKTestSupport
import Sesame
@testable import SesameSoak
import Testing

/// The soak (Reference/Sources/SesameSoak) at a small scale: a few thousand requests through the
/// generated SDK and the fault-injecting back-end, with fault rates high enough that every
/// kind of fault happens, for fixed seeds. scripts/tsan.sh runs it under ThreadSanitizer.
@Suite struct SoakTests {
    /// Well above `FaultRates.standard` for refreshes, rejections and redirects, so that a
    /// few thousand requests meet every fault several times.
    static let faults = FaultRates(
        transportError: 0.10, refreshTransient: 0.2, refreshTerminal: 0.2, rejection: 0.03,
        redirect: 0.02, latency: 0.25, maximumLatency: .milliseconds(1), lostResponse: 0.03)
    static let requests = 3000

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyRequestEndsExactlyOnceWithASuccessOrATypedError(seed: UInt64) async {
        let report = await Self.soak(seed: seed, faults: Self.faults, secondsPerRequest: 0.2)
        Self.expectClean(report)
        // The faults really happened, and the paths they force really ran.
        for (kind, count) in report.faults {
            #expect(count > 0, "no \(kind) injected: \(report.summary)")
        }
        #expect(report.refreshes > 0)
        #expect(report.signIns > 1, "no sign-in after a terminal refresh failure: \(report.summary)")
        #expect(report.successes > Self.requests / 2, "\(report.summary)")
        #expect(report.errors["SesameError.transport", default: 0] > 0, "\(report.summary)")
        #expect(report.lostWrites > 0, "no note lost its answer: \(report.summary)")
        #expect(report.resentWrites == 0)
        #expect(report.lostWritesMisreported == 0)
    }

    /// A note the back-end created but whose answer was lost: the client gets a transport
    /// error and the SDK does not send the request again (the back-end received it once). The
    /// back-end's count does see a write sent again, here by the app itself.
    @Test func aWriteWhoseAnswerIsLostIsNotSentAgain() async throws {
        let backEnd = InMemoryBackEnd(baseURL: SoakDriver.baseURL, client: SoakDriver.client, now: { Date() })
        let service = AuthenticationService<ReferenceSDKSchema>(
            configuration: .init(
                baseURL: SoakDriver.baseURL, client: SoakDriver.client, transport: backEnd, receivesServerEvents: false))
        _ = try await service.authenticate(with: SingleStepMethod.guest)
        var faults = FaultRates.none
        faults.lostResponse = 1
        await backEnd.setFaults(faults)
        await #expect(throws: SesameError.self) { try await service.createNote(NewNote(text: "once")) }
        #expect(await backEnd.created("once"))
        #expect(await backEnd.lostWrites == ["once"])
        #expect(await backEnd.received.filter { $0.route == "POST /notes" }.count == 1)
        #expect(await backEnd.tally.resentWrites == 0)
        #expect(await backEnd.tally.lostResponses == 1)

        await backEnd.setFaults(.none)
        _ = try await service.createNote(NewNote(text: "once"))
        #expect(await backEnd.tally.resentWrites == 1)
        #expect(await backEnd.tally.replayedWrites == 1)
    }

    /// One rejection in five, on a slow clock: refreshes press on the schema's window, the
    /// runtime refuses the excess, and the back-end must still see none beyond it.
    @Test func aStormOfRejectionsNeverGetsMoreRefreshesThanTheWindowAllows() async {
        var faults = Self.faults
        faults.rejection = 0.2
        let report = await Self.soak(seed: 4, faults: faults, secondsPerRequest: 0.02)
        Self.expectClean(report)
        #expect(report.errors["SesameError.excessiveRefresh", default: 0] > 0, "\(report.summary)")
    }

    static func soak(seed: UInt64, faults: FaultRates, secondsPerRequest: Double) async -> SoakReport {
        await SoakDriver(
            configuration: SoakConfiguration(
                requests: requests, concurrency: 64, seed: seed, faults: faults,
                secondsPerRequest: secondsPerRequest, tokenLifetime: 75, stallTimeout: .seconds(300))
        ).run()
    }

    /// Every request ended exactly once with a success or a typed error, and every other check held.
    static func expectClean(_ report: SoakReport) {
        #expect(report.problems == [], "\(report.summary)")
        #expect(report.completedOnce == requests)
        #expect(report.lost == 0)
        #expect(report.duplicated == 0)
        #expect(report.untyped == 0)
        #expect(report.windowViolations == 0)
        #expect(report.endStateProblem == nil)
    }

    @Test func theWindowCountsEachRefreshBeyondTheLimitAsTheRuntimeDoes() {
        let window = RefreshWindow(maxRefreshes: 2, per: 30)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }
        #expect(window.violations(in: [at(0), at(10), at(20)]) == 1)
        #expect(window.violations(in: [at(20), at(0), at(10), at(25)]) == 2)
        // The runtime forgets a refresh exactly `per` seconds after it started.
        #expect(window.violations(in: [at(0), at(10), at(30)]) == 0)
        #expect(window.violations(in: [at(0), at(10), at(29.9)]) == 1)
        #expect(window.violations(in: []) == 0)
    }

    @Test func theLedgerCountsRequestsEndedNeverOnceAndTwice() {
        let ledger = SoakLedger(requests: 4)
        ledger.record(0, .success)
        ledger.record(1, .typedError("SesameError.transport"))
        ledger.record(1, .success)
        ledger.record(2, .untypedError("Swift.CancellationError"))
        let counts = ledger.counts
        #expect(counts.completedOnce == 2)
        #expect(counts.duplicated == 1)
        #expect(counts.lost == 1)
        #expect(counts.successes == 2)
        #expect(counts.errors == ["SesameError.transport": 1])
        #expect(counts.untypedErrors == ["Swift.CancellationError": 1])
    }
}
