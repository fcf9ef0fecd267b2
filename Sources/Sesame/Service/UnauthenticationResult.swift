/// What `unauthenticate()` achieved beyond clearing the local session, which it always does.
public enum UnauthenticationResult: Sendable, Hashable, CustomStringConvertible {
    /// The back-end revoked the session.
    case revoked
    /// Only the local session was cleared: no user was signed in, the app was offline,
    /// the schema declares no sign-out operation, or the back-end call failed (the reason).
    case localOnly(reason: String)

    /// `revoked`, or `local only: reason`.
    public var description: String {
        switch self {
        case .revoked: return "revoked"
        case .localOnly(let reason): return "local only: \(reason)"
        }
    }
}
