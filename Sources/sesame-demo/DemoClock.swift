import Foundation

/// The clock the app and the back-end both read in the demo: real time, plus whatever the
/// demo fast-forwards, so that an hour-long token can expire in a second.
final class DemoClock: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    var now: Date { lock.withLock { Date().addingTimeInterval(offset) } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { offset += seconds }
    }
}
