import Foundation
import ReferenceSDKTestSupport

/// The figures of a soak run. A clean run (``problems`` empty) ended every request exactly
/// once with a success or a typed error, never let more refreshes through than the schema's
/// window, never sent a credential where it must not go, never reused a rotated refresh
/// token or replayed a write, never sent a write again after the back-end applied it (even
/// when its answer was lost), and ended in a state the back-end agrees with.
public struct SoakReport: Sendable {
    public var requests: Int
    public var concurrency: Int
    public var seed: UInt64
    /// Requests that ended exactly once.
    public var completedOnce: Int
    /// Requests that never ended (their wave stalled).
    public var lost: Int
    /// Requests that ended more than once.
    public var duplicated: Int
    public var successes: Int
    /// Successes whose content was not what the request asked for.
    public var wrongResponses: Int
    /// Typed errors, by type and case or code.
    public var errors: [String: Int]
    /// Errors of types the SDK does not document, by type (sign-ins included).
    public var untypedErrors: [String: Int]
    /// Refresh requests the back-end saw (including those that then failed in the transport).
    public var refreshes: Int
    /// Refresh requests beyond the schema's `maxRefreshes` within its window, per session,
    /// on the back-end's clock.
    public var windowViolations: Int
    /// Credentials sent to another origin or to an operation that needs none.
    public var credentialLeaks: Int
    /// Refreshes with an already rotated, or a never issued, refresh token.
    public var reusedRefreshTokens: Int
    /// Notes the back-end was asked to create twice.
    public var replayedWrites: Int
    /// `createNote` requests that reached the back-end after it had created their note.
    public var resentWrites: Int
    /// Notes created whose answer was lost on the way back (the fault `lost_responses`
    /// counts every operation whose answer was lost).
    public var lostWrites: Int
    /// Of those, the ones the client did not see fail, or the back-end did not create once.
    public var lostWritesMisreported: Int
    /// Guest sign-ins the back-end answered (the first, and one after each terminal failure).
    public var signIns: Int
    /// The faults injected, by kind.
    public var faults: [String: Int]
    /// Whether a sign-in failed `SignInSupervisor.attempts` times in a row.
    public var signInGaveUp: Bool
    /// Why the end state is not consistent; nil when it is.
    public var endStateProblem: String?
    /// Wall time of the requests, without the final check.
    public var seconds: Double

    init(
        configuration: SoakConfiguration, ledger: SoakLedger.Summary, tally: InMemoryBackEnd.Tally, windowViolations: Int,
        lostWrites: (count: Int, problems: Int), signInGaveUp: Bool, endStateProblem: String?, seconds: Double
    ) {
        requests = configuration.requests
        concurrency = configuration.concurrency
        seed = configuration.seed
        completedOnce = ledger.completedOnce
        lost = ledger.lost
        duplicated = ledger.duplicated
        successes = ledger.successes
        wrongResponses = ledger.wrongResponses
        errors = ledger.errors
        untypedErrors = ledger.untypedErrors
        refreshes = tally.refreshes
        self.windowViolations = windowViolations
        credentialLeaks = tally.credentialLeaks
        reusedRefreshTokens = tally.reusedRefreshTokens + tally.unknownRefreshTokens
        replayedWrites = tally.replayedWrites
        resentWrites = tally.resentWrites
        self.lostWrites = lostWrites.count
        lostWritesMisreported = lostWrites.problems
        signIns = tally.signIns
        faults = [
            "transport_errors": tally.transportErrors,
            "refresh_transient": tally.transientRefreshFailures,
            "refresh_terminal": tally.terminalRefreshFailures,
            "rejections": tally.injectedRejections,
            "redirects": tally.redirects,
            "delayed": tally.delayedRequests,
            "lost_responses": tally.lostResponses,
        ]
        self.signInGaveUp = signInGaveUp
        self.endStateProblem = endStateProblem
        self.seconds = seconds
    }

    /// All untyped errors.
    public var untyped: Int { untypedErrors.values.reduce(0, +) }

    /// Every check the run failed, in words; empty for a clean run.
    public var problems: [String] {
        var problems: [String] = []
        if completedOnce != requests { problems.append("\(requests - completedOnce) requests did not end exactly once") }
        if lost > 0 { problems.append("\(lost) requests lost") }
        if duplicated > 0 { problems.append("\(duplicated) requests ended more than once") }
        if untyped > 0 { problems.append("\(untyped) untyped errors: \(Self.list(untypedErrors))") }
        if wrongResponses > 0 { problems.append("\(wrongResponses) successes with the wrong content") }
        if windowViolations > 0 { problems.append("\(windowViolations) refreshes beyond the schema's window") }
        if credentialLeaks > 0 { problems.append("\(credentialLeaks) credentials sent where they must not go") }
        if reusedRefreshTokens > 0 { problems.append("\(reusedRefreshTokens) refreshes with a rotated or unknown refresh token") }
        if replayedWrites > 0 { problems.append("\(replayedWrites) notes created twice") }
        if resentWrites > 0 { problems.append("\(resentWrites) createNote requests sent again after the back-end applied them") }
        if lostWritesMisreported > 0 {
            problems.append("\(lostWritesMisreported) of \(lostWrites) notes whose answer was lost did not end in an error at the client")
        }
        if signInGaveUp { problems.append("a sign-in failed \(SignInSupervisor.attempts) times in a row") }
        if let endStateProblem { problems.append("end state: \(endStateProblem)") }
        return problems
    }

    /// The figures, one per line, then the errors by kind and the faults injected.
    public var summary: String {
        let figures: [(String, String)] = [
            ("requests", "\(requests)"), ("completed_once", "\(completedOnce)"), ("lost", "\(lost)"),
            ("duplicated", "\(duplicated)"), ("refreshes", "\(refreshes)"), ("window_violations", "\(windowViolations)"),
            ("untyped_errors", "\(untyped)"), ("successes", "\(successes)"), ("errors", "\(errors.values.reduce(0, +))"),
            ("wrong_responses", "\(wrongResponses)"), ("credential_leaks", "\(credentialLeaks)"),
            ("reused_refresh_tokens", "\(reusedRefreshTokens)"), ("replayed_writes", "\(replayedWrites)"),
            ("resent_writes", "\(resentWrites)"), ("lost_writes", "\(lostWrites)"), ("lost_writes_misreported", "\(lostWritesMisreported)"),
            ("sign_ins", "\(signIns)"), ("end_state", endStateProblem ?? "consistent"),
            ("seconds", String(format: "%.3f", seconds)),
        ]
        var lines = figures.map { $0.0.padding(toLength: 22, withPad: " ", startingAt: 0) + $0.1 }
        lines.append("errors by kind:  " + Self.list(errors))
        lines.append("faults injected: " + Self.list(faults))
        return lines.joined(separator: "\n")
    }

    /// The figures as one JSON object, keys sorted, on one line.
    public var jsonLine: String {
        let object: [String: Any] = [
            "requests": requests, "concurrency": concurrency, "seed": seed, "completed_once": completedOnce, "lost": lost,
            "duplicated": duplicated, "refreshes": refreshes, "window_violations": windowViolations,
            "untyped_errors": untyped, "successes": successes, "errors": errors, "wrong_responses": wrongResponses,
            "credential_leaks": credentialLeaks, "reused_refresh_tokens": reusedRefreshTokens,
            "replayed_writes": replayedWrites, "resent_writes": resentWrites, "lost_writes": lostWrites,
            "lost_writes_misreported": lostWritesMisreported, "sign_ins": signIns, "faults": faults,
            "end_state": endStateProblem ?? "consistent", "seconds": (seconds * 1000).rounded() / 1000,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private static func list(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
