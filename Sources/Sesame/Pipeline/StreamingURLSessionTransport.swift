import Foundation
import HTTPTypes
import OpenAPIRuntime
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession transport that hands the response body over as it arrives, for the
/// server-sent-events stream. `URLSessionTransport` buffers whole bodies outside Apple
/// platforms, so a stream that stays open would deliver nothing; this one yields each
/// chunk URLSession receives. Like ``OpenAPIURLSession/URLSessionTransport/notFollowingRedirects`` it never
/// follows a redirect itself and declines HTTP authentication challenges.
public final class StreamingURLSessionTransport: ClientTransport, @unchecked Sendable {
    // `session` is immutable after init; `delegate` guards its own state with a lock.
    private let session: URLSession
    private let delegate: StreamingDelegate

    /// Creates a transport with its own URLSession.
    public init(configuration: URLSessionConfiguration = .default) {
        let delegate = StreamingDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends the request and returns as soon as the response head arrives; the body
    /// streams. Cancelling the caller's task, or dropping the body, cancels the request.
    /// - Throws: the URLSession error when the request fails before a response arrives.
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var urlRequest = try Self.urlRequest(for: request, baseURL: baseURL)
        if let body { urlRequest.httpBody = try await Data(collecting: body, upTo: 16 * 1024 * 1024) }
        let (chunks, chunkContinuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        let task = session.dataTask(with: urlRequest)
        chunkContinuation.onTermination = { _ in task.cancel() }
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (headContinuation: CheckedContinuation<HTTPResponse, any Error>) in
                delegate.register(task.taskIdentifier, head: headContinuation, body: chunkContinuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        return (response, HTTPBody(chunks, length: .unknown, iterationBehavior: .single))
    }

    static func urlRequest(for request: HTTPRequest, baseURL: URL) throws -> URLRequest {
        let path = request.path ?? "/"
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + path) else {
            throw SesameError.encoding(reason: "the request path does not make a URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.canonicalName)
        }
        return urlRequest
    }
}

/// Routes URLSession's callbacks to the request that is waiting for them.
/// Redirects and authentication challenges are declined as ``RedirectRefusal`` declines them.
private final class StreamingDelegate: RedirectRefusal, URLSessionDataDelegate, @unchecked Sendable {
    private struct Waiter {
        var head: CheckedContinuation<HTTPResponse, any Error>?
        var body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
    }

    private let lock = NSLock()
    private var waiters: [Int: Waiter] = [:]

    func register(
        _ task: Int, head: CheckedContinuation<HTTPResponse, any Error>,
        body: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.Continuation
    ) {
        lock.withLock { waiters[task] = Waiter(head: head, body: body) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = lock.withLock { () -> CheckedContinuation<HTTPResponse, any Error>? in
            let head = waiters[dataTask.taskIdentifier]?.head
            waiters[dataTask.taskIdentifier]?.head = nil
            return head
        }
        guard let http = response as? HTTPURLResponse else {
            head?.resume(throwing: SesameError.decoding(operation: "events", reason: "not an HTTP response"))
            completionHandler(.cancel)
            return
        }
        var fields = HTTPFields()
        for (name, value) in http.allHeaderFields {
            if let text = name as? String, let name = HTTPField.Name(text), let value = value as? String {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        head?.resume(returning: HTTPResponse(status: .init(code: http.statusCode), headerFields: fields))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let body = lock.withLock { waiters[dataTask.taskIdentifier]?.body }
        body?.yield(ArraySlice(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiter = lock.withLock { waiters.removeValue(forKey: task.taskIdentifier) }
        if let error {
            waiter?.head?.resume(throwing: error)
            waiter?.body.finish(throwing: error)
        } else {
            waiter?.head?.resume(throwing: SesameError.decoding(operation: "events", reason: "the response ended before its head"))
            waiter?.body.finish()
        }
    }
}
