import Foundation
import Sesame
import SesameTestSupport
import Testing
@testable import SesameStore

/// `SharedSQLiteSessionStore` over one directory opened twice, as two processes open it (two
/// SQLite connections, two lock descriptors): the compare-and-swap, what each reads after the
/// other's sign-out or invalidation, the lock, and the change polling. The same store across
/// real processes: Reference/'s SharedSessionEndToEndTests.
@Suite struct SharedSQLiteSessionStoreTests {
    private func session(_ uid: String, token: String) -> StoredSession<TestDetails> {
        StoredSession(
            credential: Credential(accessToken: token, refreshToken: "r-\(token)"), details: TestDetails(uid: uid, provider: "guest"),
            signedInAt: Date(timeIntervalSince1970: 1_000))
    }

    /// Two "processes" over `folder`: their contexts and shared stores.
    private func twoProcesses(
        in folder: TemporaryDirectory
    ) throws
        -> (AppContexts, SharedSQLiteSessionStore<TestDetails>, AppContexts, SharedSQLiteSessionStore<TestDetails>)
    {
        let first = try AppContexts(root: folder.url)
        let second = try AppContexts(root: folder.url)
        let interval = Duration.milliseconds(5)
        return (
            first, first.standard.sharedSessionStore(pollingInterval: interval) { (details: TestDetails) in details.uid },
            second, second.standard.sharedSessionStore(pollingInterval: interval) { (details: TestDetails) in details.uid }
        )
    }

    @Test func aSaveThatReplacesACredentialOnlyReplacesTheOneItRead() throws {
        let folder = try TemporaryDirectory(prefix: "sesame-shared")
        let (contexts, a, _, b) = try twoProcesses(in: folder)
        try contexts.start(userID: "alice", stores: .empty)
        try a.save(session("alice", token: "t1"))

        // B refreshed t1 into t2; A, still on t1, may not save its own refresh over it.
        #expect(try b.save(session("alice", token: "t2"), replacing: Credential(accessToken: "t1")))
        #expect(try !a.save(session("alice", token: "t3"), replacing: Credential(accessToken: "t1")))
        #expect(try a.load() == session("alice", token: "t2"))
        // Saving what is already saved is accepted (the service saves after its own refresh).
        #expect(try b.save(session("alice", token: "t2"), replacing: Credential(accessToken: "t1")))
        // After a sign-out, no save that replaces brings the session back.
        try a.clear(ending: .signOut)
        #expect(try !b.save(session("alice", token: "t4"), replacing: Credential(accessToken: "t2")))
        #expect(try b.load() == nil)
    }

    @Test func eachProcessReadsHowTheOtherEndedTheSession() throws {
        let folder = try TemporaryDirectory(prefix: "sesame-shared")
        let (contexts, a, _, b) = try twoProcesses(in: folder)
        #expect(try b.savedState() == .signedOut)
        try contexts.start(userID: "alice", stores: .empty)
        try a.save(session("alice", token: "t1"))
        #expect(try b.savedState() == .saved(session("alice", token: "t1")))
        try a.clear(ending: .invalidated)
        #expect(try b.savedState() == .invalidated(userID: "alice"))
        try a.save(session("alice", token: "t2"))
        try a.clear(ending: .signOut)
        #expect(try b.savedState() == .signedOut)
    }

    @Test func oneProcessAtATimeHoldsTheRefreshLock() async throws {
        let folder = try TemporaryDirectory(prefix: "sesame-shared")
        let (_, a, _, b) = try twoProcesses(in: folder)
        let held = try await a.acquireRefreshLock(timeout: .seconds(1))
        await #expect(throws: StoreError.self) { _ = try await b.acquireRefreshLock(timeout: .milliseconds(50)) }
        held.release()
        let next = try await b.acquireRefreshLock(timeout: .seconds(1))
        next.release()
    }

    @Test func aLinkInPlaceOfTheLockFileIsRefused() async throws {
        let folder = try TemporaryDirectory(prefix: "sesame-shared")
        let (_, a, _, _) = try twoProcesses(in: folder)
        let outside = folder.url.appendingPathComponent("outside")
        try Data().write(to: outside)
        let lock = folder.url.appendingPathComponent("standard/\(RefreshLockFile.fileName)")
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: outside)
        let refused = await #expect(throws: StoreError.self) { _ = try await a.acquireRefreshLock(timeout: .milliseconds(50)) }
        // Said as what it is, not as a lock another process holds.
        #expect(
            refused?.description.contains("the refresh lock is a symbolic link, which is refused") == true, "\(String(describing: refused))"
        )
    }

    @Test func aWriteOfOneProcessReachesTheOthersChanges() async throws {
        let folder = try TemporaryDirectory(prefix: "sesame-shared")
        let (contexts, a, _, b) = try twoProcesses(in: folder)
        try contexts.start(userID: "alice", stores: .empty)
        let heard = LockedValue(false)
        let listening = Task {
            for await _ in b.changes() {
                heard.set(true)
                return
            }
        }
        // Writes until B hears one (the polling may start after the first write).
        var token = 0
        while !heard.value, token < 500 {
            token += 1
            try a.save(session("alice", token: "t\(token)"))
            try await Task.sleep(for: .milliseconds(10))
        }
        listening.cancel()
        #expect(heard.value)
    }
}
