import Foundation
import ReferenceSDK
import Testing

/// `unauthenticate()` always ends in `unauthenticated`, whatever the back-end does.
@Suite("Sign-out, end to end", .secretScan)
struct SignOutEndToEndTests {
    @Test("sign-out revokes the session on the back-end and forgets it locally")
    func signOutRevokes() async throws {
        try await withEndToEnd { e2e in
            let traffic = TrafficRecorder()
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, traffic: traffic)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            let credential = try #require(try store.load()?.credential)

            let result = await service.unauthenticate()

            #expect(result == .revoked)
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
            #expect(await recorder.wait { $0.states == [.unauthenticated, .authenticated(details), .unauthenticated] })
            // The logout carried the old credential, and the back-end no longer accepts it.
            let logout = try #require(traffic.requests("POST", "/auth/logout").first)
            // Compared as a Bool so that a failure never prints a token.
            let carriedOldCredential = logout.headerFields[.authorization] == "Bearer \(credential.accessToken)"
            #expect(carriedOldCredential, "the logout did not carry the signed-in access token")
            #expect(logout.status == 204)
            let probe = try await RawHTTP.get(e2e.backEnd.baseURL.appending(path: "me"), bearer: credential.accessToken)
            #expect(probe.status == 401)
            let refresh = try await RawHTTP.refresh(e2e.backEnd.baseURL, refreshToken: try #require(credential.refreshToken))
            #expect(refresh.status == 400)
            #expect(refresh.body.contains("invalid_grant"))
        }
    }

    @Test("the generated logout() operation revokes the session on the back-end only: the next call finds it rejected → invalid")
    func generatedLogoutOperation() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)

            try await service.logout()

            #expect(await service.state == .authenticated(details))
            await #expect(throws: ReferenceSDKError.self) { try await service.me() }
            #expect(await service.state == .invalid)
            #expect(await e2e.backEnd.counters().rejectedRefreshes == 1)
        }
    }

    @Test("sign-out ends unauthenticated even when the back-end fails (injected 500)")
    func signOutWithFailingBackEnd() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            try await e2e.signInAsGuest(service)
            await e2e.backEnd.injectFailure(
                method: "POST", path: "/auth/logout", status: 500,
                rawBody: #"{"error":"internal","error_description":"boom"}"#,
                contentType: "application/json")

            let result = await service.unauthenticate()

            guard case .localOnly(let reason) = result else {
                Issue.record("expected a local-only sign-out, got \(result)")
                return
            }
            #expect(reason.contains("500"))
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
            #expect(await e2e.backEnd.counters().requests("POST /auth/logout") == 1)
        }
    }

    @Test("sign-out ends unauthenticated when the back-end is gone (server stopped)")
    func signOutWithServerStopped() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            try await e2e.signInAsGuest(service)
            await e2e.backEnd.stop()

            let result = await service.unauthenticate()

            guard case .localOnly(let reason) = result else {
                Issue.record("expected a local-only sign-out, got \(result)")
                return
            }
            #expect(reason.contains("failed"))
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
        }
    }

    @Test("sign-out from invalid ends unauthenticated without calling the back-end")
    func signOutFromInvalid() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            try await e2e.backEnd.revokeTokens(ofUser: details.uid)
            _ = try? await service.me()
            #expect(await service.state == .invalid)

            let result = await service.unauthenticate()

            #expect(result == .localOnly(reason: "no session to revoke"))
            #expect(await service.state == .unauthenticated)
            #expect(await e2e.backEnd.counters().requests("POST /auth/logout") == 0)
        }
    }
}
