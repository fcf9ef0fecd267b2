#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// A ``Browser`` over `ASWebAuthenticationSession`, the system's sign-in sheet on Apple
/// platforms: it shares cookies with Safari unless ``prefersEphemeralSession`` is set, and
/// returns when the authorization server redirects to the redirect URI's scheme.
///
/// Compiled only where AuthenticationServices offers it (iOS, macOS, visionOS). It is not exercised by the test
/// suite, which runs on Linux: the runtime's browser step is tested with a headless
/// browser that drives the reference server's login page over HTTP.
public final class WebAuthenticationSessionBrowser: NSObject, Browser, @unchecked Sendable {
    /// The window the sheet is presented over; nil lets the system pick one.
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    /// Whether the session shares no cookies with Safari (no "sign in with" prompt).
    public let prefersEphemeralSession: Bool
    /// The session under way: `ASWebAuthenticationSession` must be kept alive while it runs.
    @MainActor private var running: ASWebAuthenticationSession?
    /// The caller of ``authorize(url:redirectURI:)`` waiting for the session; resumed once,
    /// by the session's completion or by ``dismiss()``.
    @MainActor private var waiting: CheckedContinuation<URL, any Error>?

    /// Creates a browser that presents its sheet over `anchor()`.
    public init(prefersEphemeralSession: Bool = false, anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
        self.prefersEphemeralSession = prefersEphemeralSession
        self.anchor = anchor
    }

    /// Opens `url` in the sheet and waits for the redirect to `redirectURI`'s scheme.
    /// - Throws: ``BrowserSignInError/cancelled`` when the user closes the sheet or the app
    ///   dismisses it (``dismiss()``); the session's error otherwise.
    @MainActor
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        guard let scheme = redirectURI.scheme else {
            throw BrowserSignInError.notConfigured(reason: "the redirect URI has no scheme")
        }
        return try await withCheckedThrowingContinuation { continuation in
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme) { callback, error in
                let result: Result<URL, any Error>
                if let callback {
                    result = .success(callback)
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    result = .failure(BrowserSignInError.cancelled)
                } else {
                    result = .failure(error ?? BrowserSignInError.cancelled)
                }
                Task { @MainActor in self.finish(result) }
            }
            session.prefersEphemeralWebBrowserSession = prefersEphemeralSession
            session.presentationContextProvider = self
            waiting = continuation
            running = session
            if !session.start() {
                finish(.failure(BrowserSignInError.notConfigured(reason: "the session did not start")))
            }
        }
    }

    /// Closes the sheet at once with `ASWebAuthenticationSession.cancel()`: the waiting
    /// ``authorize(url:redirectURI:)`` throws ``BrowserSignInError/cancelled``. Does nothing
    /// when no sheet is open. Called by the runtime when the app cancels the sign-in.
    public func dismiss() {
        Task { @MainActor in
            self.running?.cancel()
            self.finish(.failure(BrowserSignInError.cancelled))
        }
    }

    /// Resumes the waiting caller once with `result`, and forgets the session.
    @MainActor private func finish(_ result: Result<URL, any Error>) {
        running = nil
        let continuation = waiting
        waiting = nil
        continuation?.resume(with: result)
    }
}

extension WebAuthenticationSessionBrowser: ASWebAuthenticationPresentationContextProviding {
    public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif
