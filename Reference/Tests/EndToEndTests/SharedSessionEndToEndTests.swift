import Foundation
import ReferenceSDK
import SesameStore
import SesameTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One session across processes (issue 28), with real processes: the test is the app, and
/// `session-sharing-child` processes are its extensions, over one directory and the reference
/// back-end with refresh-token rotation. `sesame-bench processes` runs the long variant and
/// measures the propagation time.
@Suite("One session across processes, end to end", .serialized, .secretScan)
struct SharedSessionEndToEndTests {
    static let child = builtProduct(named: "session-sharing-child")

    @Test("8 processes with an expired token: one refresh reaches the server, and no process is refused")
    func eightProcessesRefreshOnce() async throws {
        let child = try #require(Self.child, "build the session-sharing-child product first (swift build)")
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-shared")
            let app = try await Self.signInWithATokenDue(e2e, in: folder)
            let before = await e2e.backEnd.counters()

            let arguments = SharedSessionEndToEndTests.arguments(e2e, folder) + ["requests", "20"]
            let runs = try await withThrowingTaskGroup(of: ProcessRun.self) { group in
                for _ in 0..<8 { group.addTask { try await runToEnd(child, arguments: arguments) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for run in runs {
                #expect(run.status == 0, "\(run.output)")
                #expect(run.output.contains(#""failed":0"#), "\(run.output)")
            }
            let after = await e2e.backEnd.counters()
            #expect(after.refreshes - before.refreshes == 1, "refreshes at the server")
            #expect(after.rejectedRefreshes == before.rejectedRefreshes, "refreshes refused (invalid_grant)")
            // The app takes what an extension saved (by following the store, or under the
            // lock at the latest): its next request sends no refresh.
            _ = try await app.service.me()
            #expect(await e2e.backEnd.counters().refreshes - before.refreshes == 1)
        }
    }

    @Test("a sign-out in one process ends the session of the others, which do not bring it back")
    func aSignOutReachesTheOtherProcesses() async throws {
        let child = try #require(Self.child, "build the session-sharing-child product first (swift build)")
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-shared")
            let app = try e2e.makeApp(in: folder, sharing: .acrossProcesses())
            let ada = try await e2e.signInInternal(app.service, identifier: "ada@example.com")
            let watcher = try ChildProcess(child, arguments: Self.arguments(e2e, folder) + ["watch"])
            #expect(try await watcher.line() == "ready authenticated \(ada.uid)")
            await app.service.unauthenticate()
            let changed = try await watcher.line()
            #expect(changed.hasPrefix("changed unauthenticated -"), "\(changed)")
            #expect(await watcher.exitStatus() == 0)

            // A process launched afterwards finds no session, and saves none.
            let late = try await runToEnd(child, arguments: Self.arguments(e2e, folder) + ["requests", "1"])
            #expect(late.output.contains(#""failed":1"#), "\(late.output)")
            #expect(await app.service.state == .unauthenticated)
            #expect(try app.app.contexts.standard.sharedSessionStore(userID: ReferenceSDKSchema.userID(of:)).load() == nil)
        }
    }

    @Test("a sign-in as another user in one process switches the others to that user")
    func aUserSwitchReachesTheOtherProcesses() async throws {
        let child = try #require(Self.child, "build the session-sharing-child product first (swift build)")
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-shared")
            let app = try e2e.makeApp(in: folder, sharing: .acrossProcesses())
            let ada = try await e2e.signInInternal(app.service, identifier: "ada@example.com")
            let watcher = try ChildProcess(child, arguments: Self.arguments(e2e, folder) + ["watch"])
            #expect(try await watcher.line() == "ready authenticated \(ada.uid)")
            let bob = try await e2e.signInInternal(app.service, identifier: "bob@example.com")
            let changed = try await watcher.line()
            #expect(changed.hasPrefix("changed authenticated \(bob.uid) "), "\(changed)")
            #expect(await watcher.exitStatus() == 0)
        }
    }

    @Test("a process killed while it holds the refresh lock does not block the others")
    func aKilledRefresherReleasesTheLock() async throws {
        let child = try #require(Self.child, "build the session-sharing-child product first (swift build)")
        try await withEndToEnd { e2e in
            let folder = try TemporaryDirectory(prefix: "sesame-shared")
            _ = try await Self.signInWithATokenDue(e2e, in: folder)
            // The refresh holds the lock for as long as the server takes to answer.
            await e2e.backEnd.server.state.setLatency(.seconds(5))
            let before = await e2e.backEnd.counters()
            let refresher = try ChildProcess(child, arguments: Self.arguments(e2e, folder) + ["requests", "1"])
            #expect(await poll(timeout: .seconds(30)) { await e2e.backEnd.requestLog().contains { $0.path == "/oauth/token" } })
            refresher.sigkill()
            #expect(await refresher.exitStatus() == SIGKILL)
            await e2e.backEnd.server.state.setLatency(.zero)

            // The server had not answered: the saved refresh token is still the live one, and
            // the next process takes the lock at once and refreshes with it.
            let next = try await runToEnd(child, arguments: Self.arguments(e2e, folder) + ["requests", "1"])
            #expect(next.output.contains(#""failed":0"#), "\(next.output)")
            let after = await e2e.backEnd.counters()
            #expect(after.rejectedRefreshes == before.rejectedRefreshes)
        }
    }

    /// The app, shared across processes in `folder`, with Ada signed in on a token issued for
    /// 30 s: within the schema's 60 s leeway, so every process's first request refreshes it;
    /// the refreshed one lasts an hour.
    static func signInWithATokenDue(_ e2e: EndToEnd, in folder: TemporaryDirectory) async throws -> TestApp {
        await e2e.backEnd.setAccessTokenLifetime(seconds: 30)
        let app = try e2e.makeApp(in: folder, sharing: .acrossProcesses())
        _ = try await e2e.signInInternal(app.service, identifier: "ada@example.com")
        await e2e.backEnd.setAccessTokenLifetime(seconds: 3600)
        return app
    }

    static func arguments(_ e2e: EndToEnd, _ folder: TemporaryDirectory) -> [String] {
        [e2e.backEnd.baseURL.absoluteString, folder.url.path, BackEnd.clientID, BackEnd.clientSecret]
    }
}
