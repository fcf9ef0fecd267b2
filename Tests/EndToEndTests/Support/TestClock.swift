import Foundation

/// The client's clock: a date that stands still unless a test moves it, injected as the
/// service configuration's `now`.
final class TestClock: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) {
        current = start
    }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}
