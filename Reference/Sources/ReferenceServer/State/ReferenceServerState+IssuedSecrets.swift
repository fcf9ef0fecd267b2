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
        /// An authorization code the login page issued.
        case authorizationCode
        /// A PKCE code verifier the token endpoint accepted.
        case codeVerifier
        /// A device code the device authorization endpoint issued (RFC 8628).
        case deviceCode
        /// An ID token of a token response (OpenID Connect).
        case idToken
        /// The `nonce` of an authorization request the login page accepted.
        case nonce
        /// A DPoP proof a request carried (RFC 9449), valid or not.
        case dpopProof
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
    /// Every secret the server issued (access and refresh tokens, rotated and revoked ones
    /// included, one-time codes and authorization codes) or accepted (client secrets,
    /// passwords, custom tokens, code verifiers, DPoP proofs)
    /// since it started or was last ``reset()``, for tests that check that none of them leaks.
    public func issuedSecrets() -> Set<IssuedSecret> {
        var secrets = acceptedSecrets
        for token in accessTokens.keys { secrets.insert(IssuedSecret(kind: .accessToken, value: token)) }
        for token in refreshTokens.keys { secrets.insert(IssuedSecret(kind: .refreshToken, value: token)) }
        for challenge in challenges.values { secrets.insert(IssuedSecret(kind: .oneTimeCode, value: challenge.code)) }
        for code in authorizationCodes.keys { secrets.insert(IssuedSecret(kind: .authorizationCode, value: code)) }
        return secrets
    }

    /// Adds a secret the token endpoint accepted to ``issuedSecrets()``.
    func accepted(_ secret: IssuedSecret) {
        acceptedSecrets.insert(secret)
    }
}
