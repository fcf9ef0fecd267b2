import Foundation

/// The options of an assertion (a sign-in), as a relying party sends them to the client:
/// `PublicKeyCredentialRequestOptionsJSON` (WebAuthn Level 3 §5.1.1.2, the JSON form of
/// §5.5). Empty ``allowCredentials`` asks for a discoverable credential.
public struct PublicKeyCredentialRequestOptionsJSON: Codable, Sendable, Hashable {
    /// The relying party's challenge, base64url: at least 16 random bytes, used once.
    public var challenge: String
    /// How long the relying party waits, in milliseconds; a hint.
    public var timeout: UInt32?
    /// The RP ID; the client's effective domain when nil.
    public var rpId: String?
    /// The credentials that may answer, most preferred first; empty lets the authenticator
    /// pick a discoverable credential of the RP ID.
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]
    /// `required`, `preferred` (the default) or `discouraged`.
    public var userVerification: String
    /// Hints about the user interface.
    public var hints: [String]

    /// Makes options; every parameter with a default has the specification's.
    public init(
        challenge: String,
        timeout: UInt32? = nil,
        rpId: String? = nil,
        allowCredentials: [PublicKeyCredentialDescriptorJSON] = [],
        userVerification: String = "preferred",
        hints: [String] = []
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.hints = hints
    }

    private enum CodingKeys: String, CodingKey {
        case challenge, timeout, rpId, allowCredentials, userVerification, hints
    }

    /// Decodes the JSON form; absent members take their defaults.
    /// - Throws: `DecodingError` when `challenge` is missing or a member is of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        challenge = try container.decode(String.self, forKey: .challenge)
        timeout = try container.decodeIfPresent(UInt32.self, forKey: .timeout)
        rpId = try container.decodeIfPresent(String.self, forKey: .rpId)
        allowCredentials = try container.decodeIfPresent([PublicKeyCredentialDescriptorJSON].self, forKey: .allowCredentials) ?? []
        userVerification = try container.decodeIfPresent(String.self, forKey: .userVerification) ?? "preferred"
        hints = try container.decodeIfPresent([String].self, forKey: .hints) ?? []
    }
}
