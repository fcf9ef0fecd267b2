/// A failure of the runtime itself, as opposed to an error the back-end reports (those are
/// the generated SDK's `ServerError`). Switch on it to tell what went wrong; its
/// descriptions never contain a token or a secret.
public enum SesameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation needs a signed-in user and there is none.
    case notAuthenticated
    /// The operation needs a more recent sign-in than the current one.
    case reauthenticationRequired(operation: String)
    /// A response did not decode; the state is unchanged.
    case decoding(operation: String, reason: String)
    /// A request could not be encoded.
    case encoding(reason: String)
    /// The transport failed (no connection, timeout, …).
    case transport(operation: String, reason: String)
    /// The refresh limit of the schema's window was reached.
    case excessiveRefresh(maxRefreshes: Int, window: Duration)
    /// A multi-step method was continued or cancelled in the wrong state.
    case authenticationProcess(reason: String)
    /// The state does not allow the operation (for example, offline).
    case invalidState(reason: String)
    /// A method run into the current account (``AuthenticationContext/currentAccount``)
    /// signed in another user; nothing changed.
    case accountMismatch(reason: String)
    /// The resource server refused the operation until the user signs in again with a
    /// stronger or more recent authentication (RFC 9470): the session stays as it was, no
    /// refresh was tried. Sign in in the browser with
    /// ``AuthorizationParameters/init(stepUp:prompt:loginHint:)`` and retry.
    case stepUpRequired(operation: String, challenge: StepUpChallenge)

    public var description: String {
        switch self {
        case .notAuthenticated: return "no user is signed in"
        case .reauthenticationRequired(let operation): return "\(operation) needs a more recent sign-in"
        case .decoding(let operation, let reason): return "the response to \(operation) did not decode: \(reason)"
        case .encoding(let reason): return "the request could not be encoded: \(reason)"
        case .transport(let operation, let reason): return "\(operation) failed: \(reason)"
        case .excessiveRefresh(let max, let window): return "more than \(max) refreshes in \(window): refusing to refresh again"
        case .authenticationProcess(let reason): return "authentication process: \(reason)"
        case .invalidState(let reason): return reason
        case .accountMismatch(let reason): return "the account does not match: \(reason)"
        case .stepUpRequired(let operation, let challenge): return "\(operation): \(challenge)"
        }
    }
}
