import Foundation

/// The options of a registration, as a relying party sends them to the client:
/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3 §5.1.1.1, the JSON form of
/// §5.4). Binary members are base64url strings without padding.
///
/// Members the specification gives defaults to decode to those defaults when absent.
/// Extensions are not read: a ``PasskeyProvider`` signs none.
public struct PublicKeyCredentialCreationOptionsJSON: Codable, Sendable, Hashable {
    /// The relying party: its name, and its RP ID (the client's effective domain when nil).
    public var rp: PublicKeyCredentialRpEntity
    /// The account the credential is for.
    public var user: PublicKeyCredentialUserEntityJSON
    /// The relying party's challenge, base64url: at least 16 random bytes, used once.
    public var challenge: String
    /// The key types and algorithms the relying party accepts, most preferred first (COSE
    /// algorithm identifiers: -7 is ES256). Empty means ES256 or RS256 (§5.4).
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// How long the relying party waits, in milliseconds; a hint.
    public var timeout: UInt32?
    /// Credentials the account already has: an authenticator that holds one refuses.
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]
    /// What the authenticator must be (attachment, discoverable key, user verification).
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    /// Hints about the user interface (`security-key`, `client-device`, `hybrid`).
    public var hints: [String]
    /// The attestation conveyance the relying party prefers; `none` by default.
    public var attestation: String

    /// Makes options; every parameter with a default has the specification's.
    public init(
        rp: PublicKeyCredentialRpEntity,
        user: PublicKeyCredentialUserEntityJSON,
        challenge: String,
        pubKeyCredParams: [PublicKeyCredentialParameters] = [.es256],
        timeout: UInt32? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptorJSON] = [],
        authenticatorSelection: AuthenticatorSelectionCriteria? = nil,
        hints: [String] = [],
        attestation: String = "none"
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.hints = hints
        self.attestation = attestation
    }

    private enum CodingKeys: String, CodingKey {
        case rp, user, challenge, pubKeyCredParams, timeout, excludeCredentials, authenticatorSelection, hints, attestation
    }

    /// Decodes the JSON form; absent members take their defaults.
    /// - Throws: `DecodingError` when a required member is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rp = try container.decode(PublicKeyCredentialRpEntity.self, forKey: .rp)
        user = try container.decode(PublicKeyCredentialUserEntityJSON.self, forKey: .user)
        challenge = try container.decode(String.self, forKey: .challenge)
        pubKeyCredParams = try container.decode([PublicKeyCredentialParameters].self, forKey: .pubKeyCredParams)
        timeout = try container.decodeIfPresent(UInt32.self, forKey: .timeout)
        excludeCredentials = try container.decodeIfPresent([PublicKeyCredentialDescriptorJSON].self, forKey: .excludeCredentials) ?? []
        authenticatorSelection = try container.decodeIfPresent(AuthenticatorSelectionCriteria.self, forKey: .authenticatorSelection)
        hints = try container.decodeIfPresent([String].self, forKey: .hints) ?? []
        attestation = try container.decodeIfPresent(String.self, forKey: .attestation) ?? "none"
    }
}

/// The relying party of a registration (`PublicKeyCredentialRpEntity`, §5.4.2).
public struct PublicKeyCredentialRpEntity: Codable, Sendable, Hashable {
    /// A name to show the user.
    public var name: String
    /// The RP ID: a domain, the origin's host or a registrable suffix of it; the client's
    /// effective domain when nil.
    public var id: String?

    /// Makes the entity.
    public init(name: String, id: String? = nil) {
        self.name = name
        self.id = id
    }
}

/// The account of a registration (`PublicKeyCredentialUserEntityJSON`, §5.4.3).
public struct PublicKeyCredentialUserEntityJSON: Codable, Sendable, Hashable {
    /// The user handle, base64url: 1 to 64 opaque bytes that name no one (no e-mail).
    public var id: String
    /// The account's name (a user name or e-mail), shown to pick an account.
    public var name: String
    /// A friendlier name to show.
    public var displayName: String

    /// Makes the entity.
    public init(id: String, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

/// A key type and algorithm (`PublicKeyCredentialParameters`, §5.3).
public struct PublicKeyCredentialParameters: Codable, Sendable, Hashable {
    /// `public-key`, the only type.
    public var type: String
    /// A COSE algorithm identifier (-7: ES256, -257: RS256, -8: EdDSA).
    public var alg: Int

    /// Makes the parameters.
    public init(type: String = "public-key", alg: Int) {
        self.type = type
        self.alg = alg
    }

    /// ES256: ECDSA over P-256 with SHA-256 (COSE -7), the one algorithm Sesame's
    /// authenticator and the reference server use.
    public static let es256 = PublicKeyCredentialParameters(alg: -7)
}

/// A credential named by its id (`PublicKeyCredentialDescriptorJSON`, §5.10.3).
public struct PublicKeyCredentialDescriptorJSON: Codable, Sendable, Hashable {
    /// The credential id, base64url.
    public var id: String
    /// `public-key`.
    public var type: String
    /// How the client may reach its authenticator (`internal`, `usb`, `nfc`, `ble`, `hybrid`).
    public var transports: [String]?

    /// Makes a descriptor.
    public init(id: String, type: String = "public-key", transports: [String]? = nil) {
        self.id = id
        self.type = type
        self.transports = transports
    }
}

/// What the authenticator of a registration must be (`AuthenticatorSelectionCriteria`, §5.4.4).
public struct AuthenticatorSelectionCriteria: Codable, Sendable, Hashable {
    /// `platform` or `cross-platform`; any when nil.
    public var authenticatorAttachment: String?
    /// `discouraged`, `preferred` or `required`: whether the credential is discoverable.
    public var residentKey: String?
    /// WebAuthn Level 1's form of `residentKey: required`.
    public var requireResidentKey: Bool
    /// `required`, `preferred` (the default) or `discouraged`.
    public var userVerification: String

    /// Makes criteria; the defaults are the specification's.
    public init(
        authenticatorAttachment: String? = nil, residentKey: String? = nil, requireResidentKey: Bool = false,
        userVerification: String = "preferred"
    ) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }

    private enum CodingKeys: String, CodingKey {
        case authenticatorAttachment, residentKey, requireResidentKey, userVerification
    }

    /// Decodes the JSON form; absent members take their defaults.
    /// - Throws: `DecodingError` when a member is of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        authenticatorAttachment = try container.decodeIfPresent(String.self, forKey: .authenticatorAttachment)
        residentKey = try container.decodeIfPresent(String.self, forKey: .residentKey)
        requireResidentKey = try container.decodeIfPresent(Bool.self, forKey: .requireResidentKey) ?? false
        userVerification = try container.decodeIfPresent(String.self, forKey: .userVerification) ?? "preferred"
    }

    /// Whether the credential must or should be discoverable (§5.4.4: `residentKey`, or
    /// `requireResidentKey` when `residentKey` is absent).
    public var wantsDiscoverableCredential: Bool {
        switch residentKey {
        case "required", "preferred": return true
        case "discouraged": return false
        default: return requireResidentKey
        }
    }
}
