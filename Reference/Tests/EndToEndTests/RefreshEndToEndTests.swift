import Foundation
import ReferenceSDK
import Testing

/// The credential's refresh over real HTTP: ahead of expiry, single flight with rotation,
/// after the auth server's own rejection, and the end of a session the back-end revoked.
@Suite("Refresh, end to end", .secretScan)
struct RefreshEndToEndTests {
    @Test("an expired token is refreshed once for N concurrent calls, and the rotated refresh token is the one kept")
    func singleFlightRefreshWithRotation() async throws {
        try await withEndToEnd { e2e in
            let traffic = TrafficRecorder()
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, traffic: traffic)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            let original = try #require(try store.load()?.credential)
            await e2e.advanceTime(by: 3601)
            let before = await e2e.backEnd.counters()

            let callers = 8
            let uids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<callers { group.addTask { try await service.me().uid } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            let after = await e2e.backEnd.counters()
            #expect(uids == Array(repeating: details.uid, count: callers))
            #expect(after.refreshes - before.refreshes == 1)
            #expect(after.requests("POST /oauth/token") - before.requests("POST /oauth/token") == 1)
            #expect(after.requests("GET /me") - before.requests("GET /me") == callers)
            #expect(after.rejectedRefreshes == 0)
            #expect(await recorder.wait { $0.refreshes == 1 })
            // Rotation: new tokens, saved together; the state stays authenticated.
            let rotated = try #require(try store.load()?.credential)
            // Compared as Bools so that a failure never prints a token.
            let (newAccess, newRefresh) = (rotated.accessToken != original.accessToken, rotated.refreshToken != original.refreshToken)
            let savedLastIssued = rotated.refreshToken == traffic.issuedTokens.last
            #expect(newAccess, "the access token was not rotated")
            #expect(newRefresh, "the refresh token was not rotated")
            #expect(savedLastIssued, "the saved refresh token is not the last one issued")
            #expect(rotated.expiresAt == e2e.clock.now.addingTimeInterval(3600))
            #expect(await service.state.isAuthenticated)
            let replayed = try await RawHTTP.refresh(e2e.backEnd.baseURL, refreshToken: try #require(original.refreshToken))
            #expect(replayed.status == 400)
            #expect(replayed.body.contains("invalid_grant"))
            // The refresh request went as a form with HTTP Basic client authentication.
            let refresh = try #require(traffic.requests("POST", "/oauth/token").last)
            #expect(refresh.headerFields[.authorization] == "Basic " + Data("sesame-demo:demo-secret".utf8).base64EncodedString())
            #expect(refresh.body.contains("grant_type=refresh_token"))
        }
    }

    @Test("a refreshed session keeps refreshing with the rotated refresh token")
    func secondRefreshUsesRotatedToken() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            try await e2e.signInAsGuest(service)

            await e2e.advanceTime(by: 3601)
            _ = try await service.me()
            await e2e.advanceTime(by: 3601)
            _ = try await service.me()

            let counters = await e2e.backEnd.counters()
            #expect(counters.refreshes == 2)
            #expect(counters.rejectedRefreshes == 0)
            #expect(await service.state.isAuthenticated)
        }
    }

    @Test("within the leeway (60 s before expiry) the token is refreshed before the call")
    func refreshWithinLeeway() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            try await e2e.signInAsGuest(service)

            await e2e.advanceTime(by: 3500)
            _ = try await service.me()
            #expect(await e2e.backEnd.counters().refreshes == 0)

            await e2e.advanceTime(by: 50)
            _ = try await service.me()
            #expect(await e2e.backEnd.counters().refreshes == 1)
        }
    }

    @Test("the auth server's rejection (401 invalid_token) is refreshed once and the call retried")
    func refreshAfterRejection() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            // Only the server's clock moves: the client still thinks the token is fresh.
            await e2e.backEnd.advanceClock(by: 3601)
            let before = await e2e.backEnd.counters()

            let me = try await service.me()

            let after = await e2e.backEnd.counters()
            #expect(me.uid == details.uid)
            #expect(after.refreshes - before.refreshes == 1)
            #expect(after.requests("GET /me") - before.requests("GET /me") == 2)
            #expect(await service.state.isAuthenticated)
        }
    }

    @Test("tokens revoked on the server: the refresh is rejected (typed invalidGrant) and the state becomes invalid")
    func revokedTokensInvalidate() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            try await e2e.backEnd.revokeTokens(ofUser: details.uid)
            await e2e.advanceTime(by: 3601)

            let error = await #expect(throws: ReferenceSDKError.self) { try await service.me() }

            guard case .invalidGrant? = error else {
                Issue.record("expected invalid_grant, got \(String(describing: error))")
                return
            }
            #expect(await service.state == .invalid)
            #expect(try store.load() == nil)
            #expect(await e2e.backEnd.counters().rejectedRefreshes == 1)
            #expect(await recorder.wait { $0.states.last == .invalid && $0.refreshFailures.map(\.kind) == [.rejected] })
            // Nothing more goes out for the dead session.
            await #expect(throws: SesameError.notAuthenticated) { try await service.me() }
        }
    }

    @Test("tokens revoked on the server while fresh: 401 invalid_token, rejected refresh, invalid")
    func revokedFreshTokensInvalidate() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            try await e2e.backEnd.revokeTokens(ofUser: details.uid)

            await #expect(throws: ReferenceSDKError.self) { try await service.listNotes() }

            let counters = await e2e.backEnd.counters()
            #expect(await service.state == .invalid)
            #expect(counters.requests("GET /notes") == 1)
            #expect(counters.rejectedRefreshes == 1)
        }
    }
}
