/// Why a ``LoopbackBrowser`` could not bring the redirect back. None changes the
/// authentication state, and none of their descriptions holds a code or a token.
public enum LoopbackBrowserError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The redirect URI is not an `http://127.0.0.1` URL (RFC 8252 §7.3), which is all the
    /// loopback browser listens on.
    case notLoopback(String)
    /// Listening on loopback failed (the port is taken, no socket).
    case cannotListen(reason: String)
    /// The system browser could not be opened on the authorization request.
    case cannotOpenBrowser(reason: String)
    /// No redirect came back within the browser's timeout.
    case timedOut
    /// Never thrown: requests other than the redirect are refused without ending the wait.
    @available(*, deprecated, message: "never thrown: stray requests no longer end the wait")
    case tooManyRequests

    public var description: String {
        switch self {
        case .notLoopback(let uri): return "the loopback browser needs an http://127.0.0.1 redirect URI, not \(uri)"
        case .cannotListen(let reason): return "the loopback browser cannot listen: \(reason)"
        case .cannotOpenBrowser(let reason): return "the loopback browser cannot open the system browser: \(reason)"
        case .timedOut: return "no redirect reached the loopback browser in time"
        case .tooManyRequests: return "the loopback browser received too many requests other than the redirect"
        }
    }
}
