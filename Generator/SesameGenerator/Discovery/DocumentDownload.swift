import Foundation
import SesameDescription

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET of a discovery document, bounded by construction: the body is counted as it
/// arrives and the task cancelled as soon as it passes `limit` bytes (a `Content-Length`
/// above it is refused before any byte of the body is read), and no more than `limit` bytes
/// are ever held; the whole download, not each idle gap, has a deadline; no redirect is
/// followed; and every HTTP authentication challenge is declined (FoundationNetworking 6.3.1
/// otherwise leaves a task that got `401 WWW-Authenticate: Basic` suspended forever,
/// swift-corelibs-foundation #5456, as the runtime's `RedirectRefusal` says). On Linux the
/// session's delegate queue is `DirectDelegateQueue`, as the runtime's transport's is: each
/// chunk reaches the delegate before libcurl reads the next, so that nothing the server sends
/// past the limit waits in a queue, however little of the CPU the CLI gets; what waits for
/// URLSession's work queue (a cancel, declining a challenge) goes through `cancels`. The
/// runtime's own transport is not reused: the CLI depends on the generator only, never on
/// the runtime and its dependencies.
package final class DocumentDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Why a download failed: the URL and the reason, as the CLI prints them.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    private let url: URL
    private let limit: Int
    private let lock = NSLock()
    private var body = Data()
    private var failure: String?
    private let done = DispatchSemaphore(value: 0)
    /// Where cancels and the answer to a challenge go: never the delegate's own callback,
    /// which runs on URLSession's work queue on Linux, which they wait for.
    private let cancels = DispatchQueue(label: "sesame.discover.cancel")

    /// For tests: runs before each chunk of the body kept, on the delegate's queue.
    private let pacing: (@Sendable () -> Void)?

    private init(url: URL, limit: Int, pacing: (@Sendable () -> Void)?) {
        self.url = url
        self.limit = limit
        self.pacing = pacing
    }

    /// GETs `url` (`Accept: application/json`), answering within `deadline` seconds with at
    /// most `limit` bytes.
    /// - Throws: a ``Failure`` naming the URL and why: a status other than 200 (a redirect
    ///   included), an authentication challenge, a body larger than `limit`, no complete
    ///   answer within `deadline`, or a transport failure.
    package static func get(
        _ url: URL, limit: Int, deadline: TimeInterval, pacing: (@Sendable () -> Void)? = nil
    ) throws -> Data {
        let download = DocumentDownload(url: url, limit: limit, pacing: pacing)
        var request = URLRequest(url: url, timeoutInterval: deadline)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        #if canImport(FoundationNetworking)
        let queue: OperationQueue? = DirectDelegateQueue()
        #else
        let queue: OperationQueue? = nil
        #endif
        let session = URLSession(configuration: .ephemeral, delegate: download, delegateQueue: queue)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        if download.done.wait(timeout: .now() + deadline) == .timedOut {
            download.fail("no complete answer within \(Self.seconds(deadline))")
            task.cancel()
        }
        return try download.lock.withLock {
            if let failure = download.failure { throw Failure(description: "\(url.absoluteString): \(failure)") }
            return download.body
        }
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }

    /// Records the first failure only: what happened first is what the user needs.
    private func fail(_ reason: String) {
        lock.withLock { if failure == nil { failure = reason } }
    }

    package func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status != 200 {
            fail("HTTP \(status), expected 200 (redirects are not followed)")
            completionHandler(.cancel)
            cancels.async { dataTask.cancel() }
        } else if response.expectedContentLength > Int64(limit) {
            fail("the document is larger than \(limit) bytes")
            completionHandler(.cancel)
            cancels.async { dataTask.cancel() }
        } else {
            completionHandler(.allow)
        }
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if lock.withLock({ failure == nil }) { pacing?() }
        let over = lock.withLock {
            let past = body.count + data.count > limit
            if !past { body.append(data) }
            return past && failure == nil
        }
        if over {
            fail("the document is larger than \(limit) bytes")
            cancels.async { dataTask.cancel() }
        }
    }

    package func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Declines the challenge: the task then fails at once (URLError -999) on Linux, and
    /// comes back with the 401 on Apple platforms.
    package func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
        fail("HTTP \(status): the server asks for HTTP authentication, which a discovery document never needs")
        cancels.async { completionHandler(.rejectProtectionSpace, nil) }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { fail(error.localizedDescription) }
        done.signal()
    }
}
