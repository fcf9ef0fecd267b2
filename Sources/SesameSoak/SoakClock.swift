import Foundation

/// The virtual wall clock that the service and the back-end share: it moves only when the
/// driver moves it, between waves of requests.
final class SoakClock: @unchecked Sendable {
    // Guarded by `lock`: the service reads the time from any task.
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    var now: Date { lock.withLock { current } }

    func advance(seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}
