import Foundation
import JWTKit
import Sesame

/// The claims of an ID token that passed every rule (OpenID Connect Core §2): the ones the
/// rules read, typed, and all of them as JSON for a model the schema declares.
public struct IDTokenClaims: Sendable, Hashable {
    /// `iss`: the provider that issued the token.
    public var issuer: String
    /// `sub`: the user's identifier at that provider.
    public var subject: String
    /// `aud`: the clients the token is for.
    public var audience: [String]
    /// `exp`.
    public var expiresAt: Date
    /// `iat`.
    public var issuedAt: Date
    /// `auth_time`, when present.
    public var authenticatedAt: Date?
    /// `acr`, when present.
    public var authenticationContext: String?
    /// `amr`, when present.
    public var authenticationMethods: [String]?
    /// Every claim of the payload, as JSON.
    public var all: [String: JSONValue]
}

/// The payload as jwt-kit decodes it once the signature verified. The rules are checked by
/// ``IDTokenValidator`` (each with its own rejection), not in `verify(using:)`.
struct IDTokenPayload: JWTPayload {
    var iss: String
    var sub: String
    var aud: AudienceClaim
    var exp: Double
    var iat: Double
    var nonce: String?
    var azp: String?
    var atHash: String?
    var authTime: Double?
    var acr: String?
    var amr: [String]?
    var all: [String: JSONValue]

    private enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, azp, acr, amr
        case atHash = "at_hash"
        case authTime = "auth_time"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = try container.decode(String.self, forKey: .iss)
        sub = try container.decode(String.self, forKey: .sub)
        aud = try container.decode(AudienceClaim.self, forKey: .aud)
        exp = try container.decode(Double.self, forKey: .exp)
        iat = try container.decode(Double.self, forKey: .iat)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        azp = try container.decodeIfPresent(String.self, forKey: .azp)
        atHash = try container.decodeIfPresent(String.self, forKey: .atHash)
        authTime = try container.decodeIfPresent(Double.self, forKey: .authTime)
        acr = try container.decodeIfPresent(String.self, forKey: .acr)
        amr = try container.decodeIfPresent([String].self, forKey: .amr)
        all = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(all)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}

    var claims: IDTokenClaims {
        IDTokenClaims(
            issuer: iss, subject: sub, audience: aud.value, expiresAt: Date(timeIntervalSince1970: exp),
            issuedAt: Date(timeIntervalSince1970: iat), authenticatedAt: authTime.map(Date.init(timeIntervalSince1970:)),
            authenticationContext: acr, authenticationMethods: amr, all: all)
    }
}

/// Any payload: reading the header before the signature is checked decodes nothing else.
struct UncheckedPayload: JWTPayload {
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
