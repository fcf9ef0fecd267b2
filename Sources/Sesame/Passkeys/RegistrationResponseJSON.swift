import Foundation

/// A new credential, as the client returns it to the relying party: `RegistrationResponseJSON`
/// (WebAuthn Level 3 §5.1, `PublicKeyCredential.toJSON()` of an attestation).
public struct RegistrationResponseJSON: Codable, Sendable, Hashable {
    /// The credential id, base64url (the same bytes as ``rawId``).
    public var id: String
    /// The credential id, base64url.
    public var rawId: String
    /// The authenticator's answer.
    public var response: AuthenticatorAttestationResponseJSON
    /// `platform` or `cross-platform`, when the client knows.
    public var authenticatorAttachment: String?
    /// The extensions' outputs: none.
    public var clientExtensionResults: AuthenticationExtensionsClientOutputsJSON
    /// `public-key`.
    public var type: String

    /// Makes a response.
    public init(
        id: String, rawId: String, response: AuthenticatorAttestationResponseJSON, authenticatorAttachment: String? = nil,
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

/// The authenticator's answer to a registration (`AuthenticatorAttestationResponseJSON`, §5.2.1).
public struct AuthenticatorAttestationResponseJSON: Codable, Sendable, Hashable {
    /// The client data the authenticator signed over (`type`, `challenge`, `origin`, …), base64url.
    public var clientDataJSON: String
    /// The authenticator data (§6.1), base64url: also inside ``attestationObject``.
    public var authenticatorData: String?
    /// How the client may reach the authenticator again.
    public var transports: [String]
    /// The credential's public key as a DER SubjectPublicKeyInfo, base64url, when the
    /// client can express it.
    public var publicKey: String?
    /// The credential's COSE algorithm identifier (-7: ES256).
    public var publicKeyAlgorithm: Int?
    /// The CBOR attestation object (`fmt`, `attStmt`, `authData`, §6.5), base64url.
    public var attestationObject: String

    /// Makes a response.
    public init(
        clientDataJSON: String, authenticatorData: String? = nil, transports: [String] = [], publicKey: String? = nil,
        publicKeyAlgorithm: Int? = nil, attestationObject: String
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.transports = transports
        self.publicKey = publicKey
        self.publicKeyAlgorithm = publicKeyAlgorithm
        self.attestationObject = attestationObject
    }

    private enum CodingKeys: String, CodingKey {
        case clientDataJSON, authenticatorData, transports, publicKey, publicKeyAlgorithm, attestationObject
    }

    /// Decodes the JSON form; `transports` defaults to none.
    /// - Throws: `DecodingError` when `clientDataJSON` or `attestationObject` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientDataJSON = try container.decode(String.self, forKey: .clientDataJSON)
        authenticatorData = try container.decodeIfPresent(String.self, forKey: .authenticatorData)
        transports = try container.decodeIfPresent([String].self, forKey: .transports) ?? []
        publicKey = try container.decodeIfPresent(String.self, forKey: .publicKey)
        publicKeyAlgorithm = try container.decodeIfPresent(Int.self, forKey: .publicKeyAlgorithm)
        attestationObject = try container.decode(String.self, forKey: .attestationObject)
    }
}

/// The outputs of client extensions (`AuthenticationExtensionsClientOutputsJSON`): Sesame's
/// providers run none, so it is always `{}`; members a client sends are ignored.
public struct AuthenticationExtensionsClientOutputsJSON: Codable, Sendable, Hashable {
    /// No outputs.
    public init() {}
}
