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
    private var recorded = Counts()

    var counts: Counts { lock.withLock { recorded } }

    func register(
        _ task: Int, limits: ResponseLimits, head: CheckedContinuation<(HTTPResponse, HTTPBody.Length), any Error>,
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
        let (body, exceeded) = lock.withLock {
            () -> (AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation?, ResponseLimitExceeded?) in
            guard var waiter = waiters[dataTask.taskIdentifier] else { return (nil, nil) }
            waiter.received += data.count
            waiter.unread += data.count
            recorded.largestResponse = max(recorded.largestResponse, waiter.received)
            recorded.mostUnread = max(recorded.mostUnread, waiter.unread)
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
            // more of this response is kept.
            dataTask.cancel()
            body.finish(throwing: exceeded)
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
}
