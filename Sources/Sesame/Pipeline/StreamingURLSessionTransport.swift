import Foundation
import HTTPTypes
import OpenAPIRuntime
import SesameDescription
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession transport that hands the response body over as it arrives and never holds
/// more of it than the runtime's limits: the default transport of
/// ``AuthenticationServiceConfiguration``, on every platform.
///
/// `URLSessionTransport` buffers whole bodies outside Apple platforms, before anyone can
/// apply a limit: a 1 GiB body with no `Content-Length` takes 1 GiB there, and a stream that
/// stays open (server-sent events) delivers nothing. This transport yields each chunk
/// URLSession receives and counts them as they arrive: once a response passes the limits of
/// the request (for the service's requests, its `maximumResponseSize`; otherwise
/// `maximumBufferedBytes`), it cancels the request and the body fails, so that memory stays
/// bounded on Linux and on Apple platforms alike, however slowly the body is read. On Linux,
/// where FoundationNetworking has no back-pressure of its own, its URLSession hands each chunk
/// to the transport as libcurl reads it, never queueing it (`DirectDelegateQueue`, internal), so that
/// no chunk waits outside those limits however little of the CPU the reader gets.
///
/// It never follows a redirect itself (the pipeline's ``CredentialMiddleware`` does, sending the
/// credential only to the back-end's origin) and declines HTTP authentication challenges:
/// give it (`StreamingURLSessionTransport.shared`) to an OpenAPI-generated client that uses
/// ``AuthenticationService/credentialMiddleware``. swift-openapi-urlsession's
/// `URLSessionTransport()` uses `URLSession.shared`, which follows redirects with the original
/// header fields: on Linux it sends the credential to whatever origin the redirect names. One limit it cannot apply:
/// FoundationNetworking (Linux) keeps the body of a 301–308 response to itself until the
/// response ends, before it asks whether to follow it (docs/runtime.md, "Response limits").
public final class StreamingURLSessionTransport: ClientTransport, @unchecked Sendable {
    // `session` and `limit` are immutable after init; `delegate` guards its state with a lock.
    let session: URLSession
    private let delegate: StreamingDelegate
    private let limit: Int

    /// The transport of ``AuthenticationServiceConfiguration``'s default: one URLSession
    /// shared by every service that does not bring its own transport.
    public static let shared = StreamingURLSessionTransport()

    /// Creates a transport with its own URLSession.
    ///
    /// The session never uses a URL cache, whatever `configuration` says (a copy of it is used,
    /// with `urlCache` nil): the responses it carries hold tokens and user data, which a cache
    /// would keep (FoundationNetworking's default, `URLCache.shared`, writes to disk), and on
    /// Linux the cache's lookup, made as each task starts, was seen to let a cancel land after
    /// the task's end, which stops the process (docs/runtime.md, "Cancelling a request").
    /// - Parameters:
    ///   - configuration: the URLSession's configuration.
    ///   - maximumBufferedBytes: for requests that the service does not send (an OpenAPI
    ///     client's), the most bytes of a response received and not read yet; past it the
    ///     request is cancelled and its body fails. The service's own requests use its
    ///     `maximumResponseSize` instead.
    public convenience init(configuration: URLSessionConfiguration = .default, maximumBufferedBytes: Int = 8 << 20) {
        self.init(configuration: configuration, maximumBufferedBytes: maximumBufferedBytes, pacing: nil)
    }

    /// For tests: `pacing` runs before each chunk of a response still being read
    /// (``StreamingDelegate``).
    init(configuration: URLSessionConfiguration, maximumBufferedBytes: Int, pacing: (@Sendable () -> Void)?) {
        let delegate = StreamingDelegate(pacing: pacing)
        self.delegate = delegate
        self.limit = max(1, maximumBufferedBytes)
        #if canImport(FoundationNetworking)
        let queue: OperationQueue? = DirectDelegateQueue()
        #else
        let queue: OperationQueue? = nil
        #endif
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Byte counts of this transport's responses, for tests: the most bytes one response
    /// delivered, and the most that were waiting to be read at once.
    var counts: StreamingDelegate.Counts { delegate.counts }

    /// Sends the request and returns as soon as the response head arrives; the body
    /// streams. Cancelling the caller's task, or dropping the body, cancels the request; a
    /// caller cancelled before the request starts gets `CancellationError` and nothing is sent.
    /// - Throws: the URLSession error when the request fails before a response arrives.
    ///   The body fails with the URLSession error when the connection fails, and with a
    ///   limit error once the response passes the request's limits.
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        // A cancelled caller's request is never sent (``RequestStart``).
        try Task.checkCancellation()
        var urlRequest = try Self.urlRequest(for: request, baseURL: baseURL)
        if let body { urlRequest.httpBody = try await Data(collecting: body, upTo: 16 * 1024 * 1024) }
        let limits = ResponseLimits.current ?? ResponseLimits(total: nil, unread: limit)
        let (chunks, chunkContinuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        let task = session.dataTask(with: urlRequest)
        let delegate = self.delegate
        chunkContinuation.onTermination = { _ in delegate.abandon(task) }
        let identifier = task.taskIdentifier
        let start = RequestStart()
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (headContinuation: CheckedContinuation<HTTPURLResponse, any Error>) in
                let started = start.begin {
                    delegate.register(identifier, limits: limits, head: headContinuation, body: chunkContinuation)
                }
                if started {
                    task.resume()
                } else {
                    // Cancelled before it started: the task never runs, so its cancel races no
                    // transfer (it only takes the task out of the session).
                    headContinuation.resume(throwing: CancellationError())
                    delegate.cancel(task)
                }
            }
        } onCancel: {
            if start.cancel() { delegate.cancelIfLive(task) }
        }
        let (response, length) = StreamingDelegate.head(of: head)
        let counted = CountedChunks(chunks: chunks) { delegate.read($0, of: identifier) }
        return (response, HTTPBody(counted, length: length, iterationBehavior: .single))
    }

    /// The URL this transport sends `request` to: `baseURL` without its trailing `/`, then
    /// the request's path and query.
    static func url(of request: HTTPRequest, baseURL: URL) -> URL? {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + (request.path ?? "/"))
    }

    static func urlRequest(for request: HTTPRequest, baseURL: URL) throws -> URLRequest {
        guard let url = url(of: request, baseURL: baseURL) else {
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

/// A body's chunks that tell the transport as each is read, so that it knows how many
/// bytes wait unread.
struct CountedChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let chunks: AsyncThrowingStream<ArraySlice<UInt8>, any Error>
    let onRead: @Sendable (Int) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.AsyncIterator
        let onRead: @Sendable (Int) -> Void

        mutating func next() async throws -> ArraySlice<UInt8>? {
            let chunk = try await base.next()
            if let chunk { onRead(chunk.count) }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: chunks.makeAsyncIterator(), onRead: onRead)
    }
}
