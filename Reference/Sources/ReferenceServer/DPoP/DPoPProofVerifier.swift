#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation
import JWTKit

/// A DPoP proof whose header and signature verified (RFC 9449 §4.3 checks 1 to 9): what the
/// server's state still judges (the `iat` window, `jti` replay, `ath`, the nonce).
struct VerifiedDPoPProof: Sendable {
    /// The RFC 7638 SHA-256 thumbprint of the proof's public key: the `cnf.jkt` of the
    /// tokens it binds.
    var thumbprint: String
    var jti: String
    var issuedAt: Date
    var accessTokenHash: String?
    var nonce: String?
}

/// Why a proof was refused or a request needs a new one; the reason never holds the proof.
enum DPoPFailure: Error, Sendable, Equatable {
    /// The proof is malformed, mis-signed, for another request, outside its window, a
    /// replay, or for another access token or key (`invalid_dpop_proof`).
    case invalidProof(String)
    /// The proof lacks the server's current nonce (`use_dpop_nonce`).
    case useNonce
    /// A resource's access token is unknown, dead, or not bound to the proof's key
    /// (`invalid_token` in a `DPoP` challenge).
    case invalidToken(String)
}

/// Checks a proof's form, header and signature (RFC 9449 §4.3): one well-formed JWS whose
/// `typ` is `dpop+jwt`, whose `alg` is ES256, whose `jwk` is a public P-256 key (no private
/// member) that verifies the signature, and whose `htm` and `htu` are the request's. jwt-kit
/// parses and verifies the JWS; swift-crypto hashes the thumbprint.
enum DPoPProofVerifier {
    /// The longest proof read.
    static let maximumLength = 8192

    struct Claims: JWTPayload {
        var jti: String
        var htm: String
        var htu: String
        var iat: Double
        var ath: String?
        var nonce: String?
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// The JWK members that only a private key has (RFC 7518 §6.2.2, §6.3.2, §6.4.1).
    static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// Verifies `proof` for a request of `method` to `targetURI` (the request's URL without
    /// query and fragment). Throws ``DPoPFailure/invalidProof(_:)`` saying which check failed.
    static func verify(_ proof: String, method: String, targetURI: String) async throws(DPoPFailure) -> VerifiedDPoPProof {
        guard proof.utf8.count <= maximumLength else { throw .invalidProof("The DPoP proof is too long.") }
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(Array(proof.utf8), as: Claims.self).header
        } catch {
            throw .invalidProof("The DPoP proof is not a JWT with the claims jti, htm, htu and iat.")
        }
        guard header.typ == "dpop+jwt" else { throw .invalidProof("The DPoP proof's typ is not dpop+jwt.") }
        guard let alg = header.alg, ReferenceServer.DPoPOptions.algorithms.contains(alg) else {
            throw .invalidProof("The DPoP proof's alg is not one the server accepts.")
        }
        guard let jwk = header.jwk else { throw .invalidProof("The DPoP proof's header has no jwk.") }
        guard privateMembers.isDisjoint(with: jwk.keys) else {
            throw .invalidProof("The DPoP proof's jwk holds a private key.")
        }
        guard jwk["kty"]?.asString == "EC", jwk["crv"]?.asString == "P-256", let x = jwk["x"]?.asString,
            let y = jwk["y"]?.asString
        else { throw .invalidProof("The DPoP proof's jwk is not a P-256 public key.") }
        let claims: Claims
        do {
            let key = try ES256PublicKey(parameters: (x, y))
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: key)
            claims = try await keys.verify(proof, as: Claims.self)
        } catch {
            throw .invalidProof("The DPoP proof's signature does not verify with its jwk.")
        }
        guard claims.htm == method else { throw .invalidProof("The DPoP proof's htm is not the request's method.") }
        guard let htu = normalizedTargetURI(claims.htu), htu == normalizedTargetURI(targetURI) else {
            throw .invalidProof("The DPoP proof's htu is not the request's URI.")
        }
        guard claims.iat.isFinite else { throw .invalidProof("The DPoP proof's iat is not a time.") }
        return VerifiedDPoPProof(
            thumbprint: thumbprint(x: x, y: y),
            jti: claims.jti,
            issuedAt: Date(timeIntervalSince1970: claims.iat),
            accessTokenHash: claims.ath,
            nonce: claims.nonce
        )
    }

    /// The RFC 7638 thumbprint of a P-256 public key: SHA-256 of its required members in
    /// lexicographic order, without whitespace, in base64url without padding.
    static func thumbprint(x: String, y: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(#"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#.utf8))))
    }

    /// `ath` (RFC 9449 §4.2): SHA-256 of the access token's ASCII bytes, base64url.
    static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8))))
    }

    /// A URI as `htu` is compared (RFC 9449 §4.3 check 9, RFC 3986 §6.2.2–6.2.3): without
    /// query and fragment, scheme and host lowercased, the scheme's default port left out,
    /// an empty path `/`. Nil for a URI that is not absolute `http(s)` with a host.
    static func normalizedTargetURI(_ uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.percentEncodedHost?.lowercased(), !host.isEmpty,
            components.percentEncodedUser == nil
        else { return nil }
        var port = ""
        if let value = components.port, value != (scheme == "https" ? 443 : 80) { port = ":\(value)" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return "\(scheme)://\(host)\(port)\(path)"
    }
}
