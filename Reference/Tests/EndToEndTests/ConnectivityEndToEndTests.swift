import Foundation
import ReferenceSDK
import Testing

/// While offline the state is frozen against what the network says; coming back online
/// checks the session with the back-end.
@Suite("Connectivity, end to end", .secretScan)
struct ConnectivityEndToEndTests {
    @Test("offline freezes the state through a revocation; back online with the token revoked → invalid")
    func offlineThenRevoked() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            let details = try await e2e.signInAsGuest(service)

            await service.setConnectivity(online: false)
            #expect(await service.isOnline == false)
            try await e2e.backEnd.revokeTokens(ofUser: details.uid)
            await e2e.advanceTime(by: 3601)

            // The back-end rejects both the token and its refresh, but offline nothing changes.
            await #expect(throws: (any Error).self) { try await service.me() }
            #expect(await e2e.backEnd.counters().rejectedRefreshes == 1)
            #expect(await service.state == .authenticated(details))
            #expect(try store.load()?.details == details)

            await service.setConnectivity(online: true)

            #expect(await service.isOnline)
            #expect(await service.state == .invalid)
            #expect(try store.load() == nil)
        }
    }

    @Test("a session.revoked event received offline is delivered but does not change the state until the check online")
    func invalidatingEventOffline() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService(receivesServerEvents: true)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            #expect(await e2e.waitForEventStream(ofUser: details.uid))

            await service.setConnectivity(online: false)
            try await e2e.backEnd.revokeTokens(ofUser: details.uid)

            #expect(await recorder.wait { !$0.serverEvents.isEmpty })
            #expect(await service.state == .authenticated(details))

            await service.setConnectivity(online: true)

            #expect(await service.state == .invalid)
            #expect(recorder.states == [.unauthenticated, .authenticated(details), .invalid])
        }
    }

    @Test("back online with a valid session stays authenticated, after one check with the back-end")
    func offlineThenOnlineValid() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            let before = await e2e.backEnd.counters().requests("GET /me")

            await service.setConnectivity(online: false)
            await service.setConnectivity(online: true)

            #expect(await service.state == .authenticated(details))
            #expect(await e2e.backEnd.counters().requests("GET /me") == before + 1)
        }
    }

    @Test("offline, sign-out still ends unauthenticated, locally only, and sends nothing")
    func offlineSignOut() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            try await e2e.signInAsGuest(service)
            await service.setConnectivity(online: false)

            let result = await service.unauthenticate()

            #expect(result == .localOnly(reason: "offline"))
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
            #expect(await e2e.backEnd.counters().requests("POST /auth/logout") == 0)
        }
    }
}
