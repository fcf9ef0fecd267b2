import Foundation
import SesameDPoP
import SesameTestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@Suite struct FileDPoPKeyStoreTests {
    let directory: TemporaryDirectory
    let url: URL
    let store: FileDPoPKeyStore

    init() throws {
        directory = try TemporaryDirectory(prefix: "dpop")
        url = directory.url.appendingPathComponent("dpop-key.pem")
        store = FileDPoPKeyStore(url: url)
    }

    /// The path's own mode bits and owner (lstat: a link's, not its target's).
    func status(_ url: URL) throws -> (mode: UInt32, owner: UInt32, isRegular: Bool) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (UInt32(info.st_mode) & 0o7777, UInt32(info.st_uid), UInt32(info.st_mode) & 0o170000 == 0o100000)
    }

    /// Writes `text` at `url` with `mode`, as something other than the store would.
    func write(_ text: String, mode: Int = 0o600, to url: URL? = nil) throws {
        let url = url ?? self.url
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    @Test func aMissingFileIsNoKey() throws {
        #expect(try store.load() == nil)
    }

    @Test func aSavedKeyLoads() throws {
        let key = DPoPKey()
        try store.save(key)
        #expect(try store.load() == key)
        #expect(try FileDPoPKeyStore(url: url).load() == key)
    }

    @Test func theFileIsTheOwnersOnly() throws {
        try store.save(DPoPKey())
        let (mode, owner, isRegular) = try status(url)
        #expect(mode == 0o600)
        #expect(owner == UInt32(geteuid()))
        #expect(isRegular)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func saveReplacesTheKeyAndLeavesNoTemporaryFile() throws {
        try store.save(DPoPKey())
        let second = DPoPKey()
        try store.save(second)
        #expect(try store.load() == second)
        // The key, and the lock file that processes sharing it take.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [".dpop-key.pem.lock", "dpop-key.pem"])
    }

    /// The old file is replaced by a new one (another inode) made 0600, not rewritten in place.
    @Test func saveReplacesAFileWithWiderPermissions() throws {
        try write("old", mode: 0o644)
        let before = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber
        let key = DPoPKey()
        try store.save(key)
        #expect(try status(url).mode == 0o600)
        let after = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber
        #expect(before != nil && before != after)
        #expect(try store.load() == key)
    }

    @Test func saveInAMissingDirectoryFails() throws {
        let store = FileDPoPKeyStore(url: directory.url.appendingPathComponent("missing/key.pem"))
        #expect(throws: DPoPKeyStoreError.systemCallFailed("open", errno: ENOENT)) { try store.save(DPoPKey()) }
    }

    @Test func deleteRemovesTheFile() throws {
        try store.save(DPoPKey())
        try store.delete()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try store.load() == nil)
        try store.delete()
    }

    // MARK: Refusals

    /// A link to a valid key file of the owner's: loading it would succeed if followed.
    @Test func aSymbolicLinkIsRefusedAndNotFollowed() throws {
        let target = directory.url.appendingPathComponent("elsewhere.pem")
        let key = DPoPKey()
        try FileDPoPKeyStore(url: target).save(key)
        try FileManager.default.createSymbolicLink(at: url, withDestinationURL: target)

        #expect(throws: DPoPKeyStoreError.symbolicLink) { try store.load() }
        #expect(throws: DPoPKeyStoreError.symbolicLink) { try store.save(DPoPKey()) }
        #expect(throws: DPoPKeyStoreError.symbolicLink) { try store.delete() }
        // The link and its target are as they were.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: url.path) == target.path)
        #expect(try FileDPoPKeyStore(url: target).load() == key)
    }

    @Test func aDanglingSymbolicLinkIsRefused() throws {
        try FileManager.default.createSymbolicLink(
            at: url, withDestinationURL: directory.url.appendingPathComponent("nothing-here"))
        #expect(throws: DPoPKeyStoreError.symbolicLink) { try store.load() }
        #expect(throws: DPoPKeyStoreError.symbolicLink) { try store.save(DPoPKey()) }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("nothing-here").path))
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660, 0o606, 0o700, 0o4600])
    func aFileOthersCanReadOrWriteIsRefused(mode: Int) throws {
        try write(DPoPKey().pemRepresentation, mode: mode)
        #expect(throws: DPoPKeyStoreError.permissionsTooWide(mode: UInt32(mode))) { try store.load() }
    }

    @Test func aFileNarrowerThan0600Loads() throws {
        let key = DPoPKey()
        try write(key.pemRepresentation, mode: 0o400)
        #expect(try store.load() == key)
    }

    @Test func aFileOfAnotherUserIsRefused() throws {
        let key = DPoPKey()
        try write(key.pemRepresentation)
        if geteuid() == 0 {
            // Root can give the file away; `nobody` is 65534 on Linux and macOS alike.
            try #require(chown(url.path, 65534, getegid()) == 0)
            #expect(throws: DPoPKeyStoreError.ownedByAnotherUser(owner: 65534)) { try store.load() }
            #expect(throws: DPoPKeyStoreError.ownedByAnotherUser(owner: 65534)) { try store.save(DPoPKey()) }
        } else {
            // A file root owns, which the store only reads.
            let store = FileDPoPKeyStore(url: URL(fileURLWithPath: "/etc/passwd"))
            #expect(throws: DPoPKeyStoreError.ownedByAnotherUser(owner: 0)) { try store.load() }
        }
    }

    @Test func aDirectoryIsNotAKeyFile() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        #expect(throws: DPoPKeyStoreError.notARegularFile) { try store.load() }
        #expect(throws: DPoPKeyStoreError.notARegularFile) { try store.save(DPoPKey()) }
        #expect(throws: DPoPKeyStoreError.notARegularFile) { try store.delete() }
    }

    /// A FIFO would block a plain open for reading until a writer came.
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        try #require(mkfifo(url.path, 0o600) == 0)
        #expect(throws: DPoPKeyStoreError.notARegularFile) { try store.load() }
    }

    @Test(arguments: ["", "\n", "not a key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"])
    func aFileThatIsNoKeyIsMalformed(contents: String) throws {
        try write(contents)
        #expect(throws: DPoPKeyStoreError.malformedKey) { try store.load() }
    }

    @Test func aFileWithAPublicKeyIsMalformed() throws {
        try write(DPoPKey().publicJWK.x)
        #expect(throws: DPoPKeyStoreError.malformedKey) { try store.load() }
    }

    @Test func aFileLargerThanTheLimitIsMalformedEvenWithAKeyInIt() throws {
        let key = DPoPKey().pemRepresentation
        try write(key + String(repeating: "\n", count: FileDPoPKeyStore.maximumFileSize - key.utf8.count))
        #expect(try store.load() != nil)
        try write(key + String(repeating: "\n", count: FileDPoPKeyStore.maximumFileSize - key.utf8.count + 1))
        #expect(throws: DPoPKeyStoreError.malformedKey) { try store.load() }
    }
}

/// The store shared by processes: one creates the key, the others load it, and a sign-out
/// deletes only its own key. Each store value stands for a process (the lock is the file's,
/// not the value's); `Reference/Tests/EndToEndTests/SharedDPoPKeyEndToEndTests` runs real
/// processes.
@Suite struct SharedFileDPoPKeyStoreTests {
    let directory: TemporaryDirectory
    let url: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "dpop-shared")
        url = directory.url.appendingPathComponent("dpop-key.pem")
    }

    @Test func loadOrSaveCreatesTheKeyOnceAndThenLoadsIt() throws {
        let store = FileDPoPKeyStore(url: url)
        let created = try store.loadOrSave { DPoPKey() }
        #expect(try store.load() == created)
        let again = try FileDPoPKeyStore(url: url).loadOrSave { DPoPKey() }
        #expect(again == created)
    }

    @Test func storesAskingAtOnceAllGetTheOneKeyCreated() async throws {
        let url = self.url
        let keys = try await withThrowingTaskGroup(of: DPoPKey.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try FileDPoPKeyStore(url: url).loadOrSave {
                        // Widens the window between the load and the write.
                        usleep(2_000)
                        return DPoPKey()
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(keys.map(\.thumbprint)).count == 1)
        #expect(try FileDPoPKeyStore(url: url).load() == keys.first)
    }

    @Test func deleteIfStillKeepsAKeyStoredSince() throws {
        let store = FileDPoPKeyStore(url: url)
        let ending = try store.loadOrSave { DPoPKey() }
        let next = DPoPKey()
        try FileDPoPKeyStore(url: url).save(next)
        try store.delete(ifStill: ending)
        #expect(try store.load() == next)
        try store.delete(ifStill: next)
        #expect(try store.load() == nil)
        // Nothing to delete is no error.
        try store.delete(ifStill: next)
    }

    @Test func theLockFileIsTheOwnersOnlyAndALinkThereIsRefused() throws {
        let store = FileDPoPKeyStore(url: url)
        _ = try store.loadOrSave { DPoPKey() }
        let lock = directory.url.appendingPathComponent(".dpop-key.pem.lock")
        let attributes = try FileManager.default.attributesOfItem(atPath: lock.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try FileManager.default.removeItem(at: lock)
        let target = directory.url.appendingPathComponent("elsewhere")
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: target)
        #expect(throws: DPoPKeyStoreError.symbolicLink) { try store.save(DPoPKey()) }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}

/// `DPoP` over a key store that other processes share.
@Suite struct SharedKeyDPoPTests {
    @Test func aSessionChangedElsewhereReadsTheKeyAgain() async throws {
        let directory = try TemporaryDirectory(prefix: "dpop-shared")
        let url = directory.url.appendingPathComponent("dpop-key.pem")
        let (app, widget) = (DPoP(keyStore: FileDPoPKeyStore(url: url)), DPoP(keyStore: FileDPoPKeyStore(url: url)))
        let first = try await app.thumbprint()
        #expect(try await widget.thumbprint() == first)
        // The app signs out and in again: a new key.
        try await app.replaceKey()
        let second = try await app.thumbprint()
        #expect(second != first)
        #expect(try await widget.thumbprint() == first)
        await widget.sessionDidChangeElsewhere()
        #expect(try await widget.thumbprint() == second)
    }

    @Test func replacingTheKeyKeepsAKeyAnotherProcessStoredSince() async throws {
        let directory = try TemporaryDirectory(prefix: "dpop-shared")
        let url = directory.url.appendingPathComponent("dpop-key.pem")
        let app = DPoP(keyStore: FileDPoPKeyStore(url: url))
        _ = try await app.thumbprint()
        // Another process signed in again before the app's sign-out replaced its key.
        let next = DPoPKey()
        try FileDPoPKeyStore(url: url).save(next)
        try await app.replaceKey()
        #expect(try FileDPoPKeyStore(url: url).load() == next)
        #expect(try await app.thumbprint() == next.thumbprint)
    }
}

@Suite struct InMemoryDPoPKeyStoreTests {
    @Test func itHoldsOneKey() async throws {
        let store = InMemoryDPoPKeyStore()
        #expect(await store.load() == nil)
        let key = DPoPKey()
        await store.save(key)
        #expect(await store.load() == key)
        let other = DPoPKey()
        await store.save(other)
        #expect(await store.load() == other)
        await store.delete()
        #expect(await store.load() == nil)
        #expect(await InMemoryDPoPKeyStore(key: key).load() == key)
        let created = try await store.loadOrSave { key }
        #expect(try await store.loadOrSave { DPoPKey() } == created)
        try await store.delete(ifStill: other)
        #expect(await store.load() == key)
        try await store.delete(ifStill: key)
        #expect(await store.load() == nil)
    }

    /// Both stores through the protocol, as the runtime will use them.
    @Test func bothStoresWorkThroughTheProtocol() async throws {
        let directory = try TemporaryDirectory(prefix: "dpop")
        let stores: [any DPoPKeyStore] = [
            InMemoryDPoPKeyStore(), FileDPoPKeyStore(url: directory.url.appendingPathComponent("key.pem")),
        ]
        for store in stores {
            let key = DPoPKey()
            try await store.save(key)
            #expect(try await store.load() == key)
            try await store.delete()
            #expect(try await store.load() == nil)
        }
    }
}
