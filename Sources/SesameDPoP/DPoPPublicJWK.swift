import Crypto
import Foundation

/// A P-256 public key as a JSON Web Key (RFC 7517; RFC 7518 §6.2.1): `kty` `EC`, `crv`
/// `P-256`, and the point's coordinates `x` and `y`. It has no private member.
public struct DPoPPublicJWK: Sendable, Hashable, Codable {
    /// The key type, `EC`.
    public var keyType: String { "EC" }
    /// The curve, `P-256`.
    public var curve: String { "P-256" }
    /// The x coordinate, 32 bytes in base64url without padding.
    public let x: String
    /// The y coordinate, 32 bytes in base64url without padding.
    public let y: String

    init(x: String, y: String) {
        self.x = x
        self.y = y
    }

    /// The JWK's members by name (`kty`, `crv`, `x`, `y`).
    public var members: [String: String] { ["kty": keyType, "crv": curve, "x": x, "y": y] }

    /// The JWK SHA-256 thumbprint (RFC 7638 §3): SHA-256 of the required members in
    /// lexicographic order without whitespace, `{"crv":"P-256","kty":"EC","x":"…","y":"…"}`,
    /// in base64url without padding. (`x` and `y` are base64url, so nothing needs escaping.)
    public var thumbprint: String {
        let canonical = #"{"crv":"\#(curve)","kty":"\#(keyType)","x":"\#(x)","y":"\#(y)"}"#
        return SHA256.hash(data: Data(canonical.utf8)).base64URLEncodedWithoutPadding
    }

    private enum CodingKeys: String, CodingKey {
        case kty, crv, x, y
    }

    /// Decodes a JWK with `kty` `EC` and `crv` `P-256`; other members are ignored.
    /// - Throws: `DecodingError` when a member is missing, or `kty` or `crv` differs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kty = try container.decode(String.self, forKey: .kty)
        let crv = try container.decode(String.self, forKey: .crv)
        guard kty == "EC", crv == "P-256" else {
            throw DecodingError.dataCorruptedError(forKey: .crv, in: container, debugDescription: "not a P-256 EC key")
        }
        x = try container.decode(String.self, forKey: .x)
        y = try container.decode(String.self, forKey: .y)
    }

    /// Encodes the four members.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keyType, forKey: .kty)
        try container.encode(curve, forKey: .crv)
        try container.encode(x, forKey: .x)
        try container.encode(y, forKey: .y)
    }
}
