import Foundation

/// Opens an authorization request in a browser and returns the redirect back to the app:
/// the user agent of a browser sign-in step (RFC 8252, OAuth 2.0 for native apps).
///
/// Supply one in ``AuthenticationServiceConfiguration/browser``. On Apple platforms
/// `WebAuthenticationSessionBrowser` (iOS, macOS, visionOS) uses `ASWebAuthenticationSession`; tests and demos
/// drive a login page over HTTP instead (the test support's `HeadlessBrowser`). Apps may
/// write their own, as with Webcom's and AppAuth's user agents.
public protocol Browser: Sendable {
    /// Gets ready to receive the redirect and returns the redirect URI the authorization
    /// request will carry, called once per sign-in before ``authorize(url:redirectURI:)``.
    /// `redirectURI` is the step's (the schema's, or the configuration's
    /// ``AuthenticationServiceConfiguration/redirectURI``). A browser that receives the
    /// redirect itself on loopback (``LoopbackBrowser``, RFC 8252 §7.3) starts listening here
    /// and returns the URI with the port it listens on; the runtime then sends that URI in
    /// both the authorization request and the token request, and matches the redirect
    /// against it.
    ///
    /// The default returns `redirectURI` unchanged.
    /// - Throws: when the browser cannot receive the redirect (no port to listen on); the
    ///   sign-in fails with that error, and nothing is sent.
    func prepareRedirect(to redirectURI: URL) async throws -> URL

    /// Opens `url` and waits until the authorization server redirects to a URL that starts
    /// with `redirectURI`.
    /// - Returns: that whole URL, with its query (`code` and `state`, or `error`).
    /// - Throws: ``BrowserSignInError/cancelled`` when the user closes the browser; any
    ///   other error when the page cannot be shown. The runtime reports either as the
    ///   sign-in's failure, and the authentication state does not change.
    func authorize(url: URL, redirectURI: URL) async throws -> URL

    /// Closes the page that ``authorize(url:redirectURI:)`` opened, at once, because the app
    /// cancelled the sign-in (`cancelAuthentication()`, a sign-out, another sign-in, or the
    /// cancellation of the sign-in's task): AppAuth's `cancel()` of its user-agent session,
    /// Auth0.swift's `WebAuthentication.cancel()`. The runtime calls it while
    /// `authorize` is still waiting, from any thread, and it must not block; it also cancels the
    /// task that runs `authorize`. `authorize` may then return or throw whatever it likes:
    /// the runtime has already failed the sign-in with ``BrowserSignInError/cancelled`` and
    /// never uses a redirect that comes later.
    ///
    /// The default does nothing: a browser that cannot close its page leaves it open, and the
    /// user's answer on it is ignored.
    func dismiss()
}

extension Browser {
    /// Returns `redirectURI`: the browser receives the redirect where the URI says.
    public func prepareRedirect(to redirectURI: URL) async throws -> URL { redirectURI }

    /// Does nothing: the page stays open, and the redirect it may bring back is ignored.
    public func dismiss() {}
}

/// Why a browser sign-in step failed. None of these changes the authentication state, and
/// none of their descriptions holds a code, a verifier or a token. An `error` in the
/// redirect (RFC 6749 §4.1.2.1: `access_denied`, `login_required`, …) is not one of these:
/// it is the schema's typed `ServerError`, as the token endpoint's errors are.
public enum BrowserSignInError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The user closed the browser (or the app cancelled the sign-in) before the redirect.
    case cancelled
    /// The redirect's `state` is not the one the runtime sent: the redirect answers
    /// another request (or a forged one), and its code is not used.
    case stateMismatch
    /// The redirect's `iss` is not the authorization server's declared issuer, or it has
    /// none when the server is declared to send one (RFC 9207 §2.4; `received` is nil): the
    /// response may come from another server (a mix-up attack, RFC 9700 §4.4), and its code
    /// is not used.
    case issuerMismatch(expected: String, received: String?)
    /// The redirect has neither `code` nor `error`, or is not a URL of the redirect URI.
    case malformedRedirect(reason: String)
    /// The configuration has no browser, or no client id for the authorization request.
    case notConfigured(reason: String)

    public var description: String {
        switch self {
        case .cancelled: return "the browser sign-in was cancelled"
        case .stateMismatch: return "the redirect's state does not match the authorization request's; its code was not used"
        case .issuerMismatch(let expected, .some(let received)):
            return "the redirect's issuer '\(received)' is not the authorization server's '\(expected)'; its code was not used"
        case .issuerMismatch(let expected, .none):
            return "the redirect has no issuer (iss), which the authorization server '\(expected)' sends; its code was not used"
        case .malformedRedirect(let reason): return "the redirect back to the app is malformed: \(reason)"
        case .notConfigured(let reason): return "browser sign-in is not configured: \(reason)"
        }
    }
}
