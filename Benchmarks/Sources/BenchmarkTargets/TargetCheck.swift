/// One target of the issues, checked against one measured figure.
///
/// Every benchmark of `sesame-bench` turns its figures into checks with the functions of
/// ``Targets``, so a threshold is written once; ``Verdict`` decides the exit status of
/// `sesame-bench all` (and `make bench`) from them.
public struct TargetCheck: Sendable, Equatable, CustomStringConvertible {
    /// What is checked and its threshold, as "events, 1000 × 2000 paced: every event once, in order".
    public var name: String
    /// The figure measured, as "0.933 s" or "2 refresh requests".
    public var measured: String
    /// Whether the figure meets the target.
    public var met: Bool

    public init(name: String, measured: String, met: Bool) {
        self.name = name
        self.measured = measured
        self.met = met
    }

    /// `name: measured  met` or `… MISSED`.
    public var description: String { "\(name): \(measured)  \(met ? "met" : "MISSED")" }
}

/// What a whole run of `sesame-bench all` says: met when every check is met.
public struct Verdict: Sendable, Equatable {
    public var checks: [TargetCheck]

    public init(_ checks: [TargetCheck]) {
        self.checks = checks
    }

    /// The checks whose target was missed, in the order they were made.
    public var missed: [TargetCheck] { checks.filter { !$0.met } }

    /// Whether every target was met. A run that checked nothing did not meet anything.
    public var passed: Bool { !checks.isEmpty && missed.isEmpty }

    /// The process's exit status: 0 when every target was met, 1 otherwise.
    public var exitStatus: Int32 { passed ? 0 : 1 }

    /// One line when every target was met; otherwise how many were missed and one line each.
    public var report: String {
        if checks.isEmpty { return "no target was checked" }
        let missed = missed
        if missed.isEmpty { return "all \(checks.count) targets met" }
        return (["MISSED \(missed.count) of \(checks.count) targets:"] + missed.map { "  \($0.name): \($0.measured)" })
            .joined(separator: "\n")
    }
}
