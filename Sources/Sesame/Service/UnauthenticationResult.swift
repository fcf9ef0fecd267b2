/// What `unauthenticate()` achieved beyond clearing the local session, which it always does.
public enum UnauthenticationResult: Sendable, Hashable, CustomStringConvertible {
    /// The back-end revoked the session.
    case revoked
    /// Only the local session was cleared: no user was signed in, the app was offline,
    /// the schema declares no sign-out operation, or the back-end call failed (the reason).
    case localOnly(reason: String)
    /// The OpenID provider confirmed the end of its session (RP-Initiated Logout 1.0, with
    /// ``AuthenticationServiceConfiguration/endSession``): it redirected back to the
    /// post-logout URI with the `state` sent. `notRevoked` says why the back-end did not
    /// revoke the tokens (RFC 7009); nil when it did.
    case endedAtProvider(notRevoked: String?)
    /// The end-session endpoint was opened (or could not be) but the provider did not
    /// confirm: the user closed the browser, it timed out, the `state` came back wrong, or
    /// there is no browser (`reason`). The user is signed out locally all the same.
    /// `notRevoked` as in ``endedAtProvider(notRevoked:)``.
    case providerNotConfirmed(reason: String, notRevoked: String?)

    /// `revoked`, `local only: reason`, `ended at the provider`, or `provider did not confirm: reason`
    /// (each followed by why the back-end did not revoke, if it did not).
    public var description: String {
        switch self {
        case .revoked: return "revoked"
        case .localOnly(let reason): return "local only: \(reason)"
        case .endedAtProvider(let notRevoked):
            return "ended at the provider" + (notRevoked.map { "; not revoked: \($0)" } ?? "")
        case .providerNotConfirmed(let reason, let notRevoked):
            return "provider did not confirm: \(reason)" + (notRevoked.map { "; not revoked: \($0)" } ?? "")
        }
    }
}
