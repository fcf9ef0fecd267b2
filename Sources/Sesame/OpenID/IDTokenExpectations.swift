import Foundation

/// What one ID token is checked against besides the provider's configuration: the values of
/// the request that obtained it. A sign-in sets ``nonce`` (and ``maxAge`` and ``acrValues``
/// when it asked them);
/// a refresh sets ``subject`` and no nonce (OpenID Connect Core §12.2).
public struct IDTokenExpectations: Sendable, Hashable {
    /// The `nonce` the authorization request sent; nil checks none (a refresh).
    public var nonce: String?
    /// The access token issued with the ID token, for `at_hash` when the token has one.
    public var accessToken: String?
    /// The `max_age` the authorization request asked; `auth_time` is then required.
    public var maxAge: Duration?
    /// The `acr_values` the authorization request asked (RFC 9470 step-up): the token's `acr`
    /// must be one of them. Empty checks none.
    public var acrValues: [String]
    /// The `sub` of the ID token the session already holds; the new one must be the same.
    public var subject: String?
    /// The ID token the session already holds (a refresh): the new one must have its `sub`
    /// (OpenID Connect Core §12.2). It was validated when it was received.
    public var previousIDToken: String?

    /// Expectations for a token obtained with these values.
    public init(
        nonce: String? = nil, accessToken: String? = nil, maxAge: Duration? = nil, subject: String? = nil,
        previousIDToken: String? = nil, acrValues: [String] = []
    ) {
        self.acrValues = acrValues
        self.previousIDToken = previousIDToken
        self.nonce = nonce
        self.accessToken = accessToken
        self.maxAge = maxAge
        self.subject = subject
    }
}
