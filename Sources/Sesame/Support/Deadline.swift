import Foundation

/// An overall time limit on a piece of work, on the real clock: URLSession's own timeouts
/// restart with every byte, so a server that sends one byte every 10 s would otherwise hold
/// a call for as long as it likes.
enum Deadline {
    /// The result of `work`, or, once `limit` has passed, `work` cancelled and
    /// ``SesameError/transport(operation:reason:)`` thrown whose reason says it timed out.
    /// - Throws: what `work` throws, or the timeout; `CancellationError` when the caller is
    ///   cancelled.
    static func run<Value: Sendable>(
        within limit: Duration, operation: String, what: String,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            if let value = try await group.next() ?? nil { return value }
            throw SesameError.transport(operation: operation, reason: timeoutReason(what, limit))
        }
    }

    /// The reason of a timeout error: "timed out: <what> took longer than <limit>".
    static func timeoutReason(_ what: String, _ limit: Duration) -> String {
        "timed out: \(what) took longer than \(limit.timeInterval) s"
    }
}
