import Foundation
import GRDB
import SesameTestSupport
import Testing
import Sesame
@testable import SesameStore

/// The stores follow no symbolic link, on real files: a database file, a companion or a
/// user directory replaced by a link is `StoreError.fileSystem`, and what the link points
/// to, outside the store, keeps its mode and receives no database.
@Suite struct SymbolicLinkTests {
    static let refusal = "is a symbolic link; the store follows none (nothing was changed)"

    /// A folder outside the store, mode 0755, with a file of mode 0644 in it.
    func outside(in temporary: TemporaryDirectory) throws -> (folder: URL, file: URL) {
        let folder = temporary.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let file = folder.appendingPathComponent("victim")
        try Data("not a database".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        return (folder, file)
    }

    @Test func aDatabaseFileThatIsALinkIsRefusedAndItsTargetUntouched() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let (_, victim) = try outside(in: temporary)
        let store = temporary.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let url = store.appendingPathComponent("persistence.sqlite")
        try FileManager.default.createSymbolicLink(at: url, withDestinationURL: victim)
        #expect(throws: StoreError.fileSystem(path: url.path, reason: Self.refusal)) {
            try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2))
        }
        #expect(throws: StoreError.fileSystem(path: url.path, reason: Self.refusal)) {
            try StoreDatabase.storedVersion(at: url, kind: .persistence)
        }
        #expect(try permissions(victim.path) == 0o644)
        #expect(try Data(contentsOf: victim) == Data("not a database".utf8))
        #expect(!FileManager.default.fileExists(atPath: victim.path + "-wal"))
    }

    /// A link to a file that does not exist yet: no database is created at its target.
    @Test func aDanglingLinkCreatesNoDatabaseAtItsTarget() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let (folder, _) = try outside(in: temporary)
        let target = folder.appendingPathComponent("planted.sqlite")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        try FileManager.default.createSymbolicLink(at: url, withDestinationURL: target)
        #expect(throws: StoreError.fileSystem(path: url.path, reason: Self.refusal)) {
            try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["victim"])
    }

    @Test func aCompanionThatIsALinkIsRefused() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let (_, victim) = try outside(in: temporary)
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2)).close()
        try? FileManager.default.removeItem(atPath: url.path + "-wal")
        try FileManager.default.createSymbolicLink(atPath: url.path + "-wal", withDestinationPath: victim.path)
        #expect(throws: StoreError.fileSystem(path: url.path + "-wal", reason: Self.refusal)) {
            try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2))
        }
        #expect(try permissions(victim.path) == 0o644)
        #expect(try Data(contentsOf: victim) == Data("not a database".utf8))
    }

    /// A user's directory replaced by a link to a folder outside: starting the user's
    /// context is refused, and the folder keeps its mode and receives no database.
    @Test func aUserDirectoryThatIsALinkIsRefused() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let (folder, _) = try outside(in: temporary)
        let root = temporary.url.appendingPathComponent("root")
        let contexts = try AppContexts(root: root)
        let directory = try UserContext.directory(for: "alice", root: root)
        try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: directory, withDestinationURL: folder)
        #expect(throws: StoreError.fileSystem(path: directory.path, reason: Self.refusal)) {
            try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
        }
        #expect(try permissions(folder.path) == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["victim"])
        try contexts.close()
    }

    @Test func theStandardDirectoryThatIsALinkIsRefused() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let (folder, _) = try outside(in: temporary)
        let root = temporary.url.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let standard = root.appendingPathComponent("standard")
        try FileManager.default.createSymbolicLink(at: standard, withDestinationURL: folder)
        #expect(throws: StoreError.fileSystem(path: standard.path, reason: Self.refusal)) {
            try AppContexts(root: root)
        }
        #expect(try permissions(folder.path) == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["victim"])
    }

    /// The app's own folders above the store may be links (`/var` is one on Apple platforms).
    @Test func anAppFolderAboveTheStoreMayBeALink() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let real = temporary.url.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let linked = temporary.url.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: real)
        let pool = try StoreDatabase.openFile(
            at: linked.appendingPathComponent("persistence.sqlite"), schema: StoreTestSchema.persistence(upTo: 2))
        try pool.close()
        #expect(FileManager.default.fileExists(atPath: real.appendingPathComponent("persistence.sqlite").path))
    }
}
