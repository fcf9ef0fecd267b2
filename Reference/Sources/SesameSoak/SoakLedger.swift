import Foundation

/// Records how each soak request ended, from any task: each request should end exactly once.
final class SoakLedger: @unchecked Sendable {
    /// What the ledger holds at the end of a run.
    struct Summary: Sendable {
        var completedOnce = 0
        var lost = 0
        var duplicated = 0
        var successes = 0
        var wrongResponses = 0
        var errors: [String: Int] = [:]
        var untypedErrors: [String: Int] = [:]
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var endings: [UInt8]
    private var summary = Summary()
    /// Whether each `createNote` request ended in a success, by request id.
    private var writes: [Int: Bool] = [:]

    init(requests: Int) {
        endings = Array(repeating: 0, count: requests)
    }

    /// Records that request `id` ended with `outcome`.
    func record(_ id: Int, _ outcome: SoakOutcome) {
        lock.withLock {
            endings[id] = endings[id] &+ 1
            switch outcome {
            case .success: summary.successes += 1
            case .wrongResponse: summary.wrongResponses += 1
            case .typedError(let kind): summary.errors[kind, default: 0] += 1
            case .untypedError(let type): summary.untypedErrors[type, default: 0] += 1
            }
        }
    }

    /// Records how `createNote` request `id` ended: a success or not.
    func recordWrite(_ id: Int, succeeded: Bool) {
        lock.withLock { writes[id] = succeeded }
    }

    /// Whether `createNote` request `id` ended in a success; nil when it did not end or
    /// was no `createNote`.
    func writeSucceeded(_ id: Int) -> Bool? {
        lock.withLock { writes[id] }
    }

    /// Records an untyped error that a sign-in of the run's own threw.
    func recordSignInError(_ outcome: SoakOutcome) {
        guard case .untypedError(let type) = outcome else { return }
        lock.withLock { summary.untypedErrors["sign-in: " + type, default: 0] += 1 }
    }

    /// The counts so far: requests that ended once, never, or more than once.
    var counts: Summary {
        lock.withLock {
            var counts = summary
            for ending in endings {
                switch ending {
                case 0: counts.lost += 1
                case 1: counts.completedOnce += 1
                default: counts.duplicated += 1
                }
            }
            return counts
        }
    }
}

/// Lets the driver wait until every request of a wave has ended, or a timeout has passed.
final class WaveBarrier: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var remaining: Int
    private var expired = false
    private var waiter: CheckedContinuation<Bool, Never>?

    init(count: Int) {
        remaining = count
    }

    /// One request of the wave ended.
    func arrive() {
        lock.withLock {
            remaining -= 1
            if remaining == 0, let waiter {
                self.waiter = nil
                waiter.resume(returning: true)
            }
        }
    }

    /// Waits for the wave: true when every request ended, false when `timeout` passed first.
    func wait(timeout: Duration) async -> Bool {
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self?.expire()
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            lock.withLock {
                if remaining == 0 || expired {
                    continuation.resume(returning: remaining == 0)
                } else {
                    waiter = continuation
                }
            }
        }
    }

    private func expire() {
        lock.withLock {
            expired = true
            if let waiter {
                self.waiter = nil
                waiter.resume(returning: false)
            }
        }
    }
}
