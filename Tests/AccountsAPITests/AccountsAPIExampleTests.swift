import AccountsAPISDK
import Foundation
import Sesame
import Testing

/// The SDK generated from a published OpenAPI 3.1 document by reference
/// (Tests/Fixtures/AccountsAPI): the document's own examples (its `externalValue` files in
/// Tests/Fixtures/AccountsAPI/api/examples) decode with the generated types, and what the
/// document forbids is refused.
@Suite struct AccountsAPIExampleTests {
    /// The text of an example file of the document.
    static func example(_ name: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/AccountsAPI/api/examples/\(name)")
        return try Data(contentsOf: url)
    }

    static func decode<Model: Decodable>(_ model: Model.Type, _ json: String) throws -> Model {
        try JSONDecoder().decode(Model.self, from: Data(json.utf8))
    }

    @Test func theUserExampleDecodesThroughAllOfAndNullable() throws {
        let user = try JSONDecoder().decode(User.self, from: Self.example("user.json"))
        // `Resource`'s properties, merged by `allOf`.
        #expect(user.id == "usr_2Zb3")
        #expect(user.createdAt == Date(timeIntervalSince1970: 1_714_555_800))
        // `nullable: true` (OpenAPI 3.0's spelling) and `type: [string, "null"]` (3.1's).
        #expect(user.updatedAt == nil)
        #expect(user.phoneNumber == nil)
        #expect(user.name == "Ada Lovelace")
        #expect(user.identities.map(\.provider) == [.password, .github])
        #expect(user.identities[1].email == nil)
        #expect(user.metadata == ["plan": "pro"])
    }

    @Test func theSessionExampleDecodes() throws {
        let session = try JSONDecoder().decode(Session.self, from: Self.example("session.json"))
        #expect(session.status == .active)
        #expect(session.userAgent == nil)
        #expect(session.authenticationMethods.map(\.method) == [.password, .totp])
    }

    @Test func theFactorsExampleDecodesEachVariantByItsDiscriminator() throws {
        let list = try JSONDecoder().decode(FactorList.self, from: Self.example("factors.json"))
        #expect(list.data.count == 3)
        guard case .totp(let totp) = list.data[0] else {
            Issue.record("expected a TOTP factor, got \(list.data[0])")
            return
        }
        #expect(totp.issuer == "Accounts")
        guard case .sms(let sms) = list.data[1] else {
            Issue.record("expected an SMS factor, got \(list.data[1])")
            return
        }
        #expect(sms.phoneNumber == "+33612345678")
        #expect(sms.status == .pending)
        guard case .webauthn(let key) = list.data[2] else {
            Issue.record("expected a WebAuthn factor, got \(list.data[2])")
            return
        }
        #expect(key.credentialId == "cred-AbC")
        #expect(key.authenticatorName == nil)
        #expect(list.nextCursor == nil)
    }

    @Test func whatTheDocumentForbidsIsRefused() {
        // A required property of the allOf base is missing.
        #expect(throws: (any Error).self) { try Self.decode(User.self, #"{"email": "a@b.c", "email_verified": true, "identities": []}"#) }
        // Not nullable: `email_verified` is a boolean, never null.
        #expect(throws: (any Error).self) {
            try Self.decode(
                User.self,
                #"{"id": "u", "created_at": "2024-05-01T09:30:00Z", "email": "a@b.c", "email_verified": null, "identities": []}"#)
        }
        // `unevaluatedProperties: false` closes the composition: a key that neither the
        // allOf base nor the properties beside it declare is refused.
        #expect(throws: SchemaViolation.self) {
            try Self.decode(
                User.self,
                #"{"id": "u", "created_at": "2024-05-01T09:30:00Z", "email": "a@b.c", "email_verified": true, "identities": [], "role": "admin"}"#
            )
        }
        #expect(throws: SchemaViolation.self) {
            try Self.decode(
                Session.self,
                #"{"id": "s", "created_at": "2024-05-01T09:30:00Z", "user_id": "u", "status": "active", "expires_at": "2024-05-02T09:30:00Z", "authentication_methods": [], "refresh_token": "x"}"#
            )
        }
        // The SMS factor's phone number breaks its pattern.
        #expect(throws: (any Error).self) {
            try Self.decode(Factor.self, #"{"id": "f", "type": "sms", "status": "verified", "phone_number": "0612"}"#)
        }
    }
}
