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

    /// Creates a browser that presents its sheet over `anchor()`.
    public init(prefersEphemeralSession: Bool = false, anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
        self.prefersEphemeralSession = prefersEphemeralSession
        self.anchor = anchor
    }

    /// Opens `url` in the sheet and waits for the redirect to `redirectURI`'s scheme.
    /// - Throws: ``BrowserSignInError/cancelled`` when the user closes the sheet; the
    ///   session's error otherwise.
    @MainActor
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        guard let scheme = redirectURI.scheme else {
            throw BrowserSignInError.notConfigured(reason: "the redirect URI has no scheme")
        }
        return try await withCheckedThrowingContinuation { continuation in
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme) { callback, error in
                Task { @MainActor in self.running = nil }
                if let callback {
                    continuation.resume(returning: callback)
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    continuation.resume(throwing: BrowserSignInError.cancelled)
                } else {
                    continuation.resume(throwing: error ?? BrowserSignInError.cancelled)
                }
            }
            session.prefersEphemeralWebBrowserSession = prefersEphemeralSession
            session.presentationContextProvider = self
            running = session
            if !session.start() {
                running = nil
                continuation.resume(throwing: BrowserSignInError.notConfigured(reason: "the session did not start"))
            }
        }
    }
}

extension WebAuthenticationSessionBrowser: ASWebAuthenticationPresentationContextProviding {
    public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif
