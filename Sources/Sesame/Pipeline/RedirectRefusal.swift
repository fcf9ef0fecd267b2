import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session delegate that declines every redirect, so that the task completes with the
/// 3xx response, and every HTTP authentication challenge. URLSession consults it for tasks
/// created with a completion handler too (Linux and Darwin); it holds no state. Subclasses
/// (``StreamingURLSessionTransport``'s delegate) keep the same policy.
class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Sesame puts the credential in the request itself and never answers an HTTP
    /// authentication challenge (a 401 with `WWW-Authenticate: Basic`, say). Without this
    /// delegate method FoundationNetworking leaves such a task suspended forever when it has
    /// no credential to offer (swift-corelibs-foundation #5456, fixed after Swift 6.3.1).
    /// Declining makes the call fail at once with a transport error (URLError -999) instead;
    /// on Apple platforms the 401 itself comes back. Answering `.useCredential` with no
    /// credential crashes FoundationNetworking, and `.performDefaultHandling` hangs.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.rejectProtectionSpace, nil)
    }

    /// Does nothing. Declared here so that a subclass's override is what URLSession calls:
    /// the protocol's conformance belongs to this class, so a subclass method that this
    /// class did not declare would never be called (the stream of
    /// ``StreamingURLSessionTransport`` then never ended when its response did).
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {}
}
