import Foundation

/// Whether a request of ``StreamingURLSessionTransport`` was started or its caller cancelled
/// first, decided once under a lock, so that a cancelled caller's task is never started and a
/// started one is cancelled.
///
/// Why it matters: a `URLSessionTask.cancel()` that lands while the transfer completes makes
/// FoundationNetworking 6.3.1 stop the process ("Trying to access a behaviour for a task that
/// in not in the registry"), and the transport sends its cancels from a queue of its own
/// (``StreamingDelegate/cancel(_:)``), which a task started meanwhile could race. A request whose
/// caller was cancelled before it started is therefore never started at all.
final class RequestStart: @unchecked Sendable {
    private enum State {
        case waiting
        case started
        case cancelled
    }

    // Guards `state`.
    private let lock = NSLock()
    private var state = State.waiting

    /// Runs `start` (under the lock) unless the caller was cancelled first.
    /// - Returns: whether `start` ran.
    func begin(_ start: () -> Void) -> Bool {
        lock.withLock {
            guard case .waiting = state else { return false }
            start()
            state = .started
            return true
        }
    }

    /// The caller was cancelled.
    /// - Returns: whether the request had started (it then needs cancelling).
    func cancel() -> Bool {
        lock.withLock {
            switch state {
            case .waiting:
                state = .cancelled
                return false
            case .started:
                return true
            case .cancelled:
                return false
            }
        }
    }
}
