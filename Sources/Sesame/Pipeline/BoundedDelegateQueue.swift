import Foundation

#if canImport(FoundationNetworking)

/// The delegate queue of ``StreamingURLSessionTransport``'s URLSession: a serial
/// `OperationQueue` that holds at most `capacity` callbacks waiting to run. Adding one more
/// waits until one has run, so that whoever adds it (on Linux, FoundationNetworking's work
/// queue, from inside libcurl's write callback) stops there: libcurl reads no further from the
/// socket, the kernel's buffers fill, and TCP's flow control holds the server back.
///
/// Without it FoundationNetworking hands each chunk libcurl reads to the delegate queue with
/// no back-pressure at all (`session.delegateQueue.addOperation`; pausing a transfer is not
/// implemented there): when the delegate queue gets less of the CPU than the work queue (a
/// loaded machine), the chunks pile up in it, outside any limit the delegate applies —
/// gigabytes of an endless event line (issue 29, docs/runtime.md, "Response limits").
///
/// While a request of the session is being cancelled, nothing waits: `URLSessionTask.cancel()`
/// needs the work queue, which libcurl's callback keeps while data keeps coming, so that a
/// cancel would otherwise wait as long as the server sends. Once the cancel has taken effect
/// (libcurl reads no more of that response), the capacity applies again (``beginDraining()``,
/// ``endDraining()``, called by ``StreamingDelegate/cancel(_:)``).
///
/// A callback added from the queue's own thread (a delegate method that makes URLSession
/// call back) never waits, as it could not be run before it returns. A wait that sees no
/// callback finish for `stall` ends anyway, so that a delegate that blocks on URLSession's work
/// queue can never deadlock with it: it costs one callback over the capacity, and only then.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    /// What the tests read: the most callbacks that were waiting at once (more than the
    /// capacity only while a cancel drains), and how many waits ended by `stall`.
    struct Counts: Sendable, Equatable {
        var mostPending = 0
        var stalls = 0
    }

    /// The most callbacks waiting to run (added and not finished).
    let capacity: Int
    private let stall: TimeInterval
    // Guards `pending` and `recorded`; waited on by `addOperation` while the queue is full.
    private let condition = NSCondition()
    private var pending = 0
    private var draining = 0
    /// How many callbacks have finished, so that a long wait tells a slow queue from a stuck one.
    private var finished = 0
    private var recorded = Counts()

    var counts: Counts { condition.withLock { recorded } }

    init(capacity: Int, stall: TimeInterval = 5) {
        self.capacity = max(1, capacity)
        self.stall = stall
        super.init()
        maxConcurrentOperationCount = 1
        name = "Sesame.StreamingURLSessionTransport.delegate"
        // A serial queue of its own gets a thread even when Dispatch's global pool (as many
        // threads as cores) is busy or blocked: the work queue may be waiting for it.
        underlyingQueue = DispatchQueue(label: "Sesame.StreamingURLSessionTransport.delegate")
    }

    /// Lets callbacks in without waiting until ``endDraining()``: a request is being cancelled.
    func beginDraining() {
        condition.withLock {
            draining += 1
            condition.broadcast()
        }
    }

    /// Ends one ``beginDraining()``: the cancel took effect.
    func endDraining() {
        condition.withLock { draining -= 1 }
    }

    /// Adds `block`, first waiting while `capacity` callbacks are waiting to run (unless
    /// called from this queue, or until nothing has run for `stall`).
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let onThisQueue = OperationQueue.current === self
        condition.lock()
        if !onThisQueue {
            var deadline = Date(timeIntervalSinceNow: stall)
            var seen = finished
            while pending >= capacity && draining == 0 {
                if condition.wait(until: deadline) { continue }
                // A callback finished since the last deadline: the queue moves, wait on.
                guard finished == seen else {
                    seen = finished
                    deadline = Date(timeIntervalSinceNow: stall)
                    continue
                }
                recorded.stalls += 1
                break
            }
        }
        pending += 1
        recorded.mostPending = max(recorded.mostPending, pending)
        condition.unlock()
        super.addOperation { [self] in
            block()
            condition.withLock {
                pending -= 1
                finished &+= 1
                condition.broadcast()
            }
        }
    }
}
#endif
