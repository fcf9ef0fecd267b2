import Foundation
import ReferenceSDK
import SesameTestSupport
import Testing

/// A session saved by one launch is restored by the next: `presession` until its refresh
/// succeeds (`authenticated`) or is rejected (`invalid`).
@Suite("Session restoration, end to end", .secretScan)
struct RestorationEndToEndTests {
    @Test("a second service with the same store restores presession, then authenticated after a refresh")
    func restoreAuthenticated() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let first = e2e.makeService(store: store)
            let details = try await e2e.signInInternal(first, identifier: "ida@example.com")
            let saved = try #require(try store.load())

            let relaunched = e2e.makeService(store: store)
            let recorder = await EventRecorder.attach(to: relaunched)
            let state = await relaunched.restoreSession()

            guard case .authenticated(let restored) = state else {
                Issue.record("expected authenticated, got \(state)")
                return
            }
            #expect(restored.uid == details.uid)
            #expect(await recorder.wait { $0.states == [.unauthenticated, .presession(details), .authenticated(restored)] })
            #expect(await e2e.backEnd.counters().refreshes == 1)
            // The rotated tokens replaced the saved ones; the sign-in time is the original one.
            let resaved = try #require(try store.load())
            let rotated = resaved.credential.refreshToken != saved.credential.refreshToken  // a Bool: a failure prints no token
            #expect(rotated, "the restored session's refresh token was not rotated")
            #expect(resaved.signedInAt == saved.signedInAt)
            #expect(try await relaunched.me().uid == details.uid)
        }
    }

    @Test("tokens revoked between launches: presession, then invalid, and the store is cleared")
    func restoreRevoked() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let first = e2e.makeService(store: store)
            let details = try await e2e.signInAsGuest(first)
            try await e2e.backEnd.revokeTokens(ofUser: details.uid)

            let relaunched = e2e.makeService(store: store)
            let recorder = await EventRecorder.attach(to: relaunched)
            let state = await relaunched.restoreSession()

            #expect(state == .invalid)
            #expect(await recorder.wait { $0.states == [.unauthenticated, .presession(details), .invalid] })
            #expect(try store.load() == nil)
            #expect(await e2e.backEnd.counters().rejectedRefreshes == 1)
        }
    }

    @Test("restored offline: presession without a request; back online, the refresh makes it authenticated")
    func restoreOffline() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let details = try await e2e.signInAsGuest(e2e.makeService(store: store))
            let before = await e2e.backEnd.counters()

            let relaunched = e2e.makeService(store: store)
            await relaunched.setConnectivity(online: false)
            let state = await relaunched.restoreSession()

            #expect(state == .presession(details))
            #expect(await e2e.backEnd.counters() == before)

            await relaunched.setConnectivity(online: true)

            #expect(await relaunched.state.isAuthenticated)
            #expect(await e2e.backEnd.counters().refreshes == 1)
        }
    }

    @Test("the back-end unreachable at launch keeps presession; a later restoreSession() succeeds")
    func restoreRetried() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let details = try await e2e.signInAsGuest(e2e.makeService(store: store))
            await e2e.backEnd.injectFailure(
                method: "POST", path: "/oauth/token", status: 503,
                rawBody: #"{"error":"unavailable"}"#, contentType: "application/json")

            let logs = LogCapture()
            let relaunched = e2e.makeService(store: store, logs: logs)
            #expect(await relaunched.restoreSession() == .presession(details))
            #expect(try store.load() != nil)

            let retried = await relaunched.restoreSession()

            #expect(retried.isAuthenticated, "runtime log: \(logs.lines)")
            #expect(await e2e.backEnd.counters().refreshes == 1)
        }
    }

    @Test("nothing saved: restoreSession() stays unauthenticated and sends nothing")
    func restoreNothing() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()

            #expect(await service.restoreSession() == .unauthenticated)
            #expect(await e2e.backEnd.counters().requests.isEmpty)
        }
    }
}
