import Foundation
import GRDB
import ReferenceSDK
import SesameStore
import SesameTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A restoration delegate whose refresh waits until the test opens its gate, so that a test
/// can look at `presession` before the refresh completes.
final class GatedRestoration: SessionRestorationDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false
    private(set) var refreshStarted = false

    func refresh(user: AuthenticationDetails, refresher: SessionRefresher<AuthenticationDetails>) async throws -> AuthenticationDetails {
        lock.withLock { refreshStarted = true }
        while !lock.withLock({ opened }) { try await Task.sleep(for: .milliseconds(5)) }
        return try await refresher.refresh()
    }

    func open() { lock.withLock { opened = true } }
    var hasStartedRefreshing: Bool { lock.withLock { refreshStarted } }
}

/// An `AppSession` over real HTTP and real SQLite files: the user's context follows the
/// authentication state, and a relaunch restores both.
@Suite("App session: contexts follow the state, end to end", .secretScan)
struct AppSessionEndToEndTests {
    @Test("A's rows stay in A's files: B signs in to an empty context, and A finds hers again")
    func eachUserKeepsTheirOwnData() async throws {
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-e2e")
            let t = try e2e.makeApp(in: folder)
            #expect(t.contextUser == nil)
            let ada = try await e2e.signInInternal(t.service, identifier: "ada@example.com")
            #expect(t.contextUser == ada.uid)
            try t.storeNote("ada's note")
            await t.service.unauthenticate()
            #expect(t.contextUser == nil)
            #expect(try notesOnDisk(ofUser: ada.uid, in: folder) == ["ada's note"])

            let bob = try await e2e.signInInternal(t.service, identifier: "bob@example.com")
            #expect(t.contextUser == bob.uid)
            #expect(try t.storedNotes() == [])
            try t.storeNote("bob's note")
            let bobsContext = try #require(t.app.currentContext)

            // Straight from Bob to Ada, no sign-out: Bob's context closes, his rows stay his.
            _ = try await e2e.signInInternal(t.service, identifier: "ada@example.com")
            #expect(t.contextUser == ada.uid)
            #expect(try t.storedNotes() == ["ada's note"])
            #expect(throws: (any Error).self) { try bobsContext.stores.persistence.read { _ in } }
            #expect(try notesOnDisk(ofUser: bob.uid, in: folder) == ["bob's note"])
        }
    }

    @Test("sign-out erases the user's files when the configuration says so, and keeps them by default")
    func signOutKeepsOrErasesTheUsersFiles() async throws {
        try await withEndToEnd { e2e in
            for policy in [UserDataOnSignOut.keep, .erase] {
                let folder = try TemporaryDirectory(prefix: "sesame-e2e")
                let t = try e2e.makeApp(in: folder, userDataOnSignOut: policy)
                let ada = try await e2e.signInInternal(t.service, identifier: "ada@example.com")
                try t.storeNote("ada's note")
                await t.service.unauthenticate()
                let directory = try UserContext.directory(for: ada.uid, root: folder.url)
                #expect(FileManager.default.fileExists(atPath: directory.path) == (policy == .keep), "\(policy)")
            }
        }
    }

    @Test("a relaunch restores presession with the user's data before the refresh completes, then authenticated")
    func relaunchRestoresTheContextInPresession() async throws {
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-e2e")
            let ada = try await e2e.earlierLaunch(in: folder, writing: "kept across launches")
            let gate = GatedRestoration()
            let relaunched = try e2e.makeApp(in: folder, restorationDelegate: gate)
            #expect(relaunched.contextUser == nil)
            async let restored = relaunched.service.restoreSession()
            #expect(await poll { gate.hasStartedRefreshing }, "the refresh did not start")
            #expect(await relaunched.service.state == .presession(ada))
            #expect(relaunched.contextUser == ada.uid)
            #expect(try relaunched.storedNotes() == ["kept across launches"])
            gate.open()
            #expect(await restored == .authenticated(ada))
            #expect(relaunched.contextUser == ada.uid)
        }
    }

    @Test("an app killed while signed in restores presession with the user's data at relaunch, before the refresh completes")
    func aKilledAppRestoresItsUsersContextAtRelaunch() async throws {
        let child = try #require(builtProduct(named: "app-session-child"), "build the app-session-child product first (swift build)")
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-e2e")
            let arguments = [e2e.backEnd.baseURL.absoluteString, folder.url.path, BackEnd.clientID, BackEnd.clientSecret]
            let ready = try await onOwnThread { () throws -> String in
                let process = Process()
                process.executableURL = child
                process.arguments = arguments
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                try process.run()
                var line = Data()
                while !line.contains(UInt8(ascii: "\n")) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    line.append(chunk)
                }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return String(decoding: line, as: UTF8.self)
            }
            let uid = try #require(
                ready.hasPrefix("ready ") ? ready.dropFirst(6).trimmingCharacters(in: .newlines) : nil,
                "the child did not sign in: \(ready)")

            let gate = GatedRestoration()
            let relaunched = try e2e.makeApp(in: folder, restorationDelegate: gate)
            async let restored = relaunched.service.restoreSession()
            #expect(await poll { gate.hasStartedRefreshing }, "the refresh did not start")
            #expect(await relaunched.service.state.details?.uid == uid)
            #expect(await !relaunched.service.state.isAuthenticated, "authenticated before the refresh completed")
            #expect(relaunched.contextUser == uid)
            #expect(try relaunched.storedNotes() == ["written before the kill"])
            gate.open()
            let state = await restored
            #expect(state.isAuthenticated && state.details?.uid == uid, "\(state)")
        }
    }

    @Test("an offline launch has the user's data in presession, without any request")
    func offlineLaunchHasTheUsersData() async throws {
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-e2e")
            let ada = try await e2e.earlierLaunch(in: folder, writing: "offline note")
            let before = await e2e.backEnd.counters()
            let relaunched = try e2e.makeApp(in: folder)
            await relaunched.service.setConnectivity(online: false)
            #expect(await relaunched.service.restoreSession() == .presession(ada))
            #expect(try relaunched.storedNotes() == ["offline note"])
            #expect(await e2e.backEnd.counters().requests("POST /oauth/token") == before.requests("POST /oauth/token"))
        }
    }

    @Test("a restore the back-end rejects ends invalid and closes the context; the files stay")
    func rejectedRestoreClosesTheContext() async throws {
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-e2e")
            let ada = try await e2e.earlierLaunch(in: folder, writing: "still mine")
            _ = try await e2e.backEnd.revokeTokens(ofUser: ada.uid)
            let relaunched = try e2e.makeApp(in: folder)
            // Subscribed before the restore starts: the stream holds every change from here.
            let changes = relaunched.app.contextChanges()
            #expect(await relaunched.service.restoreSession() == .invalid)
            #expect(relaunched.contextUser == nil)
            var seen: [String?] = []
            for await context in changes {
                seen.append(context?.userID)
                if seen.count == 3 { break }
            }
            #expect(seen == [nil, ada.uid, nil])
            #expect(try notesOnDisk(ofUser: ada.uid, in: folder) == ["still mine"])
        }
    }

    @Test("a context that cannot open (a database newer than the app) fails the sign-in and changes nothing")
    func aContextThatCannotOpenFailsTheSignIn() async throws {
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-e2e")
            let t = try e2e.makeApp(in: folder)
            let ada = try await e2e.signInInternal(t.service, identifier: "ada@example.com")
            await t.service.unauthenticate()
            let directory = try UserContext.directory(for: ada.uid, root: folder.url)
            let queue = try DatabaseQueue(path: directory.appendingPathComponent(ContextStores.persistenceFileName).path)
            try await queue.write { db in try db.execute(sql: "PRAGMA user_version = 99") }
            try queue.close()

            let bob = try await e2e.signInInternal(t.service, identifier: "bob@example.com")
            do {
                _ = try await e2e.signInInternal(t.service, identifier: "ada@example.com")
                Issue.record("the sign-in succeeded with a database newer than the app")
            } catch let error as StoreError {
                guard case .databaseNewerThanApp(kind: .persistence, _, databaseVersion: 99, appVersion: 3) = error else {
                    Issue.record("unexpected store error: \(error)")
                    return
                }
            }
            #expect(await t.service.state == .authenticated(bob))
            #expect(t.contextUser == bob.uid)
            #expect(try t.storedNotes() == [])
        }
    }

    @Test("a sign-in superseded by a sign-out never opens a context")
    func aSupersededSignInNeverOpensAContext() async throws {
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-e2e")
            let t = try e2e.makeApp(in: folder)
            let changes = t.app.contextChanges()
            let opened = Task { () -> [String?] in
                var seen: [String?] = []
                for await context in changes {
                    seen.append(context?.userID)
                    if context != nil || Task.isCancelled { break }
                }
                return seen
            }
            await e2e.backEnd.server.state.setLatency(.milliseconds(300))
            let signIn = Task { try await e2e.signInAsGuest(t.service) }
            try await Task.sleep(for: .milliseconds(100))
            await t.service.unauthenticate()
            await #expect(throws: SesameError.self) { try await signIn.value }
            await e2e.backEnd.server.state.setLatency(.zero)
            try await Task.sleep(for: .milliseconds(400))
            opened.cancel()
            #expect(await opened.value.allSatisfy { $0 == nil })
            #expect(t.contextUser == nil)
            #expect(await t.service.state == .unauthenticated)
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("users").path))
        }
    }

    @Test("a user switch while A's refresh is in flight keeps B's session and data out of A's context")
    func aUserSwitchDuringARefreshKeepsUsersApart() async throws {
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-e2e")
            let t = try e2e.makeApp(in: folder)
            let ada = try await e2e.signInInternal(t.service, identifier: "ada@example.com")
            try t.storeNote("ada's note")
            let adasContext = try #require(t.app.currentContext)
            await e2e.advanceTime(by: 4000)  // Ada's token expired: her next call refreshes
            await e2e.backEnd.server.state.setLatency(.milliseconds(200))
            let adasCall = Task { try await t.service.listNotes() }
            try await Task.sleep(for: .milliseconds(50))
            let bob = try await e2e.signInInternal(t.service, identifier: "bob@example.com")
            _ = try? await adasCall.value
            await e2e.backEnd.server.state.setLatency(.zero)

            #expect(await t.service.state == .authenticated(bob))
            #expect(t.contextUser == bob.uid)
            #expect(try t.storedNotes() == [])
            #expect(throws: (any Error).self) { try adasContext.stores.persistence.read { _ in } }
            #expect(try notesOnDisk(ofUser: ada.uid, in: folder) == ["ada's note"])
            let saved = try t.app.contexts.standard.sessionStore(userID: ReferenceSDKSchema.userID(of:)).load()
            #expect(saved?.details.uid == bob.uid)
            #expect(try t.app.contexts.standard.savedUser()?.id == bob.uid)
            #expect(try await t.service.me().uid == bob.uid)
        }
    }
}
