/// The operations the authentication service calls itself.
@_spi(Generated) public struct LifecycleDescription: Sendable, Hashable {
    public var signOut: RequestDescription?
    public var detachIdentity: RequestDescription?
    public var destroyAccount: RequestDescription?
    /// The RFC 7009 revocation request sent at sign-out, after `signOut` (which still
    /// needs the credential the revocation ends). Skipped when one of its fields uses
    /// `{refreshToken}` and the session has none.
    public var revocation: RevocationDescription?

    public init(
        signOut: RequestDescription? = nil, detachIdentity: RequestDescription? = nil,
        destroyAccount: RequestDescription? = nil, revocation: RevocationDescription? = nil
    ) {
        self.signOut = signOut
        self.detachIdentity = detachIdentity
        self.destroyAccount = destroyAccount
        self.revocation = revocation
    }
}

/// A token revocation request (RFC 7009 §2.1) that sign-out sends: usually form-encoded,
/// with client authentication, `token={refreshToken}` and `token_type_hint`.
@_spi(Generated) public struct RevocationDescription: Sendable, Hashable {
    public var request: RequestDescription
    /// The body fields; templates may use `{refreshToken}` and `{accessToken}`.
    public var fields: [TemplateField]

    public init(request: RequestDescription, fields: [TemplateField]) {
        self.request = request
        self.fields = fields
    }
}
