/// The authorization server's issuer identifier (RFC 8414 §2), against which the runtime
/// checks the `iss` of every authorization response of a browser sign-in (RFC 9207). The
/// schema's (`authorizationServer: { issuer: … }`) is part of `SDKDescription`; an app sets
/// one in the runtime's `AuthenticationServiceConfiguration.authorizationServerIssuer` to
/// replace it, as `authorizationServerURL` replaces its base URL. Public, as `JSONValue` is:
/// apps build it.
public struct AuthorizationServerIssuer: Sendable, Hashable, Codable {
    /// The issuer identifier, such as `https://idp.example.com`: an `iss` is accepted only
    /// when it is this string exactly (RFC 9207 §2.4: no normalisation).
    public var issuer: String
    /// Whether the server sends `iss` in every authorization response (its metadata's
    /// `authorization_response_iss_parameter_supported`, RFC 9207 §3): a response without
    /// one is then refused. When false, a response without `iss` is accepted and one with
    /// `iss` must still match.
    public var sentInResponses: Bool

    /// Creates the issuer of an authorization server.
    public init(issuer: String, sentInResponses: Bool) {
        self.issuer = issuer
        self.sentInResponses = sentInResponses
    }
}
