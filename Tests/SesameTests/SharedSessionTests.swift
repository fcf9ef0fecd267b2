import Foundation
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// Several services over one `SharedSessionStore`, as the processes of an app and its
/// extensions (in memory here; with real processes and SQLite in Reference/'s
/// SharedSessionEndToEndTests).
@Suite struct SharedSessionTests {
    let notes = OperationRequest(TestRequests.notes)

    /// Vouches for the saved session at launch.
    struct Trust: SessionRestorationDelegate {
        func shouldRefresh(user: TestDetails, isStartup: Bool) async -> Bool { false }
    }

    /// Records what the service tells it.
    final class Observer: UserSessionObserver, @unchecked Sendable {
        let lock = NSLock()
        var calls: [String] = []
        func userSessionWillBegin(userID: String, _ beginning: UserSessionBeginning) throws {
            lock.withLock { calls.append("begin \(userID) \(beginning)") }
        }
        func userSessionDidEnd(_ ending: UserSessionEnding) { lock.withLock { calls.append("end \(ending)") } }
        func userSessionDidEndElsewhere(_ ending: UserSessionEnding) { lock.withLock { calls.append("ended elsewhere \(ending)") } }
        var recorded: [String] { lock.withLock { calls } }
    }

    /// `count` processes over one box, one back-end and one clock; the first signed in as u1.
    struct Processes {
        let backEnd = FakeBackEnd()
        let clock = ManualClock()
        let box = SharedSessionBox()
        var stores: [InMemorySharedSessionStore] = []
        var services: [AuthenticationService<TestSchema>] = []
        var observers: [Observer] = []

        init(count: Int) async throws {
            for _ in 0..<count {
                let store = box.handle()
                let observer = Observer()
                let clock = self.clock
                stores.append(store)
                observers.append(observer)
                services.append(
                    AuthenticationService(
                        configuration: .init(
                            client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: backEnd,
                            now: { clock.now }, sessionStore: store, restorationDelegate: Trust(),
                            receivesServerEvents: false, userSessionObserver: observer)))
            }
            _ = try await services[0].authenticate(with: TestSingleStepMethod.guest)
            for service in services.dropFirst() { _ = await service.restoreSession() }
        }
    }

    @Test func processesWithAnExpiredTokenRefreshOnceAndAdoptIt() async throws {
        let p = try await Processes(count: 4)
        await p.backEnd.set { $0.refreshYields = 50 }
        let signIn = await p.backEnd.count("/oauth/token")
        p.clock.advance(by: 4000)
        let notes = self.notes
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in p.services {
                for _ in 0..<5 { group.addTask { _ = try await service.perform(notes) } }
            }
            try await group.waitForAll()
        }
        #expect(await p.backEnd.count("/oauth/token") == signIn + 1)  // one refresh for all
        let saved = try #require(p.box.saved)
        for service in p.services {
            #expect(await service.session?.credential == saved.credential)
            #expect(await service.state.isAuthenticated)
        }
    }

    @Test func aRefreshThatAnotherProcessAlreadyMadeIsAdoptedWithoutARequest() async throws {
        let p = try await Processes(count: 2)
        p.clock.advance(by: 4000)
        _ = try await p.services[0].perform(notes)
        let refreshes = await p.backEnd.count("/oauth/token")
        // The second process still holds the old credential: it takes the saved one under
        // the lock (or by following the store), and sends no refresh.
        _ = try await p.services[1].perform(notes)
        #expect(await p.backEnd.count("/oauth/token") == refreshes)
        #expect(await p.services[1].session?.credential == p.box.saved?.credential)
        #expect(await p.backEnd.requests.last?.authorization == "Bearer \(p.box.saved?.credential.accessToken ?? "")")
    }

    @Test func aSignOutElsewhereEndsTheSessionAndIsNeverUndone() async throws {
        let p = try await Processes(count: 2)
        await p.services[0].unauthenticate()
        #expect(await poll { await p.services[1].state == .unauthenticated })
        #expect(p.observers[1].recorded.last == "ended elsewhere signOut")
        // Its next request finds no session, refreshes nothing and saves nothing.
        p.clock.advance(by: 4000)
        await #expect(throws: SesameError.notAuthenticated) { _ = try await p.services[1].perform(notes) }
        #expect(p.box.saved == nil)
    }

    @Test func aRefreshUnderWayWhenAnotherProcessSignsOutSavesNothing() async throws {
        let p = try await Processes(count: 2)
        let before = try #require(p.box.saved)
        let signIn = await p.backEnd.count("/oauth/token")
        // The second process refreshes its own copy after a sign-out it has not heard of yet.
        p.clock.advance(by: 4000)
        try p.stores[0].clear(ending: .signOut)
        let outcome = await p.services[1].refreshAcrossProcesses(of: before)
        #expect(throws: (any Error).self) { try outcome.get() }
        #expect(p.box.saved == nil)
        #expect(await p.backEnd.count("/oauth/token") == signIn)  // no refresh sent
        #expect(await p.services[1].state == .unauthenticated)
    }

    /// A lock the store cannot take says why (here, as `SharedSQLiteSessionStore` says of a
    /// symbolic link planted in place of its lock file), not that another process held it;
    /// the refresh fails as transient and the session is kept.
    @Test func aLockTheStoreCannotTakeFailsTheRefreshWithTheStoresReason() async throws {
        struct PlantedLink: Error, CustomStringConvertible {
            var description: String { "/shared/sesame.refresh-lock: the refresh lock is a symbolic link, which is refused" }
        }
        let p = try await Processes(count: 1)
        let before = try #require(p.box.saved)
        p.stores[0].lockFailure.set(PlantedLink())
        p.clock.advance(by: 4000)
        let outcome = await p.services[0].refreshAcrossProcesses(of: before)
        guard case .failure(let failure) = outcome else {
            Issue.record("the refresh succeeded without the lock")
            return
        }
        #expect(failure.failure.kind == .transient)
        #expect(
            failure.failure.reason
                == "the refresh lock shared with other processes could not be taken: "
                + "/shared/sesame.refresh-lock: the refresh lock is a symbolic link, which is refused")
        #expect(await p.services[0].state.isAuthenticated)
        #expect(p.box.saved == before)
    }

    @Test func anInvalidationElsewhereMakesTheOthersInvalid() async throws {
        let p = try await Processes(count: 2)
        try p.stores[0].clear(ending: .invalidated)
        #expect(await poll { await p.services[1].state == .invalid })
        #expect(p.observers[1].recorded.last == "ended elsewhere invalidated")
    }

    @Test func aSignInElsewhereIsFollowedWithTheUsersContext() async throws {
        let p = try await Processes(count: 2)
        await p.services[0].unauthenticate()
        #expect(await poll { await p.services[1].state == .unauthenticated })
        _ = try await p.services[0].authenticate(with: TestSingleStepMethod.password(username: "u3", password: "secret"))
        #expect(await poll { await p.services[1].state.details?.uid == "u3" })
        #expect(await p.services[1].state.isAuthenticated)
        #expect(p.observers[1].recorded.last == "begin u3 restore")
    }
}
