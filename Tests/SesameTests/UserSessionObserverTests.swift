import Foundation
import Testing
@testable import Sesame

/// An observer that records what the service told it, with the session the store held at
/// that moment, and refuses sessions when told to.
final class RecordingObserver: UserSessionObserver, @unchecked Sendable {
    struct Refused: Error, Equatable {}

    private let lock = NSLock()
    private var calls: [String] = []
    private let store: InMemorySessionStore<TestDetails>
    var refuses = false

    init(store: InMemorySessionStore<TestDetails>) { self.store = store }

    var recorded: [String] { lock.withLock { calls } }

    private func saved() -> String { (try? store.load())?.details.uid ?? "none" }

    func userSessionWillBegin(userID: String, _ beginning: UserSessionBeginning) throws {
        let refuses = lock.withLock { self.refuses }
        let entry = "willBegin(\(userID), \(beginning)) saved: \(saved())"
        lock.withLock { calls.append(entry) }
        if refuses { throw Refused() }
    }

    func userSessionDidEnd(_ ending: UserSessionEnding) {
        let entry = "didEnd(\(ending)) saved: \(saved())"
        lock.withLock { calls.append(entry) }
    }

    func refuse(_ value: Bool) { lock.withLock { refuses = value } }
}

/// The service tells its `UserSessionObserver` when a user's session begins and ends, inside
/// the step that changes the state: before the session is saved or published, and never for
/// a sign-in or restore it refused.
@Suite struct UserSessionObserverTests {
    let store = InMemorySessionStore<TestDetails>()

    @Test func aSignInIsAnnouncedBeforeTheSessionIsSavedAndPublished() async throws {
        let observer = RecordingObserver(store: store)
        let env = TestEnvironment(store: store, observer: observer)
        let events = await env.service.events()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        // Another user, without a sign-out: the old session is still the saved one when asked.
        _ = try await env.service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "secret"))
        await env.service.unauthenticate()
        #expect(
            observer.recorded == [
                "willBegin(u1, signIn) saved: none",
                "willBegin(u3, signIn) saved: u1",
                "didEnd(signOut) saved: none",
            ])
        await env.service.unsubscribeFromAll()
        let states = await TestEnvironment<TestSchema>.collect(events).compactMap { event -> AuthenticationState<TestDetails>? in
            if case .stateChanged(let state) = event { return state } else { return nil }
        }
        #expect(
            states == [
                .unauthenticated, .authenticated(TestDetails(uid: "u1", provider: "guest")),
                .authenticated(TestDetails(uid: "u3", provider: "password")), .unauthenticated,
            ])
    }

    @Test func aRefusedSignInFailsWithTheObserversErrorAndChangesNothing() async throws {
        let observer = RecordingObserver(store: store)
        let env = TestEnvironment(store: store, observer: observer)
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        observer.refuse(true)
        await #expect(throws: RecordingObserver.Refused.self) {
            _ = try await env.service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "secret"))
        }
        #expect(await env.service.state == .authenticated(TestDetails(uid: "u1", provider: "guest")))
        #expect(try store.load()?.details.uid == "u1")
        #expect(await env.service.ongoingAuthentication == nil)
        // The refused user's session was never begun, so it never ends either.
        #expect(observer.recorded == ["willBegin(u1, signIn) saved: none", "willBegin(u3, signIn) saved: u1"])
    }

    @Test func aSignOutWithoutASessionEndsNothing() async {
        let observer = RecordingObserver(store: store)
        let env = TestEnvironment(store: store, observer: observer)
        await env.service.unauthenticate()
        #expect(observer.recorded == [])
    }

    @Test func aRestoreIsAnnouncedBeforePresessionAndARejectedOneEndsInvalidated() async throws {
        let env = TestEnvironment()  // relaunch() reopens env.store
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let observer = RecordingObserver(store: env.store)
        let relaunched = env.relaunch(observer: observer)
        await env.backEnd.revokeRefreshTokens()
        #expect(await relaunched.restoreSession() == .invalid)
        #expect(observer.recorded == ["willBegin(u1, restore) saved: u1", "didEnd(invalidated) saved: none"])
    }

    @Test func aRefusedRestoreStaysUnauthenticatedAndKeepsTheSavedSession() async throws {
        let env = TestEnvironment()  // relaunch() reopens env.store
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let observer = RecordingObserver(store: env.store)
        observer.refuse(true)
        let relaunched = env.relaunch(observer: observer)
        let before = await env.backEnd.count("/oauth/token")
        #expect(await relaunched.restoreSession() == .unauthenticated)
        #expect(try env.store.load()?.details.uid == "u1")
        #expect(await env.backEnd.count("/oauth/token") == before, "a refused restore refreshed")
        #expect(observer.recorded == ["willBegin(u1, restore) saved: u1"])
    }
}
