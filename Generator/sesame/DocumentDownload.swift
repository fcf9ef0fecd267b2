import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET of a discovery document, bounded by construction: the body is counted as it
/// arrives and the task cancelled as soon as it passes `limit` bytes (a `Content-Length`
/// above it is refused before any byte of the body is read); the whole download, not each
/// idle gap, has a deadline; no redirect is followed; and every HTTP authentication
/// challenge is declined (FoundationNetworking 6.3.1 otherwise leaves a task that got
/// `401 WWW-Authenticate: Basic` suspended forever, swift-corelibs-foundation #5456, as the
/// runtime's `RedirectRefusal` says). The runtime's own bounded transport is not reused: the
/// CLI depends on the generator only, never on the runtime and its dependencies.
final class DocumentDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let limit: Int
    private let lock = NSLock()
    private var body = Data()
    private var failure: String?
    private let done = DispatchSemaphore(value: 0)

    private init(url: URL, limit: Int) {
        self.url = url
        self.limit = limit
    }

    /// GETs `url` (`Accept: application/json`), answering within `deadline` seconds with at
    /// most `limit` bytes.
    /// - Throws: a `ValidationError` naming the URL and why: a status other than 200 (a
    ///   redirect included), an authentication challenge, a body larger than `limit`, no
    ///   complete answer within `deadline`, or a transport failure.
    static func get(_ url: URL, limit: Int, deadline: TimeInterval) throws -> Data {
        let download = DocumentDownload(url: url, limit: limit)
        var request = URLRequest(url: url, timeoutInterval: deadline)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let session = URLSession(configuration: .ephemeral, delegate: download, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        if download.done.wait(timeout: .now() + deadline) == .timedOut {
            download.fail("no complete answer within \(Self.seconds(deadline))")
            task.cancel()
        }
        return try download.lock.withLock {
            if let failure = download.failure { throw ValidationError("\(url.absoluteString): \(failure)") }
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

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status != 200 {
            fail("HTTP \(status), expected 200 (redirects are not followed)")
            dataTask.cancel()
            completionHandler(.cancel)
        } else if response.expectedContentLength > Int64(limit) {
            fail("the document is larger than \(limit) bytes")
            dataTask.cancel()
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock {
            body.append(data.prefix(limit + 1 - body.count))
            return body.count > limit
        }
        if over {
            fail("the document is larger than \(limit) bytes")
            dataTask.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Declines the challenge: the task then fails at once (URLError -999) on Linux, and
    /// comes back with the 401 on Apple platforms.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
        fail("HTTP \(status): the server asks for HTTP authentication, which a discovery document never needs")
        completionHandler(.rejectProtectionSpace, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { fail(error.localizedDescription) }
        done.signal()
    }
}
