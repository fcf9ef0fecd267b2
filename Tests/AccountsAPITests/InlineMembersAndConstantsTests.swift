import AccountsAPISDK
import Foundation
import Sesame
import Testing

/// The identity document's `DeviceCredential` (Tests/Fixtures/AccountsAPI/api/identity.yaml): a
/// `oneOf` with a discriminator whose members are inline objects, `type: object` beside it;
/// and the `credential` operation's constant query (auth.yaml).
@Suite struct InlineMembersAndConstantsTests {
    static let password = #"{"kind": "password", "updated_at": "2024-05-02T12:15:04.540523Z"}"#
    static let passkey = #"{"kind": "passkey", "key_id": "AAECAw==", "sign_count": 7}"#

    static func decode(_ json: String) throws -> DeviceCredential {
        try JSONDecoder().decode(DeviceCredential.self, from: Data(json.utf8))
    }

    @Test func eachInlineMemberIsANestedTypeChosenByItsTag() throws {
        guard case .password(let password) = try Self.decode(Self.password) else {
            Issue.record("not the password variant")
            return
        }
        #expect(password.kind == .password)
        #expect(password.updatedAt != nil)
        guard case .passkey(let passkey) = try Self.decode(Self.passkey) else {
            Issue.record("not the passkey variant")
            return
        }
        #expect(passkey.keyId == Data([0, 1, 2, 3]))
        #expect(passkey.signCount == 7)
        #expect(passkey.kind == "passkey")
    }

    @Test func eachVariantEncodesBackWithItsTag() throws {
        for json in [Self.password, Self.passkey] {
            let credential = try Self.decode(json)
            let data = try JSONEncoder().encode(credential)
            #expect(try JSONDecoder().decode(DeviceCredential.self, from: data) == credential)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["kind"] as? String == credential.kindValue)
        }
        let made = DeviceCredential.passkey(DeviceCredential.Passkey(keyId: Data([9]), signCount: nil))
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(made)) as? [String: Any])
        #expect(object["kind"] as? String == "passkey")
        #expect(object["key_id"] as? String == "CQ==")
    }

    @Test func aMemberMissingWhatItRequiresIsRefusedAndAnUnknownTagKept() throws {
        #expect(throws: (any Error).self) { try Self.decode(#"{"kind": "passkey", "sign_count": 7}"#) }
        #expect(throws: (any Error).self) { try Self.decode(#"{"sign_count": 7}"#) }
        guard case .unknown(let kind, _) = try Self.decode(#"{"kind": "totp", "digits": 6}"#) else {
            Issue.record("an unknown tag is not kept")
            return
        }
        #expect(kind == "totp")
    }

    /// Records the request a generated operation builds, and answers it with `body`.
    struct Recorder: OperationPerformer {
        typealias Schema = AccountsAPISDKSchema
        let sent: Sent
        let body: String

        final class Sent: @unchecked Sendable {
            private let lock = NSLock()
            private var paths: [String] = []
            func append(_ path: String) { lock.withLock { paths.append(path) } }
            var all: [String] { lock.withLock { paths } }
        }

        func perform(_ request: OperationRequest) async throws -> OperationResponse {
            sent.append(try request.resolvedPath())
            return OperationResponse(operation: request.operationName, status: 200, body: Data(body.utf8))
        }
    }

    @Test func theOperationSendsItsConstantsBeforeTheAppsParameters() async throws {
        let recorder = Recorder(sent: .init(), body: Self.passkey)
        let credential = try await recorder.credential(fields: "key id", id: "d/1")
        #expect(credential.kindValue == "passkey")
        _ = try await recorder.credential(id: "d1")
        #expect(
            recorder.sent.all == [
                "/v1/devices/d%2F1/credential?api-version=2024-05-01&view=full&fields=key%20id",
                "/v1/devices/d1/credential?api-version=2024-05-01&view=full",
            ])
    }
}
