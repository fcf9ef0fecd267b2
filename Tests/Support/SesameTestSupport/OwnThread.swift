import Foundation

/// Runs `body` on a thread of its own and waits for it without holding one of the threads of
/// Swift's cooperative pool. Blocking work (waiting for a child process, sleeping before a
/// kill) must not run on that pool: on a 2-core machine it has two threads, and a test
/// holding them stalls every other test's tasks, the in-process servers' included.
///
/// `body` runs outside the test's task, so it must not record issues (`#expect`): return
/// what the test checks afterwards.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        // As the `sesame` CLI's: generating the deepest schema the format allows (64
        // levels) needs more than 8 MiB of stack in a debug build (docs/format.md, "Depth").
        thread.stackSize = 64 << 20
        thread.start()
    }
}
