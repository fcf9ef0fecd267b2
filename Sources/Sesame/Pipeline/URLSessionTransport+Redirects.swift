import Foundation
import OpenAPIURLSession
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// A URLSession transport that never follows a redirect itself: every 3xx reaches the
    /// pipeline, whose ``CredentialMiddleware`` follows it and sends the credential only to
    /// the back-end's origin. It is the default transport of
    /// ``AuthenticationServiceConfiguration``; give it to an OpenAPI-generated client that
    /// uses ``AuthenticationService/credentialMiddleware``.
    ///
    /// `URLSession.shared`, which `URLSessionTransport()` uses, follows redirects with the
    /// original header fields: on Linux (FoundationNetworking) it sends the credential to
    /// whatever origin the redirect names.
    public static let notFollowingRedirects = URLSessionTransport(
        configuration: .init(session: URLSession(configuration: .default, delegate: RedirectRefusal(), delegateQueue: nil)))
}

/// A session delegate that declines every redirect, so that the task completes with the
/// 3xx response. URLSession consults it for tasks created with a completion handler too
/// (Linux and Darwin); it holds no state.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void)
    {
        completionHandler(nil)
    }
}
