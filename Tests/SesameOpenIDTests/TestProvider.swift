import CryptoExtras
import Foundation
import JWTKit
import Sesame
import SesameOpenID
import SesameTestSupport

/// An OpenID provider made in the test: RSA and P-256 keys generated with swift-crypto, the
/// JWKS that publishes them, and ID tokens signed with them by jwt-kit.
struct TestProvider: Sendable {
    static let issuer = "https://id.example.com"
    static let clientID = "app"
    /// The tests' clock.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let rsa: JWTKit.Insecure.RSA.PrivateKey
    let otherRSA: JWTKit.Insecure.RSA.PrivateKey
    let ec: ES256PrivateKey

    /// The keys, generated once for every test (RSA generation is slow in a debug build, so it
    /// runs off the cooperative pool).
    static func make() async throws -> TestProvider {
        try await shared.value
    }

    private static let shared = Task {
        try await onOwnThread {
            TestProvider(
                rsa: try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048)),
                otherRSA: try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048)),
                ec: ES256PrivateKey())
        }
    }

    /// The JWKS publishing `rsa` as `rsa-1` (RS256), `rsa` again as `pss-1` (PS256) and `ec`
    /// as `ec-1` (ES256), or only the keys named in `kids`.
    func jwks(_ kids: Set<String> = ["rsa-1", "pss-1", "ec-1"], rsaKey: JWTKit.Insecure.RSA.PrivateKey? = nil) throws -> Data {
        let (n, e) = try (rsaKey ?? rsa).publicKey.getKeyPrimitives()
        let (x, y) = ec.publicKey.parameters!
        let all: [String: [String: String]] = [
            "rsa-1": ["kty": "RSA", "alg": "RS256", "use": "sig", "kid": "rsa-1", "n": n.base64URL, "e": e.base64URL],
            "pss-1": ["kty": "RSA", "alg": "PS256", "kid": "pss-1", "n": n.base64URL, "e": e.base64URL],
            "ec-1": ["kty": "EC", "alg": "ES256", "crv": "P-256", "kid": "ec-1", "x": x, "y": y],
        ]
        return try JSONEncoder().encode(["keys": kids.sorted().compactMap { all[$0] }])
    }

    /// The claims of a token that passes every rule with `nonce: "n-0S6_WzA2Mj"`.
    static func claims(_ changes: [String: JSONValue] = [:]) -> [String: JSONValue] {
        let now = Self.now.timeIntervalSince1970
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string("user-1"), "aud": .string(clientID), "exp": .number(now + 300),
            "iat": .number(now - 10), "nonce": .string("n-0S6_WzA2Mj"), "auth_time": .number(now - 60), "acr": .string("urn:acr:pwd"),
        ]
        for (name, value) in changes { claims[name] = value == .null ? nil : value }
        return claims
    }

    /// `claims` signed with `alg` under `kid` (RS256 and PS256 with `key`, default `rsa`;
    /// ES256 with `ec`; HS256 with a shared secret), with `headerFields` added to the
    /// protected header.
    func sign(
        _ claims: [String: JSONValue] = Self.claims(), alg: String = "RS256", kid: String? = "rsa-1",
        key: JWTKit.Insecure.RSA.PrivateKey? = nil, headerFields: [String: JWTHeaderField] = [:]
    ) async throws -> String {
        let signers = JWTKeyCollection()
        let id = kid.map { JWKIdentifier(string: $0) }
        switch alg {
        case "RS256": await signers.add(rsa: key ?? rsa, digestAlgorithm: .sha256, kid: id)
        case "PS256": await signers.add(pss: key ?? rsa, digestAlgorithm: .sha256, kid: id)
        case "ES256": await signers.add(ecdsa: ec, kid: id)
        default: await signers.add(hmac: HMACKey(from: "a client secret of thirty-two bytes or more"), digestAlgorithm: .sha256, kid: id)
        }
        var header = JWTHeader(fields: headerFields)
        header.alg = alg
        return try await signers.sign(Payload(claims: claims), kid: id, header: header)
    }

    /// An unsigned token (`alg: none`, RFC 7519 §6) with `kid`.
    static func unsecured(_ claims: [String: JSONValue] = Self.claims(), kid: String = "rsa-1") throws -> String {
        let header = try JSONEncoder().encode(["alg": "none", "kid": kid]).base64URL
        return "\(header).\(try JSONEncoder().encode(claims).base64URL)."
    }

    private struct Payload: JWTPayload {
        var claims: [String: JSONValue]
        func encode(to encoder: any Encoder) throws { try claims.encode(to: encoder) }
        init(claims: [String: JSONValue]) { self.claims = claims }
        init(from decoder: any Decoder) throws { claims = try [String: JSONValue](from: decoder) }
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

extension Data {
    /// base64url without padding (RFC 7515 §2).
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Counts the fetches of a JWKS whose document the test can change.
final class KeyServer: @unchecked Sendable {
    private let lock = NSLock()
    private var document: Data
    private var failing = false

    init(_ document: Data) { self.document = document }

    func publish(_ document: Data) { lock.withLock { self.document = document } }
    func fail() { lock.withLock { failing = true } }

    var cache: JWKSCache { JWKSCache(fetch: fetch) }

    /// The document, or a failure once ``fail()`` was called.
    @Sendable func fetch() throws -> Data {
        try lock.withLock {
            if failing { throw URLError(.cannotConnectToHost) }
            return document
        }
    }
}
