// The JSON bodies of `/passkeys/*`: WebAuthn Level 3's JSON forms (§5.1), as far as the
// server writes and reads them. Binary members are unpadded base64url strings.

/// `PublicKeyCredentialCreationOptionsJSON`, as `POST /passkeys/register/options` answers it.
struct PasskeyCreationOptions: Codable, Sendable {
    struct RelyingParty: Codable, Sendable {
        var name: String
        var id: String
    }
    struct User: Codable, Sendable {
        var id: String
        var name: String
        var displayName: String
    }
    struct Parameters: Codable, Sendable {
        var type = "public-key"
        var alg: Int
    }
    struct Selection: Codable, Sendable {
        var residentKey: String
        var requireResidentKey: Bool
        var userVerification: String
    }
    var rp: RelyingParty
    var user: User
    var challenge: String
    var pubKeyCredParams: [Parameters]
    var timeout: Int
    var excludeCredentials: [PasskeyDescriptor]
    var authenticatorSelection: Selection
    var attestation: String
}

/// `PublicKeyCredentialRequestOptionsJSON`, as `POST /passkeys/signin/options` answers it.
struct PasskeyRequestOptions: Codable, Sendable {
    var challenge: String
    var timeout: Int
    var rpId: String
    var allowCredentials: [PasskeyDescriptor]
    var userVerification: String
}

/// `PublicKeyCredentialDescriptorJSON`.
struct PasskeyDescriptor: Codable, Sendable {
    var id: String
    var type = "public-key"
}

/// `RegistrationResponseJSON`, the body of `POST /passkeys/register` (members the server
/// does not read are ignored).
struct PasskeyRegistrationBody: Decodable, Sendable {
    struct Response: Decodable, Sendable {
        var clientDataJSON: String
        var attestationObject: String
    }
    var id: String
    var rawId: String
    var type: String
    var response: Response
}

/// `AuthenticationResponseJSON`, the body of `POST /passkeys/signin`.
struct PasskeyAuthenticationBody: Decodable, Sendable {
    struct Response: Decodable, Sendable {
        var clientDataJSON: String
        var authenticatorData: String
        var signature: String
        var userHandle: String?
    }
    var id: String
    var rawId: String
    var type: String
    var response: Response
}

/// The answer of `POST /passkeys/register` that adds a passkey to the signed-in account.
struct PasskeyRegistered: Codable, Sendable {
    var credentialId: String
    var uid: String
}
