import Foundation
import Testing
@testable import Sesame

/// A restoration delegate that records its calls and can decline to refresh.
final class RecordingDelegate: SessionRestorationDelegate, @unchecked Sendable {
    typealias Details = TestDetails
    private let lock = NSLock()
    private var calls: [String] = []
    let refreshes: Bool

    init(refreshes: Bool = true) { self.refreshes = refreshes }

    var recorded: [String] { lock.withLock { calls } }

    func shouldRefresh(user: TestDetails, isStartup: Bool) async -> Bool {
        lock.withLock { calls.append("shouldRefresh(\(user.uid), isStartup: \(isStartup))") }
        return refreshes
    }

    func deauthenticate() async {
        lock.withLock { calls.append("deauthenticate") }
    }
}

/// A restoration delegate whose refresh succeeds with a new display name, after the app
/// went offline meanwhile.
final class OfflineDuringRefreshDelegate: SessionRestorationDelegate, @unchecked Sendable {
    typealias Details = TestDetails
    private let lock = NSLock()
    private var _service: AuthenticationService<TestSchema>?
    var service: AuthenticationService<TestSchema>? {
        get { lock.withLock { _service } }
        set { lock.withLock { _service = newValue } }
    }

    func refresh(user: TestDetails, refresher: SessionRefresher<TestDetails>) async throws -> TestDetails {
        var details = try await refresher.refresh()
        await service?.setConnectivity(online: false)
        details.displayName = "Ada"
        return details
    }
}

@Suite struct RestorationTests {
    let u1 = TestDetails(uid: "u1", provider: "guest")

    /// Signs in with one service, then returns a second one over the same store, as after a relaunch.
    func relaunched(
        delegate: (any SessionRestorationDelegate<TestDetails>)? = nil
    ) async throws -> (TestEnvironment<TestSchema>, AuthenticationService<TestSchema>) {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        return (env, env.relaunch(delegate: delegate))
    }

    @Test func aRestoredSessionIsPresessionUntilItsRefreshSucceeds() async throws {
        let delegate = RecordingDelegate()
        let (env, service) = try await relaunched(delegate: delegate)
        let events = await service.events()
        #expect(await service.restoreSession() == .authenticated(u1))
        #expect(delegate.recorded == ["shouldRefresh(u1, isStartup: true)"])
        #expect(await env.backEnd.count("/oauth/token") == 1)
        #expect(try env.store.load()?.credential.refreshToken == "rt-2")
        await service.unsubscribeFromAll()
        let states = await TestEnvironment<TestSchema>.collect(events).filter {
            if case .stateChanged = $0 { return true } else { return false }
        }
        #expect(states == [.stateChanged(.unauthenticated), .stateChanged(.presession(u1)), .stateChanged(.authenticated(u1))])
    }

    @Test func aRejectedRestorationIsInvalidAndDeauthenticates() async throws {
        let delegate = RecordingDelegate()
        let (env, service) = try await relaunched(delegate: delegate)
        await env.backEnd.revokeRefreshTokens()
        #expect(await service.restoreSession() == .invalid)
        #expect(delegate.recorded.last == "deauthenticate")
        #expect(try env.store.load() == nil)
    }

    @Test func aRefreshNamingAnotherUserIsRejected() async throws {
        let (env, service) = try await relaunched()
        await env.backEnd.renameUser("u1", to: "u9")
        #expect(await service.restoreSession() == .invalid)
    }

    @Test func aDelegateThatDeclinesVouchesForTheSession() async throws {
        let (env, service) = try await relaunched(delegate: RecordingDelegate(refreshes: false))
        let before = await env.backEnd.requests.count
        #expect(await service.restoreSession() == .authenticated(u1))
        #expect(await env.backEnd.requests.count == before)
    }

    @Test func aTransientFailureStaysPresessionAndCanBeRetried() async throws {
        let (env, service) = try await relaunched()
        await env.backEnd.set { $0.refreshBehaviour = .unavailable }
        #expect(await service.restoreSession() == .presession(u1))
        await env.backEnd.set { $0.refreshBehaviour = .succeed }
        #expect(await service.restoreSession() == .authenticated(u1))
    }

    @Test func offlineRestorationWaitsForTheConnection() async throws {
        let delegate = RecordingDelegate()
        let (env, service) = try await relaunched(delegate: delegate)
        await service.setConnectivity(online: false)
        let before = await env.backEnd.requests.count
        #expect(await service.restoreSession() == .presession(u1))
        #expect(await env.backEnd.requests.count == before)
        #expect(delegate.recorded.isEmpty)
        await service.setConnectivity(online: true)
        #expect(await service.state == .authenticated(u1))
        #expect(delegate.recorded == ["shouldRefresh(u1, isStartup: false)"])
    }

    /// Offline, the state is frozen, and with it the session's details: the details are held
    /// once, in the state's session, so what the app reads, what operations send (the
    /// detach operation's path parameters) and what is saved never disagree.
    @Test func detailsThatArriveOfflineChangeNeitherTheStateNorTheSession() async throws {
        let delegate = OfflineDuringRefreshDelegate()
        let (env, service) = try await relaunched(delegate: delegate)
        delegate.service = service
        #expect(await service.restoreSession() == .presession(u1))
        #expect(await service.session?.details == u1)
        #expect(try env.store.load()?.details == u1)
        // The refresh's credential was installed all the same: it reached the back-end.
        #expect(await service.session?.credential.refreshToken == "rt-2")
    }

    @Test func nothingSavedStaysUnauthenticated() async throws {
        let env = TestEnvironment()
        #expect(await env.service.restoreSession() == .unauthenticated)
        #expect(await env.backEnd.requests.isEmpty)
    }

    @Test func anExpiredRestoredTokenWithoutRefreshIsInvalid() async throws {
        let env = TestEnvironment(NoRefreshSchema.self)
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        env.clock.advance(by: 3601)
        let service = env.relaunch()
        #expect(await service.restoreSession() == .invalid)
    }
}
