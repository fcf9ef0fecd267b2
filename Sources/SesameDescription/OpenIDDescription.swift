import Foundation

/// OpenID Connect as the schema declares it (sdk.yaml's `openID:`): where the provider's
/// signing keys are, which algorithms and how much clock skew the ID token's validation
/// accepts. The issuer is the authorization server's (`authorizationServer.issuer`) and the
/// client id the app's (`ClientCredentials`). Browser steps that say `openID: true` send a
/// `nonce` and require an `id_token` validated with them.
@_spi(Generated) public struct OpenIDDescription: Sendable, Hashable {
    /// The provider's JWKS (RFC 7517): a path on the authorization server (`/oauth/jwks`),
    /// resolved against its run-time base URL, or an absolute https URL.
    public var keys: String
    /// The `alg` values accepted; nil accepts the validator's default
    /// (``signingAlgorithms``).
    public var algorithms: Set<String>?
    /// How far `exp`, `iat` and `auth_time` may be off the device's clock.
    public var clockSkew: Duration
    /// The UserInfo operation (`userInfo:`, OpenID Connect Core §5.3): an authenticated
    /// operation on the authorization server whose response's `sub` the runtime compares with
    /// the session's ID token before returning it (§5.3.2); nil when the schema names none.
    public var userInfo: RequestDescription?

    /// The provider's `end_session_endpoint` (RP-Initiated Logout 1.0): a path on the
    /// authorization server (`/oauth/logout`), resolved against its run-time base URL, or an
    /// absolute URL on the issuer's or the authorization server's origin; nil when the schema
    /// declares none (sign-out then ends no session at the provider unless the app configures it).
    public var endSession: String?
    /// The `post_logout_redirect_uri` the end-session request sends (one the client registered
    /// with the provider); nil when the schema leaves it to the app's configuration.
    public var postLogoutRedirectURI: URL?

    public init(
        keys: String, algorithms: Set<String>? = nil, clockSkew: Duration = defaultClockSkew, userInfo: RequestDescription? = nil,
        endSession: String? = nil, postLogoutRedirectURI: URL? = nil
    ) {
        self.keys = keys
        self.algorithms = algorithms
        self.clockSkew = clockSkew
        self.userInfo = userInfo
        self.endSession = endSession
        self.postLogoutRedirectURI = postLogoutRedirectURI
    }

    /// The asymmetric algorithms an ID token may be signed with, the validator's default:
    /// `none` and the HMAC ones are never accepted (a public client has no secret to verify
    /// them with).
    public static let signingAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512",
    ]

    /// The clock skew when the schema declares none.
    public static let defaultClockSkew: Duration = .seconds(60)

    /// The JWKS URL: ``keys`` itself when it is absolute, else ``keys`` appended to
    /// `authorizationServer` (the authorization server's base URL, with its path); nil when
    /// that gives no URL.
    public func keysURL(authorizationServer: URL) -> URL? {
        Self.resolve(keys, against: authorizationServer)
    }

    /// The end-session endpoint's URL: ``endSession`` itself when it is absolute, else
    /// ``endSession`` appended to `authorizationServer` (its base URL, with its path); nil when
    /// the schema declares no end-session endpoint or that gives no URL.
    public func endSessionURL(authorizationServer: URL) -> URL? {
        endSession.flatMap { Self.resolve($0, against: authorizationServer) }
    }

    /// `location` appended to `base` (without its trailing `/`s) when it is a path, else `location` as a URL.
    private static func resolve(_ location: String, against base: URL) -> URL? {
        guard location.hasPrefix("/") else { return URL(string: location) }
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + location)
    }
}
