import Foundation
import Testing
@testable import Sesame

/// Every state × input of the refresh machine, written out as a table. Flights are plain
/// numbers (the refresh's id), so the rows need no task and no clock.
@Suite struct RefreshMachineTests {
    typealias Machine = RefreshMachine<UInt64>

    static let limits = Machine.Limits(maxRefreshes: 2, window: 30, firstBackoff: 8, maximumBackoff: 60)
    static let t0 = Date(timeIntervalSince1970: 1_000_000)

    static func error(_ kind: RefreshFailure.Kind, retryAfter: TimeInterval? = nil) -> RefreshError {
        RefreshError(
            failure: RefreshFailure(kind: kind, reason: "test"), underlying: SesameError.notAuthenticated,
            retryAfter: retryAfter)
    }

    /// The states a machine can be in when an input arrives, each reached through inputs.
    enum Start: CaseIterable {
        case idle, running, backingOff, retryAfter, windowFull

        /// The machine in this state at `t0`; refresh 1 (and 2 for a full window) ran.
        var machine: Machine {
            var machine = Machine(limits: RefreshMachineTests.limits)
            let t0 = RefreshMachineTests.t0
            func start() { _ = machine.refreshNeeded(credentialReplaced: false, automatic: true, now: t0) { $0 } }
            switch self {
            case .idle:
                break
            case .running:
                start()
            case .backingOff:
                start()
                _ = machine.refreshFinished(id: 1, outcome: .failed(RefreshMachineTests.error(.transient)), now: t0)
            case .retryAfter:
                start()
                _ = machine.refreshFinished(id: 1, outcome: .failed(RefreshMachineTests.error(.transient, retryAfter: 10)), now: t0)
            case .windowFull:
                start()
                _ = machine.refreshFinished(id: 1, outcome: .succeeded, now: t0)
                start()
                _ = machine.refreshFinished(id: 2, outcome: .succeeded, now: t0)
            }
            return machine
        }
    }

    enum Input: CaseIterable {
        case automatic, appAsks, replaced, automaticLater, succeeded, transient, transientRetryAfter, rejected,
            failed, unknownFlight, reset
    }

    /// An action or completion, reduced to what the table compares.
    enum Outcome: Hashable {
        case join(UInt64), useCurrent, started(UInt64), deferred(remaining: TimeInterval), limitReached
        case install, backOff(TimeInterval, retryAfter: Bool), reject, fail, discard, none

        init(_ action: Machine.RequestAction) {
            switch action {
            case .join(let flight): self = .join(flight)
            case .useCurrentCredential: self = .useCurrent
            case .started(let flight): self = .started(flight)
            case .deferred(_, let remaining, _): self = .deferred(remaining: remaining)
            case .limitReached: self = .limitReached
            }
        }

        init(_ action: Machine.CompletionAction) {
            switch action {
            case .install: self = .install
            case .backOff(let delay, let isRetryAfter): self = .backOff(delay, retryAfter: isRetryAfter)
            case .reject: self = .reject
            case .fail: self = .fail
            case .discard: self = .discard
            }
        }
    }

    static func apply(_ input: Input, to machine: inout Machine) -> Outcome {
        let current = machine.running?.id ?? 0
        switch input {
        case .automatic: return Outcome(machine.refreshNeeded(credentialReplaced: false, automatic: true, now: t0 + 5) { $0 })
        case .appAsks: return Outcome(machine.refreshNeeded(credentialReplaced: false, automatic: false, now: t0 + 5) { $0 })
        case .replaced: return Outcome(machine.refreshNeeded(credentialReplaced: true, automatic: true, now: t0 + 5) { $0 })
        case .automaticLater: return Outcome(machine.refreshNeeded(credentialReplaced: false, automatic: true, now: t0 + 31) { $0 })
        case .succeeded: return Outcome(machine.refreshFinished(id: current, outcome: .succeeded, now: t0 + 5))
        case .transient: return Outcome(machine.refreshFinished(id: current, outcome: .failed(error(.transient)), now: t0 + 5))
        case .transientRetryAfter:
            return Outcome(machine.refreshFinished(id: current, outcome: .failed(error(.transient, retryAfter: 20)), now: t0 + 5))
        case .rejected: return Outcome(machine.refreshFinished(id: current, outcome: .failed(error(.rejected)), now: t0 + 5))
        case .failed: return Outcome(machine.refreshFinished(id: current, outcome: .failed(error(.failed)), now: t0 + 5))
        case .unknownFlight: return Outcome(machine.refreshFinished(id: 99, outcome: .succeeded, now: t0 + 5))
        case .reset:
            machine.reset()
            return .none
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var start: Start
        var input: Input
        var outcome: Outcome
        /// The flight running afterwards, and the back-off's failure count afterwards.
        var running: UInt64?
        var failures: Int?
        var testDescription: String { "\(start) + \(input)" }
    }

    static func row(_ start: Start, _ input: Input, _ outcome: Outcome, running: UInt64? = nil, failures: Int? = nil) -> Row {
        Row(start: start, input: input, outcome: outcome, running: running, failures: failures)
    }

    static let table: [Row] = [
        // Idle: a refresh starts unless the credential was replaced; completions are stale.
        row(.idle, .automatic, .started(1), running: 1), row(.idle, .appAsks, .started(1), running: 1),
        row(.idle, .replaced, .useCurrent), row(.idle, .automaticLater, .started(1), running: 1),
        row(.idle, .succeeded, .discard), row(.idle, .transient, .discard), row(.idle, .transientRetryAfter, .discard),
        row(.idle, .rejected, .discard), row(.idle, .failed, .discard), row(.idle, .unknownFlight, .discard),
        row(.idle, .reset, .none),
        // Running: every request joins the flight, even one whose credential was replaced.
        row(.running, .automatic, .join(1), running: 1), row(.running, .appAsks, .join(1), running: 1),
        row(.running, .replaced, .join(1), running: 1), row(.running, .automaticLater, .join(1), running: 1),
        row(.running, .succeeded, .install), row(.running, .transient, .backOff(8, retryAfter: false), failures: 1),
        row(.running, .transientRetryAfter, .backOff(20, retryAfter: true), failures: 1),
        row(.running, .rejected, .reject), row(.running, .failed, .fail),
        row(.running, .unknownFlight, .discard, running: 1), row(.running, .reset, .none),
        // Exponential back-off (8 s from t0): automatic refreshes wait; the app's do not.
        row(.backingOff, .automatic, .deferred(remaining: 3), failures: 1),
        row(.backingOff, .appAsks, .started(2), running: 2, failures: 1),
        row(.backingOff, .replaced, .useCurrent, failures: 1),
        row(.backingOff, .automaticLater, .started(2), running: 2, failures: 1),
        row(.backingOff, .succeeded, .discard, failures: 1), row(.backingOff, .transient, .discard, failures: 1),
        row(.backingOff, .transientRetryAfter, .discard, failures: 1), row(.backingOff, .rejected, .discard, failures: 1),
        row(.backingOff, .failed, .discard, failures: 1), row(.backingOff, .unknownFlight, .discard, failures: 1),
        row(.backingOff, .reset, .none),
        // Retry-After (10 s from t0) defers every refresh until it passes.
        row(.retryAfter, .automatic, .deferred(remaining: 5), failures: 1),
        row(.retryAfter, .appAsks, .deferred(remaining: 5), failures: 1),
        row(.retryAfter, .replaced, .useCurrent, failures: 1),
        row(.retryAfter, .automaticLater, .started(2), running: 2, failures: 1),
        row(.retryAfter, .succeeded, .discard, failures: 1), row(.retryAfter, .transient, .discard, failures: 1),
        row(.retryAfter, .transientRetryAfter, .discard, failures: 1), row(.retryAfter, .rejected, .discard, failures: 1),
        row(.retryAfter, .failed, .discard, failures: 1), row(.retryAfter, .unknownFlight, .discard, failures: 1),
        row(.retryAfter, .reset, .none),
        // Two refreshes within 30 s: the window refuses a third until it slides.
        row(.windowFull, .automatic, .limitReached), row(.windowFull, .appAsks, .limitReached),
        row(.windowFull, .replaced, .useCurrent), row(.windowFull, .automaticLater, .started(3), running: 3),
        row(.windowFull, .succeeded, .discard), row(.windowFull, .transient, .discard),
        row(.windowFull, .transientRetryAfter, .discard), row(.windowFull, .rejected, .discard),
        row(.windowFull, .failed, .discard), row(.windowFull, .unknownFlight, .discard), row(.windowFull, .reset, .none),
    ]

    @Test func theTableCoversEveryStateAndInput() {
        let covered = Set(Self.table.map { "\($0.start) \($0.input)" })
        #expect(covered.count == Start.allCases.count * Input.allCases.count)
        #expect(Self.table.count == covered.count)
    }

    @Test(arguments: table)
    func row(_ row: Row) {
        var machine = row.start.machine
        let outcome = Self.apply(row.input, to: &machine)
        #expect(outcome == row.outcome)
        #expect(machine.running?.id == row.running)
        #expect(machine.backoff?.failures == row.failures)
    }

    @Test func aResetForgetsTheWindowTheBackOffAndTheFlight() {
        var machine = Start.windowFull.machine
        machine.reset()
        #expect(machine.history.isEmpty && machine.backoff == nil && machine.running == nil)
        #expect(Outcome(machine.refreshNeeded(credentialReplaced: false, automatic: true, now: Self.t0) { $0 }) == .started(3))
    }

    @Test func transientFailuresInARowDoubleTheBackOffAndASuccessEndsIt() {
        var machine = Machine(limits: Machine.Limits(maxRefreshes: 100, window: 30, firstBackoff: 1, maximumBackoff: 60))
        var now = Self.t0
        var delays: [TimeInterval] = []
        for _ in 1...4 {
            guard case .started(let id) = machine.refreshNeeded(credentialReplaced: false, automatic: true, now: now, start: { $0 })
            else {
                Issue.record("no refresh started at \(now)")
                return
            }
            if case .backOff(let delay, _) = machine.refreshFinished(id: id, outcome: .failed(Self.error(.transient)), now: now) {
                delays.append(delay)
                now += delay
            }
        }
        #expect(delays == [1, 2, 4, 8])
        guard case .started(let id) = machine.refreshNeeded(credentialReplaced: false, automatic: true, now: now, start: { $0 })
        else {
            Issue.record("no refresh after the back-off")
            return
        }
        #expect(machine.refreshFinished(id: id, outcome: .succeeded, now: now) == .install)
        #expect(machine.backoff == nil)
    }

    @Test func theExponentialBackOffIsCappedAtTheLimit() {
        let delays = (1...9).map { Machine.backoffDelay(failures: $0, first: 1, maximum: 60) }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(Machine.backoffDelay(failures: 10_000, first: 1, maximum: 60) == 60)
    }
}
