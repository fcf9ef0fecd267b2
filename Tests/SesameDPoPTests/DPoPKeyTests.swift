import Crypto
import Foundation
import SesameDPoP
import Testing

@Suite struct DPoPKeyTests {
    @Test func newKeysAreRandom() {
        let keys = (0..<8).map { _ in DPoPKey() }
        #expect(Set(keys.map(\.thumbprint)).count == 8)
        #expect(Set(keys.map(\.rawRepresentation)).count == 8)
    }

    @Test func theRawRepresentationLoadsTheSameKey() throws {
        let key = DPoPKey()
        #expect(key.rawRepresentation.count == 32)
        let loaded = try DPoPKey(rawRepresentation: key.rawRepresentation)
        #expect(loaded == key)
        #expect(loaded.thumbprint == key.thumbprint)
        #expect(loaded != DPoPKey())
    }

    @Test func thePEMRepresentationLoadsTheSameKey() throws {
        let key = DPoPKey()
        #expect(key.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try DPoPKey(pemRepresentation: key.pemRepresentation) == key)
    }

    /// A key OpenSSL made for this test (`openssl ecparam -genkey -name prime256v1 -noout`,
    /// SEC 1), with its coordinates and thumbprint as OpenSSL and Python's hashlib computed them.
    @Test func anOpenSSLKeyHasTheCoordinatesAndThumbprintOpenSSLGives() throws {
        let pem = """
            -----BEGIN EC PRIVATE KEY-----
            MHcCAQEEIEAGdG8zJQMcThoJ53iTCfU9FyCMCrisG7rYbLyhGcSyoAoGCCqGSM49
            AwEHoUQDQgAEKU4NqxC0UcTXruAsf5k7VX5W1RlIi6D5aruNeJ0VFEHXjiYC2kEk
            vDXrQTSNqWgPVKlvw8JIKhvG3gtrcBMWhQ==
            -----END EC PRIVATE KEY-----
            """
        let key = try DPoPKey(pemRepresentation: pem)
        #expect(key.publicJWK.x == "KU4NqxC0UcTXruAsf5k7VX5W1RlIi6D5aruNeJ0VFEE")
        #expect(key.publicJWK.y == "144mAtpBJLw160E0jaloD1Spb8PCSCobxt4La3ATFoU")
        #expect(key.thumbprint == "wWA5J8Un3bk9s9b7a_xO9e-Gw_q_rvAfdJDLRVX5DAE")
        #expect(try DPoPKey(pemRepresentation: key.pemRepresentation) == key)
    }

    @Test(arguments: [Data(), Data(count: 31), Data(count: 33), Data(count: 32), Data(repeating: 0xFF, count: 32)])
    func aRawRepresentationThatIsNoKeyIsRefused(_ bytes: Data) {
        #expect(throws: DPoPKeyError.malformedRawRepresentation) { try DPoPKey(rawRepresentation: bytes) }
    }

    @Test func aPEMThatIsNoP256PrivateKeyIsRefused() throws {
        let key = DPoPKey()
        let publicPEM = try P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation).publicKey.pemRepresentation
        let p384 = P384.Signing.PrivateKey().pemRepresentation
        let damaged = String(key.pemRepresentation.dropLast(40))
        for text in ["", "not a key", publicPEM, p384, damaged] {
            #expect(throws: DPoPKeyError.malformedPEM) { try DPoPKey(pemRepresentation: text) }
        }
    }

    @Test func thePublicJWKHasTheKeysCoordinatesAndNoPrivateMember() throws {
        let key = DPoPKey()
        let point = try P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation).publicKey.x963Representation
        let jwk = key.publicJWK
        #expect(jwk.keyType == "EC")
        #expect(jwk.curve == "P-256")
        #expect(try base64URLDecoded(jwk.x) == point[1..<33])
        #expect(try base64URLDecoded(jwk.y) == point[33..<65])
        #expect(!jwk.x.contains("=") && !jwk.x.contains("+") && !jwk.x.contains("/"))
        #expect(jwk.members == ["kty": "EC", "crv": "P-256", "x": jwk.x, "y": jwk.y])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(jwk)) as? [String: String]
        #expect(json == jwk.members)
    }

    /// RFC 9449's examples: the proof's `jwk` (§4.1) and its `jkt` (§6.1).
    @Test func theThumbprintIsRFC7638s() throws {
        let json =
            #"{"kty":"EC","x":"l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs","y":"9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA","crv":"P-256"}"#
        let jwk = try JSONDecoder().decode(DPoPPublicJWK.self, from: Data(json.utf8))
        #expect(jwk.thumbprint == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
    }

    @Test func theKeysThumbprintIsItsJWKs() throws {
        let key = DPoPKey()
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(key.publicJWK.x)","y":"\#(key.publicJWK.y)"}"#
        let digest = Data(SHA256.hash(data: Data(canonical.utf8)))
        #expect(try base64URLDecoded(key.thumbprint) == digest)
        #expect(key.thumbprint.count == 43)
    }

    @Test func aJWKOfAnotherKindIsNotDecoded() {
        for json in [
            #"{"kty":"RSA","crv":"P-256","x":"a","y":"b"}"#, #"{"kty":"EC","crv":"P-384","x":"a","y":"b"}"#,
            #"{"kty":"EC","crv":"P-256","x":"a"}"#,
        ] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(DPoPPublicJWK.self, from: Data(json.utf8)) }
        }
    }
}
