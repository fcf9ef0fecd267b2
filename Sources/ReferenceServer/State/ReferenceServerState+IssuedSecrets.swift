import Foundation

/// A secret the server handed out or accepted, for tests that check that none of them
/// shows anywhere a client lets it be printed. Its description, debug description and
/// mirror give the kind and length only, so printing one does not leak it.
public struct IssuedSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What the secret is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An access token of a token response.
        case accessToken
        /// A refresh token of a token response.
        case refreshToken
        /// The one-time code of an internal challenge.
        case oneTimeCode
        /// A client secret the token endpoint accepted.
        case clientSecret
        /// A password the password grant accepted.
        case password
        /// A custom token `POST /auth/custom` accepted.
        case customToken
    }

    /// What the secret is.
    public var kind: Kind
    /// The secret itself.
    public var value: String

    /// Makes a record of a secret.
    public init(kind: Kind, value: String) {
        self.kind = kind
        self.value = value
    }

    /// The kind and length, never the value.
    public var description: String { "\(kind.rawValue) (\(value.count) characters)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// The kind only.
    public var customMirror: Mirror { Mirror(self, children: ["kind": kind]) }
}

extension ReferenceServerState {
    /// Every secret the server issued (access and refresh tokens, one-time codes) or
    /// accepted (client secrets, passwords, custom tokens) since it was made, each once, in
    /// the order it was first seen. Kept across ``reset()``: a client may still hold, and
    /// leak, a token issued before it.
    public func issuedSecrets() -> [IssuedSecret] {
        secretsSeen
    }

    /// Adds `value` to ``issuedSecrets()`` unless it is there already.
    func remember(_ kind: IssuedSecret.Kind, _ value: String) {
        guard secretValuesSeen.insert(value).inserted else { return }
        secretsSeen.append(IssuedSecret(kind: kind, value: value))
    }
}
