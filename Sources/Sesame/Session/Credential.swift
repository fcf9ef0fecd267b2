import Foundation

/// The tokens a back-end issued for the signed-in user.
///
/// Its description, debug description and mirror never show a token: printing, logging or
/// `dump`-ing a credential shows only whether a refresh token exists and when it expires.
public struct Credential: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The access token, applied to requests as the schema's `credential.apply` says.
    public var accessToken: String
    /// The refresh token, when the back-end issued one.
    public var refreshToken: String?
    /// When the access token expires, computed from `expires_in` when it was issued; nil
    /// when the back-end did not say.
    public var expiresAt: Date?
    /// The OpenID Connect ID token (its compact serialization) that the sign-in, or the last
    /// refresh that returned one, validated; nil without an ID token validator. Persisted with
    /// the session, never shown (`id_token_hint` and the next refresh's `sub` check read it).
    public var idToken: String?

    /// Creates a credential.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, idToken: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.idToken = idToken
    }

    /// `Credential(accessToken: <redacted>, refreshToken: <redacted>|none, expiresAt: …)`, and
    /// `idToken: <redacted>` when it has one.
    public var description: String {
        let expiry = expiresAt.map { "\($0)" } ?? "unknown"
        let idToken = self.idToken == nil ? "" : ", idToken: <redacted>"
        return
            "Credential(accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "none" : "<redacted>"), expiresAt: \(expiry)\(idToken))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the tokens.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["hasRefreshToken": refreshToken != nil, "expiresAt": expiresAt as Any, "hasIDToken": idToken != nil],
            displayStyle: .struct)
    }
}

extension Credential {
    /// This credential, a refresh's answer, with `previous`'s refresh token when the back-end
    /// did not rotate it (RFC 6749 §6: the refresh token may stay the same), and its ID token
    /// when the refresh returned none (OpenID Connect Core §12.2: it need not).
    func keepingRefreshToken(of previous: Credential) -> Credential {
        var credential = self
        if credential.refreshToken == nil { credential.refreshToken = previous.refreshToken }
        if credential.idToken == nil { credential.idToken = previous.idToken }
        return credential
    }
}
