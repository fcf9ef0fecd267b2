import Crypto
import Foundation
import HTTPTypes
import JWTKit
@_spi(Generated) import Sesame

/// Makes DPoP proofs (RFC 9449 §4.2) with one ``DPoPKey``: compact JWS signed with ES256 by
/// jwt-kit, one per request.
///
/// The header is `typ` `dpop+jwt`, `alg` `ES256` and `jwk`, the key's public JWK (no
/// private member). The claims are `jti` (256 random bits, base64url: new for every proof),
/// `htm` (the method), `htu` (``targetURI(of:)``), `iat` (whole seconds since 1970, from the
/// signer's clock), and, when given, `ath` (``accessTokenHash(_:)``, for a request to a
/// resource server) and `nonce` (the server's latest, from ``DPoPNonces``).
public struct DPoPProofSigner: Sendable {
    /// The `DPoP` header field's name: a request carries its proof there (RFC 9449 §4.1).
    public static let headerFieldName = HTTPField.Name.dpop

    /// The key that signs the proofs.
    public let key: DPoPKey
    private let now: @Sendable () -> Date

    /// A signer with `key`, reading `iat` from `now` (the system's clock by default; tests
    /// pass a fixed one).
    public init(key: DPoPKey, now: @escaping @Sendable () -> Date = { Date() }) {
        self.key = key
        self.now = now
    }

    /// A proof for a `method` request to `url`; with `accessToken` for a request that
    /// presents that token (`ath`), and with the server's `nonce` when it asked for one.
    /// - Returns: the compact JWS, the value of the `DPoP` header field.
    /// - Throws: ``DPoPProofError/unsupportedURL`` when `url` is not an absolute http(s) URL
    ///   with a host; ``DPoPProofError/invalidNonce`` when `nonce` is empty or has a
    ///   character RFC 9449 §8.1 does not allow; ``DPoPProofError/signingFailed`` when jwt-kit
    ///   cannot sign.
    public func proof(
        method: HTTPRequest.Method, url: URL, accessToken: String? = nil, nonce: String? = nil
    ) async throws(DPoPProofError) -> String {
        guard let htu = Self.targetURI(of: url) else { throw .unsupportedURL }
        if let nonce, !DPoPNonces.isValidNonce(nonce) { throw .invalidNonce }
        let claims = DPoPProofClaims(
            jti: Self.randomJTI(), htm: method.rawValue, htu: htu,
            iat: Int(now().timeIntervalSince1970.rounded(.down)),
            ath: accessToken.map(Self.accessTokenHash), nonce: nonce)
        var header = JWTHeader()
        header.typ = "dpop+jwt"
        header.alg = "ES256"
        header.jwk = key.publicJWK.members.mapValues { .string($0) }
        do {
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try ES256PrivateKey(backing: key.privateKey), serializer: Self.serializer)
            return try await keys.sign(claims, header: header)
        } catch {
            throw .signingFailed
        }
    }

    /// The `ath` of `accessToken` (RFC 9449 §4.2): the SHA-256 of its bytes (an access token
    /// is ASCII; its UTF-8 bytes are hashed), base64url without padding.
    public static func accessTokenHash(_ accessToken: String) -> String {
        SHA256.hash(data: Data(accessToken.utf8)).base64URLEncodedWithoutPadding
    }

    /// A new `jti`: 32 bytes from the system's secure random generator, base64url.
    static func randomJTI() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
            .base64URLEncodedWithoutPadding
    }

    /// The claims' JSON: sorted keys (deterministic for a given input) and `/` unescaped.
    private static let serializer: DefaultJWTSerializer = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return DefaultJWTSerializer(jsonEncoder: encoder)
    }()
}

/// Why ``DPoPProofSigner/proof(method:url:accessToken:nonce:)`` made no proof.
public enum DPoPProofError: Error, Sendable, Hashable {
    /// The URL is not an absolute `http` or `https` URL with a host.
    case unsupportedURL
    /// The nonce is empty, longer than ``DPoPNonces/maximumNonceLength``, or has a character
    /// outside RFC 9449 §8.1's `NQCHAR`.
    case invalidNonce
    /// jwt-kit could not sign the proof.
    case signingFailed
}

/// A proof's claims (RFC 9449 §4.2).
struct DPoPProofClaims: JWTPayload {
    var jti: String
    var htm: String
    var htu: String
    var iat: Int
    var ath: String?
    var nonce: String?

    /// A proof is checked by the server, not here.
    func verify(using algorithm: some JWTAlgorithm) throws {}
}
