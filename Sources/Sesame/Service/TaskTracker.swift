/// The tasks a service started and has not seen finish, so that it can cancel them all when
/// it goes away. A task removes itself when it finishes (`finished(_:)`).
struct TaskTracker: Sendable {
    private var cancellers: [UInt64: @Sendable () -> Void] = [:]
    private var count: UInt64 = 0

    /// Tracks a task numbered by ``nextID()``.
    mutating func track<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>, id: UInt64) {
        cancellers[id] = { task.cancel() }
    }

    /// A number for the next task, given before it starts so that the task can name itself.
    mutating func nextID() -> UInt64 {
        count += 1
        return count
    }

    /// Forgets a task that finished.
    mutating func finished(_ id: UInt64) {
        cancellers[id] = nil
    }

    /// The tasks still running.
    var running: Int { cancellers.count }

    /// Cancels every task still running.
    func cancelAll() {
        for cancel in cancellers.values { cancel() }
    }
}
