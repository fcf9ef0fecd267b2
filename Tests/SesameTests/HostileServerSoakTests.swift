import Foundation
import Testing

/// The hostile-server suite's longer variant, for the soak (`make soak`, docs/testing.md):
/// every case of `HostileServerTests` (bodies, event lines, slow servers, heads, redirects and
/// status codes) run `SESAME_HOSTILE_SOAK` rounds in a row, one case at a time, with bodies of
/// 16 GiB instead of 4 and an endless event line that must reconnect 10 times instead of 2.
/// Each round asserts the same bounds as `make test` does: at most the limit and a chunk held
/// for a response, and the server stopped well before the end of each body. It runs only when
/// asked, as `make soak` asks:
///
///     SESAME_HOSTILE_SOAK=10 swift test --filter HostileServerSoakTests
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SESAME_HOSTILE_SOAK"] != nil), .serialized)
struct HostileServerSoakTests {
    /// How many rounds; nil (the suite does not run) unless `SESAME_HOSTILE_SOAK` is a number.
    static let rounds = ProcessInfo.processInfo.environment["SESAME_HOSTILE_SOAK"].flatMap { Int($0) }.map { max($0, 1) }

    /// Runs `body` once per round, saying which round it is (the expectations inside name no round).
    static func repeated(_ name: String, _ body: () async throws -> Void) async rethrows {
        let rounds = Self.rounds ?? 1
        for round in 1...rounds {
            print("hostile soak: \(name), round \(round) of \(rounds)")
            try await body()
        }
    }

    @Test func bodiesStopAtTheLimitRoundAfterRound() async throws {
        let suite = HostileServerTests()
        try await Self.repeated("bodies") {
            try await suite.aHugeOperationBodyWithoutLengthStopsAtTheLimit()
            try await suite.aHugeErrorBodyIsDroppedAtTheLimitAndTheStatusKept()
            try await suite.aHugeTokenResponseStopsAtTheLimitAndSignsNoOneIn()
            try await suite.aHugeRefreshResponseStopsAtTheLimit()
            try await suite.aHugeSignOutResponseStopsAtTheLimit()
            try await suite.aDeclaredHugeLengthIsRefusedFromItsHead()
            #if canImport(FoundationNetworking)
            try await suite.aHugeBodyToAStarvedDelegateStopsTheServerEarly()
            #endif
        }
    }

    @Test func endlessEventLinesAreCutRoundAfterRound() async throws {
        let suite = HostileServerTests()
        try await Self.repeated("events") {
            try await suite.anEndlessEventLineIsCutAndTheStreamReconnects()
            try await suite.anEventOneBytePastTheLimitFailsTheStream()
            #if canImport(FoundationNetworking)
            try await suite.anEndlessEventLineToAStarvedDelegateStopsTheServerEarly()
            #endif
        }
        // The figure docs/runtime.md reports ("Response limits"): the process's peak resident
        // memory after the event rounds, a measurement, not an assertion.
        print("hostile soak: events, VmHWM \(HostileServerTests.peakResidentMiB()) MiB")
    }

    @Test func slowServersTimeOutRoundAfterRound() async throws {
        let suite = HostileServerTests()
        try await Self.repeated("deadlines") {
            try await suite.aServerSendingAByteAtATimeTimesOut()
            try await suite.aSlowRefreshTimesOutAsATransientFailure()
        }
    }

    @Test func headsRedirectsAndStatusesRoundAfterRound() async throws {
        let suite = HostileServerTests()
        try await Self.repeated("heads, redirects and statuses") {
            try await suite.aHugeHeaderFieldIsATransportError()
            try await suite.aRedirectLoopEndsAfterTheMaximum()
            for (status, code) in [("599 Odd", 599), ("999 Odder", 999), ("418 I'm a teapot", 418), ("600 ", 600)] {
                try await suite.anOddErrorStatusKeepsItsCode(status: status, code: code)
            }
            try await suite.aStatusLineWithoutReasonIsATypedError()
        }
    }
}
