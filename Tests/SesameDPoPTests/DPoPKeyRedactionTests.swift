import Foundation
import SesameDPoP
import Testing

/// The private key never shows in what an app logs or a debugger prints.
@Suite struct DPoPKeyRedactionTests {
    /// Every spelling of the private key a printout could contain.
    static func secrets(of key: DPoPKey) -> [String] {
        let raw = key.rawRepresentation
        let base64 = raw.base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let hex = raw.map { String(format: "%02x", $0) }.joined()
        let pemBody = key.pemRepresentation.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return [
            base64, String(base64.dropLast()), base64URL, String(base64URL.dropLast()), hex, hex.uppercased(),
            // A prefix is enough to leak: 16 bytes of the scalar.
            String(base64.prefix(22)), String(hex.prefix(32)), pemBody, String(pemBody.suffix(40)),
        ]
    }

    static func expectNoSecret(of key: DPoPKey, in text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets(of: key) {
            #expect(!text.contains(secret), "\(what) shows the private key", sourceLocation: sourceLocation)
        }
    }

    @Test func descriptionsShowTheThumbprintOnly() {
        let key = DPoPKey()
        #expect(key.description == "DPoPKey(P-256, jkt: \(key.thumbprint), private key redacted)")
        #expect(key.debugDescription == key.description)
        Self.expectNoSecret(of: key, in: key.description, "description")
        Self.expectNoSecret(of: key, in: key.debugDescription, "debugDescription")
        Self.expectNoSecret(of: key, in: "\(key)", "interpolation")
        Self.expectNoSecret(of: key, in: String(reflecting: key), "String(reflecting:)")
        Self.expectNoSecret(of: key, in: "\([key])", "an array's description")
        Self.expectNoSecret(of: key, in: "\(Optional(key) as Any)", "an optional's description")
    }

    @Test func dumpAndTheMirrorShowThePublicKeyOnly() {
        struct Holder { var key: DPoPKey }
        let key = DPoPKey()
        var dumped = ""
        dump(Holder(key: key), to: &dumped)
        dump([key], to: &dumped)
        Self.expectNoSecret(of: key, in: dumped, "dump")
        #expect(dumped.contains(key.thumbprint))
        let mirror = Mirror(reflecting: key)
        #expect(mirror.children.map(\.label) == ["thumbprint", "publicJWK"])
        #expect(mirror.children.first?.value as? String == key.thumbprint)
        #expect(Array(mirror.children).last?.value as? DPoPPublicJWK == key.publicJWK)
    }

    @Test func errorsCarryNoKeyMaterial() throws {
        let key = DPoPKey()
        // A key with its last byte cut off: what the error says must not echo the input.
        let raw = key.rawRepresentation.dropLast()
        do {
            _ = try DPoPKey(rawRepresentation: raw)
            Issue.record("a 31-byte key loaded")
        } catch {
            Self.expectNoSecret(of: key, in: "\(error) \(String(reflecting: error))", "the raw error")
        }
        let damaged = key.pemRepresentation.replacingOccurrences(of: "-----END PRIVATE KEY-----", with: "")
        do {
            _ = try DPoPKey(pemRepresentation: damaged)
            Issue.record("a PEM without its end line loaded")
        } catch {
            Self.expectNoSecret(of: key, in: "\(error) \(String(reflecting: error))", "the PEM error")
        }
    }
}
