import Foundation

/// An assertion, as the client returns it to the relying party: `AuthenticationResponseJSON`
/// (WebAuthn Level 3 §5.1, `PublicKeyCredential.toJSON()` of an assertion).
public struct AuthenticationResponseJSON: Codable, Sendable, Hashable {
    /// The credential id, base64url (the same bytes as ``rawId``).
    public var id: String
    /// The credential id, base64url.
    public var rawId: String
    /// The authenticator's answer.
    public var response: AuthenticatorAssertionResponseJSON
    /// `platform` or `cross-platform`, when the client knows.
    public var authenticatorAttachment: String?
    /// The extensions' outputs: none.
    public var clientExtensionResults: AuthenticationExtensionsClientOutputsJSON
    /// `public-key`.
    public var type: String

    /// Makes a response.
    public init(
        id: String, rawId: String, response: AuthenticatorAssertionResponseJSON, authenticatorAttachment: String? = nil,
        clientExtensionResults: AuthenticationExtensionsClientOutputsJSON = .init(), type: String = "public-key"
    ) {
        self.id = id
        self.rawId = rawId
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
        self.type = type
    }
}

/// The authenticator's answer to an assertion (`AuthenticatorAssertionResponseJSON`, §5.2.2).
public struct AuthenticatorAssertionResponseJSON: Codable, Sendable, Hashable {
    /// The client data the authenticator signed over, base64url.
    public var clientDataJSON: String
    /// The authenticator data (§6.1), base64url.
    public var authenticatorData: String
    /// The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`, base64url (ES256:
    /// an ASN.1 DER ECDSA signature).
    public var signature: String
    /// The user handle of the credential's account, base64url; present for discoverable
    /// credentials.
    public var userHandle: String?

    /// Makes a response.
    public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}
