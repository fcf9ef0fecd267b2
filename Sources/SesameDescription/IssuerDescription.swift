/// The authorization server's issuer identifier (RFC 8414 §2, RFC 9207), as the schema
/// declares it (`authorizationServer: { issuer: …, issuerInResponses: … }`): the runtime
/// compares the `iss` of every authorization response with it before a code is used.
@_spi(Generated) public struct IssuerDescription: Sendable, Hashable, Codable {
    /// The issuer identifier, compared with `iss` character for character (RFC 9207 §2.4).
    public var issuer: String
    /// Whether the server puts `iss` in every authorization response (RFC 8414's
    /// `authorization_response_iss_parameter_supported`): a response without one is then
    /// refused.
    public var sentInResponses: Bool

    public init(issuer: String, sentInResponses: Bool) {
        self.issuer = issuer
        self.sentInResponses = sentInResponses
    }
}
