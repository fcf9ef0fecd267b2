#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import CryptoExtras
import Foundation

/// The reference server's ID token signing keys: one RSA key (RS256) and one P-256 key
/// (ES256), each with a random `kid`, made when the server first needs them and replaced
/// together by a rotation. The public halves are the JWKS (RFC 7517) at
/// ``DiscoveryRoutes/jwksPath``.
///
/// The server writes its JWS compact serializations itself (RFC 7515 §7.1) so that it can also
/// write the broken ones the control API asks for; the runtime never does (it validates with
/// jwt-kit).
struct OpenIDSigningKeys: Sendable {
    /// The algorithms the keys sign with, as the discovery document lists them.
    enum Algorithm: String, Codable, Sendable, CaseIterable {
        case rs256 = "RS256"
        case es256 = "ES256"
    }

    let rsa: _RSA.Signing.PrivateKey
    let rsaKeyID: String
    let ec: P256.Signing.PrivateKey
    let ecKeyID: String

    /// Two keys with fresh key ids: a fresh P-256 key, and an RSA key from the process's pool
    /// (``RSAKeyPool``), other than `previous`'s when given (a rotation changes the key).
    /// - Throws: when the RSA key cannot be made (BoringSSL failed).
    init(replacing previous: OpenIDSigningKeys? = nil) throws {
        rsa = try RSAKeyPool.shared.key(otherThan: previous?.rsa)
        rsaKeyID = "rsa-" + SecretGenerator.token().prefix(12)
        ec = P256.Signing.PrivateKey()
        ecKeyID = "ec-" + SecretGenerator.token().prefix(12)
    }

    /// The key id of the key that signs with `algorithm`.
    func keyID(for algorithm: Algorithm) -> String {
        switch algorithm {
        case .rs256: rsaKeyID
        case .es256: ecKeyID
        }
    }

    /// The JWKS document: both public keys, `use: sig`, with their `alg` and `kid`.
    func jwks() throws -> JSONValue {
        let primitives = try rsa.publicKey.getKeyPrimitives()
        let point = ec.publicKey.rawRepresentation  // x ‖ y, 32 bytes each
        return .object([
            "keys": .array([
                .object([
                    "kty": .string("RSA"), "use": .string("sig"), "alg": .string("RS256"), "kid": .string(rsaKeyID),
                    "n": .string(Base64URL.encode(primitives.modulus)), "e": .string(Base64URL.encode(primitives.publicExponent)),
                ]),
                .object([
                    "kty": .string("EC"), "use": .string("sig"), "alg": .string("ES256"), "kid": .string(ecKeyID), "crv": .string("P-256"),
                    "x": .string(Base64URL.encode(point.prefix(32))), "y": .string(Base64URL.encode(point.suffix(32))),
                ]),
            ])
        ])
    }

    /// `header.payload.signature`, signed with the key of `algorithm`; the header names `kid`
    /// (the key's own unless `keyID` says otherwise).
    func sign(_ claims: JSONValue, algorithm: Algorithm, keyID: String? = nil) throws -> String {
        let header: JSONValue = .object([
            "alg": .string(algorithm.rawValue), "typ": .string("JWT"), "kid": .string(keyID ?? self.keyID(for: algorithm)),
        ])
        let input = try Self.segment(header) + "." + Self.segment(claims)
        let signature: Data =
            switch algorithm {
            case .rs256: try rsa.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5).rawRepresentation
            case .es256: try ec.signature(for: Data(input.utf8)).rawRepresentation
            }
        return input + "." + Base64URL.encode(signature)
    }

    /// An unsecured JWS (RFC 7515 Appendix A.5): `alg: none` and an empty signature.
    static func unsigned(_ claims: JSONValue) throws -> String {
        try segment(.object(["alg": .string("none"), "typ": .string("JWT")])) + "." + segment(claims) + "."
    }

    /// `at_hash` (OpenID Connect Core §3.1.3.6): the left half of the SHA-256 of the access
    /// token's ASCII octets, base64url; both algorithms here hash with SHA-256.
    static func accessTokenHash(of accessToken: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))).prefix(16))
    }

    private static func segment(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Base64URL.encode(try encoder.encode(value))
    }
}

/// The RSA keys of every reference server in the process: at most ``capacity`` are made, then
/// they are handed out again in turn (each with a fresh key id). A 2,048-bit RSA key takes
/// about 0.3 s to make in a debug build, on one of the two threads every server of the process
/// shares (`ServerExecutor`): a test run that starts thirty OpenID providers stalled every
/// server for seconds. Keys made by a rotation or for the unknown-`kid` fault still differ from
/// the ones the server's JWKS lists (a new `kid`, and for a rotation a different key).
final class RSAKeyPool: @unchecked Sendable {
    static let shared = RSAKeyPool()
    static let capacity = 4

    // Guarded by `lock`.
    private let lock = NSLock()
    private var keys: [_RSA.Signing.PrivateKey] = []
    private var next = 0

    /// A key of the pool, never `excluded` (compared by public key). Made while holding the
    /// lock, so that servers starting together wait for one key rather than each making its
    /// own: at most `capacity` are ever made.
    func key(otherThan excluded: _RSA.Signing.PrivateKey? = nil) throws -> _RSA.Signing.PrivateKey {
        let excludedDER = excluded?.publicKey.derRepresentation
        return try lock.withLock {
            if keys.count == Self.capacity {
                for _ in 0..<keys.count {
                    let key = keys[next % keys.count]
                    next += 1
                    if key.publicKey.derRepresentation != excludedDER { return key }
                }
            }
            let made = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            if keys.count < Self.capacity { keys.append(made) }
            return made
        }
    }
}
