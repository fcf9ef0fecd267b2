import Foundation

/// A wall clock that moves only when its owner says so, injected as a service's or a
/// back-end's `now`. It either stands still at a date (tests, the soak) or follows real time
/// plus whatever it was advanced by (the demo and the benchmarks, so that an hour-long token
/// can expire in a second).
public final class ManualClock: @unchecked Sendable {
    // Guarded by `lock`: services read the time from any task.
    private let lock = NSLock()
    /// The date the clock stands at; nil when it follows real time.
    private let start: Date?
    private var offset: TimeInterval = 0

    /// A clock that stands still at `start` until ``advance(by:)`` moves it.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.start = start
    }

    private init(followingRealTime: Void) {
        start = nil
    }

    /// A clock that reads real time, plus whatever ``advance(by:)`` added.
    public static func followingRealTime() -> ManualClock {
        ManualClock(followingRealTime: ())
    }

    /// The clock's current date.
    public var now: Date {
        let offset: TimeInterval = lock.withLock { self.offset }
        return (start ?? Date()).addingTimeInterval(offset)
    }

    /// Moves the clock forward (backward for a negative value) by `seconds`.
    public func advance(by seconds: TimeInterval) {
        lock.withLock { offset += seconds }
    }
}
