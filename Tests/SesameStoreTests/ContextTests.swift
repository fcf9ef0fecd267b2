import Foundation
import GRDB
import SesameTestSupport
import Testing
import Sesame
@testable import SesameStore

/// Contexts on real files: per-user directories, the saved current user, isolation between
/// users, sign-out, and the SQLite session store.
@Suite struct ContextTests {
    private func session(_ uid: String, token: String) -> StoredSession<TestDetails> {
        StoredSession(
            credential: Credential(accessToken: token, refreshToken: "r-\(token)"), details: TestDetails(uid: uid, provider: "guest"),
            signedInAt: Date(timeIntervalSince1970: 1_000))
    }

    private func notes(_ context: UserContext) throws -> Int {
        try context.stores.persistence.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Note""#) ?? -1 }
    }

    @Test func startedContextIsSavedAndRestoredAtTheNextLaunch() async throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        do {
            let contexts = try AppContexts(root: temporary.url)
            let context = try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
            try await context.stores.persistence.write { db in try db.execute(sql: #"INSERT INTO "Note" ("id", "body") VALUES ('1', 'x')"#)
            }
            try await context.stores.memory.write { db in try db.execute(sql: #"INSERT INTO "Draft" ("id") VALUES ('d')"#) }
            try contexts.standard.close()
            try context.close()
        }
        let relaunched = try AppContexts(root: temporary.url)
        #expect(try relaunched.standard.savedUser()?.id == "alice")
        let restored = try #require(try relaunched.restore(stores: StoreTestSchema.definition))
        #expect(restored.userID == "alice")
        #expect(try notes(restored) == 1)
        #expect(try await restored.stores.memory.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Draft""#) } == 0)
        let directory = try UserContext.directory(for: "alice", root: temporary.url)
        #expect(restored.stores.directory == directory)
        #expect(try permissions(directory.path) == 0o700)
        #expect(try permissions(directory.appendingPathComponent("persistence.sqlite").path) == 0o600)
        #expect(try permissions(temporary.url.appendingPathComponent("standard/sesame.sqlite").path) == 0o600)
    }

    @Test func switchingUsersNeverLetsDataOrSessionThrough() async throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let contexts = try AppContexts(root: temporary.url)
        let sessions = contexts.standard.sessionStore { (details: TestDetails) in details.uid }

        let alice = try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
        try await alice.stores.persistence.write { db in try db.execute(sql: #"INSERT INTO "Note" ("id", "body") VALUES ('a', 'secret')"#) }
        try sessions.save(session("alice", token: "a1"))

        let bob = try contexts.start(userID: "bob", stores: StoreTestSchema.definition)
        #expect(try notes(bob) == 0)
        #expect(try sessions.load() == nil)
        #expect(throws: (any Error).self) { try notes(alice) }
        #expect(contexts.current?.userID == "bob")

        // A session saved for someone other than the current user is never loaded.
        try sessions.save(session("alice", token: "a2"))
        #expect(try sessions.load() == nil)
        try sessions.save(session("bob", token: "b1"))
        #expect(try sessions.load() == session("bob", token: "b1"))
    }

    @Test func signOutForgetsUserAndSessionButKeepsPersistentData() async throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let contexts = try AppContexts(root: temporary.url)
        let sessions = contexts.standard.sessionStore { (details: TestDetails) in details.uid }
        let alice = try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
        try await alice.stores.persistence.write { db in try db.execute(sql: #"INSERT INTO "Note" ("id", "body") VALUES ('a', 'kept')"#) }
        try sessions.save(session("alice", token: "a1"))

        try contexts.signOut()
        #expect(contexts.current == nil)
        #expect(try contexts.standard.savedUser() == nil)
        #expect(try sessions.load() == nil)
        #expect(throws: (any Error).self) { try notes(alice) }
        #expect(try contexts.restore(stores: StoreTestSchema.definition) == nil)

        let again = try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
        #expect(try notes(again) == 1)
    }

    /// The log is kept across closes, so a signed-out session's tokens would stay in its older
    /// frames, and a deleted row stays in the database's free space unless SQLite overwrites
    /// it: after sign-out neither file holds the tokens, open or closed.
    @Test func signOutLeavesNoTokenOnDisk() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let standard = temporary.url.appendingPathComponent("standard")
        let token = "tok-\(UUID().uuidString)"
        func filesHoldingTheToken() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: standard.path).sorted().filter { name in
                let data = try Data(contentsOf: standard.appendingPathComponent(name))
                return data.range(of: Data(token.utf8)) != nil
            }
        }
        do {
            let contexts = try AppContexts(root: temporary.url)
            let sessions = contexts.standard.sessionStore { (details: TestDetails) in details.uid }
            try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
            for rotation in 1...3 { try sessions.save(session("alice", token: "\(token)-\(rotation)")) }
            #expect(try !filesHoldingTheToken().isEmpty, "the test looks for the right bytes")
            try contexts.signOut()
            #expect(try filesHoldingTheToken() == [])
        }
        #expect(try filesHoldingTheToken() == [], "closed")
    }

    @Test func rotatedSessionIsWhatAnotherConnectionReads() async throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let contexts = try AppContexts(root: temporary.url)
        try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
        let sessions = contexts.standard.sessionStore { (details: TestDetails) in details.uid }
        try sessions.save(session("alice", token: "a1"))
        try sessions.save(session("alice", token: "a2"))

        let file = temporary.url.appendingPathComponent("standard/sesame.sqlite")
        let other = try DatabaseQueue(path: file.path)
        let payloads = try await other.read { db in try Data.fetchAll(db, sql: "SELECT payload FROM sesame_session") }
        #expect(payloads.count == 1)
        let stored = try JSONDecoder().decode(StoredSession<TestDetails>.self, from: try #require(payloads.first))
        #expect(stored.credential.accessToken == "a2")

        try sessions.clear()
        #expect(try await other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sesame_session") } == 0)
    }

    @Test func readingTheCurrentContextNeverWaitsForASwitch() async throws {
        // A switch to bob must close alice's pool, which waits for her write in progress; that
        // write reads `current`. Were the switch to hold the lock `current` needs, this would
        // never end.
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let contexts = try AppContexts(root: temporary.url)
        let alice = try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
        let switched = Locked<Bool>(false)
        let readInside = try await onOwnThread { () throws -> String? in
            try alice.stores.persistence.write { db -> String? in
                Thread {
                    _ = try? contexts.start(userID: "bob", stores: StoreTestSchema.definition)
                    switched.withLock { $0 = true }
                }.start()
                // Until bob's context is open and the switch waits to close alice's (10 s at
                // most: opening takes longer than a fixed pause on a loaded machine).
                let deadline = Date().addingTimeInterval(10)
                while contexts.current?.userID != "bob", Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                try db.execute(sql: #"INSERT INTO "Note" ("id", "body") VALUES ('1', 'x')"#)
                return contexts.current?.userID
            }
        }
        #expect(readInside == "bob", "the switch publishes bob before it closes alice's pool")
        #expect(await poll { switched.withLock { $0 } }, "the switch never finished")
        #expect(contexts.current?.userID == "bob")
        #expect(throws: (any Error).self) { try alice.stores.persistence.read { _ in } }
    }

    @Test func aChangesStreamEndsWhenTheContextsGoAway() async throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        var contexts: AppContexts? = try AppContexts(root: temporary.url)
        let changes = try #require(contexts).changes()
        try contexts?.start(userID: "alice", stores: StoreTestSchema.definition)
        try contexts?.signOut(erasingUserData: true)
        contexts = nil
        var seen: [String?] = []
        for await context in changes { seen.append(context?.userID) }
        #expect(seen == [nil, "alice", nil])
        #expect(!FileManager.default.fileExists(atPath: try UserContext.directory(for: "alice", root: temporary.url).path))
    }

    @Test func userDirectoriesCannotEscapeTheRootNorCollide() throws {
        let root = URL(fileURLWithPath: "/tmp/root")
        let sneaky = try UserContext.directory(for: "../../etc", root: root)
        #expect(sneaky.deletingLastPathComponent().path == "/tmp/root/users")
        #expect(!sneaky.lastPathComponent.contains("."))
        #expect(try UserContext.directory(for: "a/b", root: root) != UserContext.directory(for: "a_b", root: root))
        #expect(throws: StoreError.invalidUserID) { try UserContext.directory(for: "", root: root) }
        #expect(throws: StoreError.invalidUserID) { try UserContext.directory(for: String(repeating: "x", count: 101), root: root) }
    }
}
