// The JSON bodies of Schema/models.yaml, as the server writes and reads them. Internal, like
// every wire type: their names are the generated SDK's (`Provider`, `Note`, …), and a client
// that imports both the SDK and the server must not see two of each.

/// How an identity was authenticated (`Provider` in models.yaml).
enum Provider: String, Codable, Sendable, CaseIterable {
    /// A temporary account made by `POST /auth/guest`.
    case guest
    /// An e-mail address or phone number verified with a one-time code.
    case `internal`
    /// A configured user name and password (RFC 6749 §4.3 grant).
    case password
    /// A token from the app's own identity provider (`POST /auth/custom`).
    case custom
    /// A passkey (WebAuthn, `POST /passkeys/signin`); not in models.yaml yet, whose passkey
    /// step kind is still to come.
    case passkey
}

/// A token response (RFC 6749 §5.1).
struct TokenResponse: Codable, Sendable {
    var access_token: String
    var token_type: String
    var expires_in: Int
    var refresh_token: String
    var scope: String?
    /// The ID token (OpenID Connect Core §3.1.3.3), when the scope contains `openid`.
    var id_token: String?
}

/// The answer to `POST /auth/internal/challenge`.
struct ChallengeResponse: Codable, Sendable {
    var challengeId: String
    var channel: String
    var expiresAt: String
}

/// `AuthenticationDetails` in models.yaml.
struct AuthenticationDetails: Codable, Sendable, Equatable {
    /// The user's unique identifier.
    var uid: String
    /// How the session was signed in.
    var provider: Provider
    /// The user's identifier at that provider.
    var providerUID: String
    /// A name to show, when the account has one.
    var displayName: String?
    /// The account's e-mail address, when it has one.
    var email: String?
    /// When the session was signed in (RFC 3339, UTC); refreshes keep it.
    var authenticatedAt: String
    /// When the presented access token expires (RFC 3339, UTC).
    var expiresAt: String
    /// True for guest accounts.
    var isAnonymous: Bool
}

/// `Identity` in models.yaml.
struct Identity: Codable, Sendable, Equatable {
    /// The provider of the identity.
    var provider: Provider
    /// The identity's identifier at the provider.
    var providerUID: String
    /// The day it was attached, `YYYY-MM-DD` (UTC).
    var attachedOn: String
}

/// `DetachResult` in models.yaml.
struct DetachResult: Codable, Sendable {
    var accountDestroyed: Bool
    var remaining: [Identity]
}

/// `NewNote` in models.yaml; both fields optional here so validation can name what is missing.
struct NewNote: Decodable, Sendable {
    var text: String?
    var pinned: Bool?
}

/// `Note` in models.yaml.
struct Note: Codable, Sendable, Equatable {
    /// A UUID string.
    var id: String
    /// The note's text, 1 to 10 000 characters.
    var text: String
    /// Whether the note is pinned.
    var pinned: Bool
    /// When it was created (RFC 3339, UTC).
    var createdAt: String
}

/// `ServerStatus` in models.yaml.
struct ServerStatus: Codable, Sendable {
    var status: String
    var version: String
    var uptimeSeconds: Double
}

/// An error body as RFC 6749 §5.2 and errors.yaml's envelope describe it.
struct ErrorBody: Codable, Sendable {
    var error: String
    var error_description: String?
}

/// The claims `GET /userinfo` answers (`UserInfo` in models.yaml; OpenID Connect Core §5.3.2).
struct UserInfoClaims: Codable, Sendable, Equatable {
    /// Always, but for the control API's `no-sub` fault.
    var sub: String?
    /// With the `profile` scope, when the account has a display name.
    var name: String?
    /// With the `email` scope, when the account has an address.
    var email: String?
}
