import Foundation
import HTTPTypes
import OpenAPIRuntime
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Routes URLSession's callbacks to the request that is waiting for them, and counts each
/// response's bytes against its ``ResponseLimits`` as they arrive (``StreamingURLSessionTransport``).
/// Redirects and authentication challenges are declined as ``RedirectRefusal`` declines them.
final class StreamingDelegate: RedirectRefusal, URLSessionDataDelegate, @unchecked Sendable {
    /// What the tests read: the most bytes one response delivered, and the most that were
    /// received and not yet read at once.
    struct Counts: Sendable, Equatable {
        var largestResponse = 0
        var mostUnread = 0
        var largestChunk = 0
    }

    private struct Waiter {
        var head: CheckedContinuation<(HTTPResponse, HTTPBody.Length), any Error>?
        var body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
        var limits: ResponseLimits
        var received = 0
        var unread = 0
    }

    private let lock = NSLock()
    private var waiters: [Int: Waiter] = [:]
    /// Tasks registered that have not completed, and those of them being cancelled.
    private var live: Set<Int> = []
    private var cancelling: Set<Int> = []
    #if canImport(FoundationNetworking)
    /// The session's delegate queue (Linux): at most a few chunks wait in it (``BoundedDelegateQueue``).
    let queue = BoundedDelegateQueue(capacity: StreamingDelegate.queueCapacity)
    /// How many of URLSession's callbacks (on Linux, one per chunk libcurl reads) may wait for
    /// the delegate at once: past it libcurl stops reading.
    static let queueCapacity = 16
    #endif
    private var recorded = Counts()
    /// Where ``cancel(_:)`` sends `URLSessionTask.cancel()`, which may wait for the work queue:
    /// a serial queue of its own, so that a waiting cancel never holds one of Dispatch's
    /// global threads, which the delegate queue may need to let the work queue go on.
    private let cancels = DispatchQueue(label: "Sesame.StreamingURLSessionTransport.cancel")

    var counts: Counts { lock.withLock { recorded } }

    /// For tests: runs on the delegate queue before each chunk of a response still being read
    /// is counted, standing for a delegate that gets little of the CPU (a loaded machine).
    /// Chunks of a cancelled response are dropped without it, as they cost next to nothing.
    let pacing: (@Sendable () -> Void)?

    init(pacing: (@Sendable () -> Void)? = nil) {
        self.pacing = pacing
    }

    func register(
        _ task: Int, limits: ResponseLimits, head: CheckedContinuation<(HTTPResponse, HTTPBody.Length), any Error>,
        body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
    ) {
        lock.withLock {
            waiters[task] = Waiter(head: head, body: body, limits: limits)
            live.insert(task)
        }
    }

    /// The body's reader took `count` bytes.
    func read(_ count: Int, of task: Int) {
        lock.withLock { waiters[task]?.unread -= count }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = lock.withLock { () -> CheckedContinuation<(HTTPResponse, HTTPBody.Length), any Error>? in
            let head = waiters[dataTask.taskIdentifier]?.head
            waiters[dataTask.taskIdentifier]?.head = nil
            return head
        }
        guard let http = response as? HTTPURLResponse else {
            head?.resume(throwing: SesameError.decoding(operation: "response", reason: "not an HTTP response"))
            completionHandler(.cancel)
            return
        }
        var fields = HTTPFields()
        for (name, value) in http.allHeaderFields {
            if let text = name as? String, let name = HTTPField.Name(text), let value = value as? String {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        let length: HTTPBody.Length = http.expectedContentLength >= 0 ? .known(http.expectedContentLength) : .unknown
        head?.resume(returning: (HTTPResponse(status: .init(code: http.statusCode), headerFields: fields), length))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if let pacing, lock.withLock({ waiters[dataTask.taskIdentifier] != nil }) { pacing() }
        let (body, exceeded) = lock.withLock {
            () -> (AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation?, ResponseLimitExceeded?) in
            guard var waiter = waiters[dataTask.taskIdentifier] else { return (nil, nil) }
            waiter.received += data.count
            waiter.unread += data.count
            recorded.largestResponse = max(recorded.largestResponse, waiter.received)
            recorded.mostUnread = max(recorded.mostUnread, waiter.unread)
            recorded.largestChunk = max(recorded.largestChunk, data.count)
            var exceeded: ResponseLimitExceeded?
            if let total = waiter.limits.total, waiter.received > total {
                exceeded = ResponseLimitExceeded(limit: total, unread: false)
            } else if waiter.unread > waiter.limits.unread {
                exceeded = ResponseLimitExceeded(limit: waiter.limits.unread, unread: true)
            }
            if exceeded != nil {
                waiters[dataTask.taskIdentifier] = nil
            } else {
                waiters[dataTask.taskIdentifier] = waiter
            }
            return (waiter.body, exceeded)
        }
        guard let body else { return }
        if let exceeded {
            // The chunk that passed the limit is dropped, the request cancelled: nothing
            // more of this response is kept. Cancelled from another queue: `cancel()` waits
            // for URLSession's work queue, which may be waiting for this queue
            // (``BoundedDelegateQueue``).
            cancel(dataTask)
            body.finish(throwing: exceeded)
        } else {
            body.yield(ArraySlice(data))
        }
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiter = lock.withLock {
            live.remove(task.taskIdentifier)
            return waiters.removeValue(forKey: task.taskIdentifier)
        }
        if let error {
            waiter?.head?.resume(throwing: error)
            waiter?.body.finish(throwing: error)
        } else {
            waiter?.head?.resume(
                throwing: SesameError.decoding(operation: "response", reason: "the response ended before its head"))
            waiter?.body.finish()
        }
    }

    /// Cancels `task` from a queue of its own (`cancels`), never waiting: `URLSessionTask.cancel()` waits
    /// for the session's work queue, which may be waiting for this delegate's queue. Until the
    /// cancel has taken effect, the queue lets every callback in
    /// (``BoundedDelegateQueue/beginDraining()``), so that libcurl's callback returns and the
    /// cancel reaches the work queue.
    func cancel(_ task: URLSessionTask) {
        let identifier = task.taskIdentifier
        let begins = lock.withLock { live.contains(identifier) && cancelling.insert(identifier).inserted }
        #if canImport(FoundationNetworking)
        if begins { queue.beginDraining() }
        #endif
        cancels.async { [self] in
            task.cancel()
            guard begins else { return }
            // FoundationNetworking's `cancel()` returns once the task is marked, and stops
            // libcurl's transfer in a block it queues on the task's work queue; `priority`
            // reads on that queue, after the block: once it returns, libcurl reads no more of
            // this response.
            _ = task.priority
            lock.withLock { _ = cancelling.remove(identifier) }
            #if canImport(FoundationNetworking)
            queue.endDraining()
            #endif
        }
    }
}
