import Crypto
import Foundation
import HTTPTypes
import JWTKit
import SesameDPoP
import Testing

@Suite struct DPoPProofSignerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.75)
    let key = DPoPKey()
    var signer: DPoPProofSigner { DPoPProofSigner(key: key, now: { Self.now }) }

    /// The claims as the tests read them: every member optional, nothing shared with the
    /// signer's own type.
    struct Claims: JWTPayload, Equatable {
        var jti: String?
        var htm: String?
        var htu: String?
        var iat: Int?
        var ath: String?
        var nonce: String?
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// The proof's header and claims as JSON objects.
    func parts(_ proof: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let segments = proof.split(separator: ".", omittingEmptySubsequences: false)
        try #require(segments.count == 3)
        let header = try JSONSerialization.jsonObject(with: base64URLDecoded(segments[0])) as? [String: Any]
        let claims = try JSONSerialization.jsonObject(with: base64URLDecoded(segments[1])) as? [String: Any]
        return (try #require(header), try #require(claims))
    }

    /// The key's public key, from swift-crypto rather than the proof or the JWK.
    func publicKey(of key: DPoPKey) throws -> ES256PublicKey {
        try ES256PublicKey(backing: P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation).publicKey)
    }

    @Test func theProofVerifiesWithTheKeysPublicKey() async throws {
        let proof = try await signer.proof(method: .post, url: URL(string: "https://server.example.com/token")!)
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try publicKey(of: key))
        let claims = try await keys.verify(proof, as: Claims.self)
        #expect(claims.htm == "POST")
        #expect(claims.htu == "https://server.example.com/token")
    }

    @Test func theProofVerifiesWithTheJWKInItsHeader() async throws {
        let proof = try await signer.proof(method: .get, url: URL(string: "https://resource.example.org/protected")!)
        let jwk = try #require(parts(proof).header["jwk"] as? [String: String])
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(parameters: (try #require(jwk["x"]), try #require(jwk["y"]))))
        _ = try await keys.verify(proof, as: Claims.self)
    }

    @Test func anotherKeyDoesNotVerifyIt() async throws {
        let proof = try await signer.proof(method: .get, url: URL(string: "https://resource.example.org/")!)
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try publicKey(of: DPoPKey()))
        await #expect(throws: JWTError.self) { _ = try await keys.verify(proof, as: Claims.self) }
    }

    @Test func theFieldNamesAreTheRFCs() {
        #expect(DPoPProofSigner.headerFieldName.rawName == "DPoP")
        #expect(DPoPNonces.headerFieldName.rawName == "DPoP-Nonce")
    }

    @Test func theHeaderIsTypAlgAndThePublicJWK() async throws {
        let proof = try await signer.proof(method: .post, url: URL(string: "https://server.example.com/token")!)
        let header = try parts(proof).header
        #expect(Set(header.keys) == ["typ", "alg", "jwk"])
        #expect(header["typ"] as? String == "dpop+jwt")
        #expect(header["alg"] as? String == "ES256")
        let jwk = try #require(header["jwk"] as? [String: String])
        #expect(jwk == ["kty": "EC", "crv": "P-256", "x": key.publicJWK.x, "y": key.publicJWK.y])
        #expect(jwk["d"] == nil)
        // Nothing of the private key anywhere in the proof.
        let raw = key.rawRepresentation
        let rawBase64URL = raw.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(!proof.contains(rawBase64URL))
        #expect(!String(decoding: try base64URLDecoded(proof.split(separator: ".")[0]), as: UTF8.self).contains(rawBase64URL))
    }

    @Test func theClaimsAreTheRequestsWithoutAthOrNonce() async throws {
        let proof = try await signer.proof(method: .post, url: URL(string: "https://server.example.com/token?x=1#f")!)
        let claims = try parts(proof).claims
        #expect(Set(claims.keys) == ["jti", "htm", "htu", "iat"])
        #expect(claims["htm"] as? String == "POST")
        #expect(claims["htu"] as? String == "https://server.example.com/token")
        // Whole seconds from the injected clock, rounded down.
        #expect(claims["iat"] as? Int == 1_800_000_000)
    }

    @Test func theIssuedAtIsTheInjectedClocks() async throws {
        let signer = DPoPProofSigner(key: key, now: { Date(timeIntervalSince1970: 1_234_567_890) })
        let claims = try parts(await signer.proof(method: .get, url: URL(string: "https://a.example/")!)).claims
        #expect(claims["iat"] as? Int == 1_234_567_890)
    }

    @Test func everyProofHasANewJTIOf256RandomBits() async throws {
        var identifiers: Set<String> = []
        for _ in 0..<50 {
            let jti = try #require(
                parts(await signer.proof(method: .get, url: URL(string: "https://a.example/")!)).claims["jti"] as? String)
            #expect(try base64URLDecoded(jti).count == 32)
            identifiers.insert(jti)
        }
        #expect(identifiers.count == 50)
    }

    /// RFC 9449 §7.1's example.
    @Test func athIsTheRFCsExample() async throws {
        let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
        #expect(DPoPProofSigner.accessTokenHash(token) == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
        let proof = try await signer.proof(method: .get, url: URL(string: "https://resource.example.org/protected")!, accessToken: token)
        #expect(try parts(proof).claims["ath"] as? String == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test func athIsTheSHA256OfTheToken() throws {
        let token = "an-access-token.\(UUID().uuidString)"
        let digest = Data(SHA256.hash(data: Data(token.utf8)))
        #expect(try base64URLDecoded(DPoPProofSigner.accessTokenHash(token)) == digest)
    }

    @Test func theNonceIsCarried() async throws {
        let proof = try await signer.proof(
            method: .post, url: URL(string: "https://server.example.com/token")!, nonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(try parts(proof).claims["nonce"] as? String == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
    }

    @Test(arguments: ["", "two words", "quote\"d", "back\\slash", "tab\t", "é", String(repeating: "n", count: 1025)])
    func aNonceThatIsNoNonceIsRefused(_ nonce: String) async throws {
        await #expect(throws: DPoPProofError.invalidNonce) {
            _ = try await signer.proof(method: .get, url: URL(string: "https://a.example/")!, nonce: nonce)
        }
    }

    @Test func theMethodIsSentAsItIs() async throws {
        for method: HTTPRequest.Method in [.get, .put, .delete, .patch, HTTPRequest.Method("PROPFIND")!] {
            let claims = try parts(await signer.proof(method: method, url: URL(string: "https://a.example/")!)).claims
            #expect(claims["htm"] as? String == method.rawValue)
        }
    }

    @Test(arguments: [
        ("https://server.example.com/token", "https://server.example.com/token"),
        ("https://server.example.com/token?a=b&c=d", "https://server.example.com/token"),
        ("https://server.example.com/token#fragment", "https://server.example.com/token"),
        ("https://server.example.com/token?a=b#fragment", "https://server.example.com/token"),
        ("HTTPS://Server.EXAMPLE.com/Token", "https://server.example.com/Token"),
        ("https://server.example.com:443/token", "https://server.example.com/token"),
        ("http://server.example.com:80/token", "http://server.example.com/token"),
        ("https://server.example.com:8443/token", "https://server.example.com:8443/token"),
        ("http://server.example.com:443/token", "http://server.example.com:443/token"),
        ("https://server.example.com", "https://server.example.com/"),
        ("https://server.example.com?q", "https://server.example.com/"),
        ("https://user:password@server.example.com/token", "https://server.example.com/token"),
        ("https://server.example.com/a%2Fb/c%20d", "https://server.example.com/a%2Fb/c%20d"),
        ("https://[::1]:8443/token", "https://[::1]:8443/token"),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/"),
    ])
    func theTargetURIDropsQueryAndFragmentAndIsNormalised(url: String, htu: String) async throws {
        #expect(DPoPProofSigner.targetURI(of: try #require(URL(string: url))) == htu)
        let claims = try parts(await signer.proof(method: .get, url: URL(string: url)!)).claims
        #expect(claims["htu"] as? String == htu)
    }

    @Test(arguments: ["ftp://server.example.com/file", "file:///etc/passwd", "/token", "mailto:a@example.com", "https:///token"])
    func aURLThatIsNotHTTPIsRefused(_ url: String) async throws {
        let url = try #require(URL(string: url))
        #expect(DPoPProofSigner.targetURI(of: url) == nil)
        await #expect(throws: DPoPProofError.unsupportedURL) { _ = try await signer.proof(method: .get, url: url) }
    }
}
