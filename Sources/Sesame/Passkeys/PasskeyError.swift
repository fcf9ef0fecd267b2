/// Why a ``PasskeyProvider`` created or signed nothing. None changes the authentication
/// state, and no description holds a key, a signature or a challenge.
public enum PasskeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The user or the app cancelled (the calling task was cancelled, or the system sheet
    /// was closed).
    case cancelled
    /// No credential of `rpID` answers the request (none of `allowCredentials`, or no
    /// discoverable credential when the list is empty).
    case noCredential(rpID: String)
    /// The options name an RP ID (`got`) other than the one the provider serves (`expected`).
    case rpIDMismatch(expected: String, got: String)
    /// The provider's origin cannot claim the RP ID: its scheme is not `https` (or `http`
    /// on localhost), or its host is neither the RP ID nor a subdomain of it.
    case originMismatch(origin: String, rpID: String)
    /// None of the requested algorithms (COSE identifiers) is one the provider has: ES256 (-7).
    case unsupportedAlgorithm(requested: [Int])
    /// The challenge was already signed by this provider: a challenge is used once.
    case challengeReused
    /// The authenticator already holds one of the options' `excludeCredentials`.
    case credentialExcluded
    /// The options require user verification, which the authenticator does not perform.
    case userVerificationUnavailable
    /// The options are malformed (a challenge or id that is not base64url, a challenge
    /// shorter than 16 bytes, a user handle outside 1–64 bytes).
    case invalidOptions(reason: String)
    /// The credential store could not be read or written.
    case storeFailed(reason: String)
    /// The platform failed the request for another reason.
    case failed(reason: String)

    public var description: String {
        switch self {
        case .cancelled: return "the passkey request was cancelled"
        case .noCredential(let rpID): return "no passkey of '\(rpID)' answers the request"
        case .rpIDMismatch(let expected, let got): return "the options' RP ID '\(got)' is not '\(expected)', the one this provider serves"
        case .originMismatch(let origin, let rpID): return "the origin '\(origin)' cannot use the RP ID '\(rpID)'"
        case .unsupportedAlgorithm(let requested):
            return "none of the requested algorithms \(requested) is supported (ES256, -7, is)"
        case .challengeReused: return "the challenge was already signed once; it is not signed again"
        case .credentialExcluded: return "the authenticator already holds a credential the options exclude"
        case .userVerificationUnavailable: return "the options require user verification, which this authenticator does not perform"
        case .invalidOptions(let reason): return "the passkey options are malformed: \(reason)"
        case .storeFailed(let reason): return "the passkey store failed: \(reason)"
        case .failed(let reason): return "the passkey request failed: \(reason)"
        }
    }
}
