import Foundation
@testable import Sesame
import SesameTestSupport
import Testing

/// The passkey credential stores: the file one keeps its credentials in one file of mode
/// 0600, replaced atomically, and refuses what it did not create.
@Suite struct PasskeyCredentialStoreTests {
    static func credential(_ name: String, rpID: String = "example.com", signCount: UInt32 = 0) -> PasskeyCredential {
        PasskeyCredential(
            id: Data("id-\(name)".utf8), rpID: rpID, userHandle: Data("user-\(name)".utf8), userName: name,
            privateKey: Data(repeating: 7, count: 32), signCount: signCount, isDiscoverable: true)
    }

    @Test func theFileIsCreatedReadableByItsOwnerOnlyAndKeepsEveryCredential() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("passkeys.json")
        let store = FilePasskeyCredentialStore(url: url)
        #expect(try await store.credentials(rpID: "example.com").isEmpty)
        try await store.save(Self.credential("alice"))
        try await store.save(Self.credential("bob"))
        try await store.save(Self.credential("carol", rpID: "other.test"))
        try await store.save(Self.credential("alice", signCount: 4))
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let reopened = FilePasskeyCredentialStore(url: url)
        let stored = try await reopened.credentials(rpID: "example.com")
        #expect(stored.map(\.userName) == ["alice", "bob"])
        #expect(stored.first?.signCount == 4)
        try await reopened.remove(id: Data("id-alice".utf8))
        #expect(try await FilePasskeyCredentialStore(url: url).credentials(rpID: "example.com").map(\.userName) == ["bob"])
        #expect(try await reopened.credentials(rpID: "other.test").count == 1)
    }

    @Test func aSymbolicLinkIsNeverFollowed() async throws {
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("target.json")
        try Data("[]".utf8).write(to: target)
        let link = directory.url.appendingPathComponent("passkeys.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let store = FilePasskeyCredentialStore(url: link)
        await #expect(throws: PasskeyError.storeFailed(reason: "the path is a symbolic link")) {
            try await store.credentials(rpID: "example.com")
        }
        await #expect(throws: PasskeyError.storeFailed(reason: "the path is a symbolic link")) {
            try await store.save(Self.credential("alice"))
        }
        #expect(try Data(contentsOf: target) == Data("[]".utf8))
    }

    @Test func aFileOthersMayReadIsRefusedBeforeItIsRead() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("passkeys.json")
        try await FilePasskeyCredentialStore(url: url).save(Self.credential("alice"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        await #expect(throws: PasskeyError.storeFailed(reason: "the file may be read or written by others")) {
            try await FilePasskeyCredentialStore(url: url).credentials(rpID: "example.com")
        }
    }

    @Test func aFileThatIsNotAStoreIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("passkeys.json")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("{not json".utf8), attributes: [.posixPermissions: 0o600])
        await #expect(throws: PasskeyError.storeFailed(reason: "the file is not a passkey store")) {
            try await FilePasskeyCredentialStore(url: url).credentials(rpID: "example.com")
        }
    }

    @Test func theAuthenticatorSignsWithAKeyFromTheFile() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("passkeys.json")
        let registration = try await SoftwareAuthenticator(
            rpID: PasskeySoftwareAuthenticatorTests.rpID, origin: PasskeySoftwareAuthenticatorTests.origin,
            store: FilePasskeyCredentialStore(url: url)
        ).register(PasskeySoftwareAuthenticatorTests.creation())
        // Another authenticator over the same file: the credential and its counter are there.
        let later = SoftwareAuthenticator(
            rpID: PasskeySoftwareAuthenticatorTests.rpID, origin: PasskeySoftwareAuthenticatorTests.origin,
            store: FilePasskeyCredentialStore(url: url))
        let assertion = try await later.assert(PasskeySoftwareAuthenticatorTests.request())
        #expect(assertion.rawId == registration.rawId)
        #expect(try await FilePasskeyCredentialStore(url: url).credentials(rpID: "example.com").first?.signCount == 1)
    }
}
