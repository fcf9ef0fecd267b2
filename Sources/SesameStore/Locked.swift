import Foundation

/// A value guarded by a lock: every access goes through `withLock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
