/// Why a refresh of the credential failed.
public struct RefreshFailure: Sendable, Hashable, CustomStringConvertible {
    /// What the failure means for the session.
    public enum Kind: String, Sendable, Hashable {
        /// The back-end rejected the refresh (a credential-rejected code such as
        /// `invalid_grant`), or the credential cannot be refreshed: the session is invalid.
        case rejected
        /// Worth retrying later (network, 5xx, 429, a code the catalogue calls transient):
        /// nothing changed, and refreshes back off (honouring `Retry-After`) before the next
        /// one is sent.
        case transient
        /// The refresh failed otherwise (a client error, a malformed response): nothing
        /// changed.
        case failed
        /// More refreshes than the schema's window allows: nothing was sent.
        case limitReached
    }

    /// What the failure means for the session.
    public var kind: Kind
    /// A short reason, never a token.
    public var reason: String

    /// Creates a failure.
    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// `kind: reason`.
    public var description: String { "\(kind.rawValue): \(reason)" }
}
