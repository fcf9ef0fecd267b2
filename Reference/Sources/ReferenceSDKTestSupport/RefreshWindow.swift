import Foundation

/// The schema's loop protection as the back-end sees it: at most `maxRefreshes` refresh
/// requests of one session within any `per` seconds.
public struct RefreshWindow: Sendable {
    public let maxRefreshes: Int
    public let per: TimeInterval

    /// A window of at most `maxRefreshes` refreshes per `per` seconds.
    public init(maxRefreshes: Int, per: TimeInterval) {
        self.maxRefreshes = maxRefreshes
        self.per = per
    }

    /// How many of `arrivals` (one session's refresh requests, in any order) came when
    /// `maxRefreshes` others had already come within the `per` seconds before: the
    /// runtime's rule, which forgets a refresh `per` seconds after it started.
    public func violations(in arrivals: [Date]) -> Int {
        let sorted = arrivals.sorted()
        var start = 0
        var violations = 0
        for (index, time) in sorted.enumerated() {
            while time.timeIntervalSince(sorted[start]) >= per { start += 1 }
            if index - start + 1 > maxRefreshes { violations += 1 }
        }
        return violations
    }
}
