import Foundation
import HTTPTypes
import OpenAPIRuntime
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Routes URLSession's callbacks to the request that is waiting for them, and counts each
/// response's bytes against its ``ResponseLimits`` as they arrive (``StreamingURLSessionTransport``).
/// Redirects and authentication challenges are declined as ``RedirectRefusal`` declines them.
///
/// On Linux its callbacks run on URLSession's work queue (``DirectDelegateQueue``): they never
/// wait, and what waits for that queue (cancelling a task, declining a challenge) goes through
/// ``cancel(_:)``'s queue instead.
final class StreamingDelegate: RedirectRefusal, URLSessionDataDelegate, @unchecked Sendable {
    /// What the tests read: the most bytes one response delivered, the most that were received
    /// and not yet read at once, and the largest chunk URLSession handed over.
    struct Counts: Sendable, Equatable {
        var largestResponse = 0
        var mostUnread = 0
        var largestChunk = 0
    }

    private struct Waiter {
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        var body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
        var limits: ResponseLimits
        var received = 0
        var unread = 0
    }

    private let lock = NSLock()
    private var waiters: [Int: Waiter] = [:]
    private var recorded = Counts()
    /// Where ``cancel(_:)`` sends `URLSessionTask.cancel()`, which waits for the session's work
    /// queue: a serial queue of its own, so that cancels waiting for a busy work queue hold one
    /// thread (of Dispatch's overcommit pool) per transport, and none of its default pool.
    private let cancels = DispatchQueue(label: "Sesame.StreamingURLSessionTransport.cancel")

    var counts: Counts { lock.withLock { recorded } }

    /// For tests: runs before each chunk of a response still being read is counted, standing
    /// for a delegate that gets little of the CPU (a loaded machine). Chunks of a response
    /// already cut are dropped without it.
    let pacing: (@Sendable () -> Void)?

    init(pacing: (@Sendable () -> Void)? = nil) {
        self.pacing = pacing
    }

    func register(
        _ task: Int, limits: ResponseLimits, head: CheckedContinuation<HTTPURLResponse, any Error>,
        body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
    ) {
        lock.withLock { waiters[task] = Waiter(head: head, body: body, limits: limits) }
    }

    /// The body's reader took `count` bytes.
    func read(_ count: Int, of task: Int) {
        lock.withLock { waiters[task]?.unread -= count }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = lock.withLock { () -> CheckedContinuation<HTTPURLResponse, any Error>? in
            let head = waiters[dataTask.taskIdentifier]?.head
            waiters[dataTask.taskIdentifier]?.head = nil
            return head
        }
        guard let http = response as? HTTPURLResponse else {
            head?.resume(throwing: SesameError.decoding(operation: "response", reason: "not an HTTP response"))
            completionHandler(.cancel)
            return
        }
        // The response's head is built by the reader (``head(of:)``), not here: this callback
        // runs on URLSession's work queue on Linux, and does as little as it can there.
        head?.resume(returning: http)
        completionHandler(.allow)
    }

    /// The head of `response` as the transport returns it: status, header fields, and the
    /// body's length when `Content-Length` gives it.
    static func head(of response: HTTPURLResponse) -> (HTTPResponse, HTTPBody.Length) {
        var fields = HTTPFields()
        for (name, value) in response.allHeaderFields {
            if let text = name as? String, let name = HTTPField.Name(text), let value = value as? String {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        let length: HTTPBody.Length = response.expectedContentLength >= 0 ? .known(response.expectedContentLength) : .unknown
        return (HTTPResponse(status: .init(code: response.statusCode), headerFields: fields), length)
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
            // more of this response is kept (its waiter is gone, so what libcurl reads until
            // the cancel takes effect is dropped as it arrives).
            body.finish(throwing: exceeded)
            cancel(dataTask)
        } else {
            body.yield(ArraySlice(data))
        }
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiter = lock.withLock { waiters.removeValue(forKey: task.taskIdentifier) }
        if let error {
            waiter?.head?.resume(throwing: error)
            waiter?.body.finish(throwing: error)
        } else {
            waiter?.head?.resume(
                throwing: SesameError.decoding(operation: "response", reason: "the response ended before its head"))
            waiter?.body.finish()
        }
    }

    /// Declines the challenge as ``RedirectRefusal`` does, from ``cancel(_:)``'s queue:
    /// FoundationNetworking cancels the task when the handler is called, which waits for the
    /// work queue this callback may run on.
    override func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        cancels.async {
            super.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
        }
    }

    /// Cancels `task` from a queue of its own, never waiting: `URLSessionTask.cancel()` waits
    /// for the session's work queue, which the caller may be running on (on Linux, every
    /// callback of this delegate, and a body's end, which may follow one) or which libcurl may
    /// keep busy while data keeps coming. Chunks that arrive meanwhile for a response that was
    /// cut are dropped as they arrive.
    ///
    /// Cancel only a task whose response has not completed (``cancelIfLive(_:)``,
    /// ``abandon(_:)``): a cancel that lands while a transfer completes makes FoundationNetworking
    /// 6.3.1 stop the process (``RequestStart``).
    func cancel(_ task: URLSessionTask) {
        cancels.async { task.cancel() }
    }

    /// Cancels `task` if its response has not completed: the caller was cancelled.
    func cancelIfLive(_ task: URLSessionTask) {
        guard lock.withLock({ waiters[task.taskIdentifier] != nil }) else { return }
        cancel(task)
    }

    /// The body of `task` ended on the reader's side (dropped, or its reader cancelled, before
    /// the response completed): what still arrives for it is dropped, and the task is cancelled.
    /// A body read to its end, or cut at a limit, has no waiter left and cancels nothing; a task
    /// whose head has not arrived keeps its waiter, for the head to be answered.
    func abandon(_ task: URLSessionTask) {
        let live = lock.withLock { () -> Bool in
            guard let waiter = waiters[task.taskIdentifier], waiter.head == nil else { return false }
            waiters[task.taskIdentifier] = nil
            return true
        }
        if live { cancel(task) }
    }
}
