import Foundation

#if canImport(FoundationNetworking)

/// The delegate queue of the runtime's `StreamingURLSessionTransport` and of the CLI's
/// discovery download on Linux: it runs each callback at once, on the thread that adds it,
/// instead of queueing it. Shared here, where both see it, with `package` access.
///
/// FoundationNetworking reads the socket with libcurl on the session's work queue and hands
/// each chunk it reads to the delegate queue with `addOperation`, with no back-pressure of its
/// own (pausing a transfer is not implemented there). With a queue that runs callbacks later,
/// the chunks waited in it whenever the delegate got less of the CPU than the work queue (a
/// loaded machine), outside every limit the delegate applies: gigabytes for an event line that
/// never ends (docs/runtime.md, "Response limits"). Run where they are added, the
/// chunks reach the delegate before libcurl reads the next one, so nothing waits anywhere but
/// in the transport's own buffer, which its limits bound; and the delegate's time is libcurl's,
/// so a delegate that runs slowly slows the reading, and TCP holds the server back.
///
/// What that asks of the delegate (the runtime's `StreamingDelegate`, the CLI's `DocumentDownload`): its callbacks run on URLSession's
/// work queue, so they must be short and must never call, from the callback or from what it
/// runs synchronously (a body stream's `onTermination`, which its `finish` runs), anything that
/// waits for that queue: `URLSessionTask.cancel()`, `resume()`, `suspend()` and `priority`, the
/// completion handler of an authentication challenge (FoundationNetworking cancels),
/// `URLSession.dataTask(with:)` and `invalidateAndCancel()` (the transport's `deinit`). The
/// delegate sends its cancels and its answer to a challenge to a queue of its own. Nothing here
/// ever waits.
package final class DirectDelegateQueue: OperationQueue, @unchecked Sendable {
    /// What the tests read: the most callbacks that were inside ``addOperation(_:)`` at once,
    /// and how many ran.
    package struct Counts: Sendable, Equatable {
        package var mostRunning = 0
        package var ran = 0
    }

    private let lock = NSLock()
    private var running = 0
    private var recorded = Counts()

    package var counts: Counts { lock.withLock { recorded } }

    override package init() {
        super.init()
        name = "Sesame.DirectDelegateQueue"
        // Only the block form of `addOperation` runs callbacks at once (the only one
        // FoundationNetworking 6.3.1 uses); anything added otherwise runs one at a time.
        maxConcurrentOperationCount = 1
    }

    /// Runs `block` now, on the calling thread.
    override package func addOperation(_ block: @escaping @Sendable () -> Void) {
        lock.withLock {
            running += 1
            recorded.mostRunning = max(recorded.mostRunning, running)
        }
        block()
        lock.withLock {
            running -= 1
            recorded.ran += 1
        }
    }
}
#endif
