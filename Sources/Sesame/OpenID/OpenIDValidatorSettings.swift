import Foundation

/// What a generated SDK needs to build its ID token validator from the schema's `openID:`
/// (sdk.yaml), resolved by the service at run time: the issuer (the schema's or the
/// configuration's `authorizationServerIssuer`), the client id (the configuration's
/// `ClientCredentials`), and the keys, fetched through the service's transport.
@_spi(Generated) public struct OpenIDValidatorSettings: Sendable {
    /// The issuer the token's `iss` must be.
    public var issuer: String
    /// The client id the token's `aud` must hold.
    public var clientID: String
    /// The JWKS URL, resolved against the authorization server's run-time base URL.
    public var keysURL: URL
    /// The `alg` values accepted; nil accepts the validator's default.
    public var algorithms: Set<String>?
    /// How far `exp`, `iat` and `auth_time` may be off the device's clock.
    public var clockSkew: Duration
    /// Fetches the JWKS document from ``keysURL`` through the service's transport and
    /// middlewares, reading at most the configuration's `maximumResponseSize` bytes.
    /// - Throws: ``SesameError/transport(operation:reason:)`` for a status other than 200 or
    ///   a failed connection, ``SesameError/decoding(operation:reason:)`` for a larger body.
    public var fetchKeys: @Sendable () async throws -> Data

    public init(
        issuer: String, clientID: String, keysURL: URL, algorithms: Set<String>?, clockSkew: Duration,
        fetchKeys: @escaping @Sendable () async throws -> Data
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.keysURL = keysURL
        self.algorithms = algorithms
        self.clockSkew = clockSkew
        self.fetchKeys = fetchKeys
    }
}
