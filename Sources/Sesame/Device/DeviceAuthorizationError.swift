/// Why a device sign-in (RFC 8628) ended without signing in. None of these changes the
/// authentication state, and none of their descriptions holds a code or a token.
public enum DeviceAuthorizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The user refused on the other device (`access_denied`, RFC 8628 §3.5).
    case accessDenied
    /// The code expired before the user answered: the server said `expired_token`, or its
    /// `expires_in` passed (the runtime stops polling then).
    case expired
    /// The app cancelled the sign-in (`cancelAuthentication()`, another sign-in, a sign-out,
    /// or the cancellation of the task that awaits it) while it was waiting.
    case cancelled

    public var description: String {
        switch self {
        case .accessDenied: return "the user denied the device sign-in"
        case .expired: return "the device code expired before the user approved the sign-in"
        case .cancelled: return "the device sign-in was cancelled"
        }
    }
}
