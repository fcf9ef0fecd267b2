import AccountsAPISDK
import Foundation
import Sesame
import Testing

/// The models of a published OpenAPI 3.0 document (Tests/Fixtures/AccountsAPI/api/identity.yaml)
/// with OpenAPI's own formats, vendor extensions, and formats and keys Sesame does not know:
/// the Swift types the formats name, their round trip, and what they refuse.
@Suite struct IdentityDocumentTests {
    static let device = #"""
        {"id": "5f0c6a8e-1b7d-4c59-9a43-0e1f2d3c4b5a", "sequence": 2147483647, "created_at_ms": 9007199254740993,
         "quota": 0.1, "score": 0.25, "public_key": "AAECAwT/", "attestation": "o2NmbXRkbm9uZQ-_",
         "firmware": "\u0000\u0001raw", "phone": "+1 (555) 010-0000", "platform": "ios"}
        """#

    static func decode<Model: Decodable>(_ model: Model.Type, _ json: String) throws -> Model {
        try JSONDecoder().decode(Model.self, from: Data(json.utf8))
    }

    @Test func openAPIFormatsDecodeToTheirSwiftTypes() throws {
        let device = try Self.decode(Device.self, Self.device)
        // The annotations of types left as they are: the declarations say the Swift type.
        let sequence: Int32 = device.sequence
        let createdAt: Int64 = device.createdAtMs
        let quota: Double = device.quota
        let score: Float = device.score
        let key: Data = device.publicKey
        #expect(sequence == Int32.max)
        // 2^53 + 1: kept exactly, which a Double would not.
        #expect(createdAt == 9_007_199_254_740_993)
        #expect(quota == 0.1)
        #expect(score == 0.25)
        #expect(key == Data([0, 1, 2, 3, 4, 255]))
        // Formats Sesame does not know (`uuid4`, `base64url`, `phone`) and `binary`: strings as sent.
        let id: String = device.id
        #expect(id == "5f0c6a8e-1b7d-4c59-9a43-0e1f2d3c4b5a")
        #expect(device.attestation == "o2NmbXRkbm9uZQ-_")
        #expect(device.firmware == "\u{0}\u{1}raw")
        #expect(device.phone == "+1 (555) 010-0000")
        #expect(device.platform == .ios)
    }

    @Test func aDeviceEncodesBackToWhatWasDecoded() throws {
        let device = try Self.decode(Device.self, Self.device)
        let data = try JSONEncoder().encode(device)
        let again = try JSONDecoder().decode(Device.self, from: data)
        #expect(again == device)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["public_key"] as? String == "AAECAwT/")
        #expect(object["created_at_ms"] as? Int64 == 9_007_199_254_740_993)
        #expect(object["score"] as? Double == 0.25)
    }

    @Test func aValueOutsideItsFormatIsRefused() {
        // One past Int32.max.
        #expect(throws: (any Error).self) {
            try Self.decode(Device.self, Self.device.replacingOccurrences(of: "2147483647", with: "2147483648"))
        }
        // Not base64: the URL-safe alphabet, and whitespace.
        #expect(throws: SchemaViolation.self) {
            try Self.decode(Device.self, Self.device.replacingOccurrences(of: "AAECAwT/", with: "AAECAwT_"))
        }
        #expect(throws: SchemaViolation.self) {
            try Self.decode(Device.self, Self.device.replacingOccurrences(of: "AAECAwT/", with: "AAEC AwT/"))
        }
        // The float's maximum.
        #expect(throws: SchemaViolation.self) {
            try Self.decode(Device.self, Self.device.replacingOccurrences(of: "0.25", with: "1.5"))
        }
    }

    @Test func base64WithoutItsPaddingDecodes() throws {
        let device = try Self.decode(Device.self, Self.device.replacingOccurrences(of: "AAECAwT/", with: "AAECAw"))
        #expect(device.publicKey == Data([0, 1, 2, 3]))
    }

    @Test func passwordsAreLeftOutOfTheModelsDescription() throws {
        let change = try Self.decode(
            PasswordChange.self,
            #"{"current_password": "hunter2-old", "new_password": "correct-horse", "recovery_codes": ["rc-1111"], "hint": "a hint"}"#)
        #expect(change.currentPassword == "hunter2-old")
        var dumped = ""
        dump(change, to: &dumped)
        for text in [String(describing: change), String(reflecting: change), "\(change)", dumped] {
            #expect(!text.contains("hunter2-old"))
            #expect(!text.contains("correct-horse"))
            #expect(!text.contains("rc-1111"))
            #expect(text.contains("<redacted>"))
            // What is not a secret is still shown.
            #expect(text.contains("a hint"))
        }
        // The password is sent as it is.
        let json = String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
        #expect(json.contains("correct-horse"))
        // Its check's failure does not show it either.
        do {
            _ = try Self.decode(PasswordChange.self, #"{"current_password": "a", "new_password": "short"}"#)
            Issue.record("a 5-character new password decoded")
        } catch {
            #expect(!String(describing: error).contains("short"))
        }
    }
}
