import Foundation
import ReferenceSDK
import Testing

/// `detachCurrentIdentity()` and `destroyAccount()`: they need a sign-in at most 300 s old
/// (`freshAuthentication`), and neither changes the state.
@Suite("Account operations, end to end", .secretScan)
struct AccountEndToEndTests {
    @Test("detachCurrentIdentity() with a fresh sign-in detaches the identity it signed in with; the state stays")
    func detachWithFreshSignIn() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInInternal(service, identifier: "kay@example.com")
            try await e2e.backEnd.attachIdentity(toUser: details.uid, provider: "password", providerUID: "kay")

            let response = try await service.detachCurrentIdentity()

            let result = try response.decode(DetachResult.self)
            #expect(result.accountDestroyed == false)
            #expect(result.remaining.map(\.provider) == [.password])
            #expect(try await service.identities().map(\.provider) == [.password])
            #expect(await e2e.backEnd.counters().requests("DELETE /identities/{provider}") == 1)
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("detaching the last identity destroys the account; the token stays valid and the state stays")
    func detachLastIdentity() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)

            let result = try await service.detachCurrentIdentity().decode(DetachResult.self)

            #expect(result.accountDestroyed)
            #expect(result.remaining.isEmpty)
            #expect(try await service.identities().isEmpty)
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("destroyAccount() with a fresh sign-in destroys the account; the state stays authenticated")
    func destroyWithFreshSignIn() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            try await service.createNote(NewNote(text: "soon gone"))

            let response = try await service.destroyAccount()

            #expect(response.status == 204)
            #expect(try await service.listNotes().isEmpty)
            #expect(try await service.identities().isEmpty)
            #expect(await service.state == .authenticated(details))
            // A second time, the back-end has nothing left to destroy.
            let again = await #expect(throws: ReferenceSDKError.self) { try await service.destroyAccount() }
            guard case .notFound? = again else {
                Issue.record("expected not_found, got \(String(describing: again))")
                return
            }
        }
    }

    @Test(
        "a sign-in older than 300 s (both clocks moved): reauthenticationRequired, nothing sent, state unchanged",
        arguments: ["detachIdentity", "destroyAccount"])
    func staleSignIn(operation: String) async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            await e2e.advanceTime(by: 301)

            let error = await #expect(throws: SesameError.self) {
                if operation == "detachIdentity" {
                    try await service.detachCurrentIdentity()
                } else {
                    try await service.destroyAccount()
                }
            }

            #expect(error == .reauthenticationRequired(operation: operation))
            let counters = await e2e.backEnd.counters()
            #expect(counters.requests("DELETE /identities/{provider}") == 0)
            #expect(counters.requests("DELETE /account") == 0)
            #expect(await service.state == .authenticated(details))
            #expect(try await service.identities().count == 1)
        }
    }

    @Test("a sign-in 300 s old exactly is still fresh enough")
    func signInAtTheLimit() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            try await e2e.signInAsGuest(service)
            await e2e.advanceTime(by: 300)

            try await service.destroyAccount()

            #expect(await e2e.backEnd.counters().requests("DELETE /account") == 1)
        }
    }

    @Test("a refresh does not renew the sign-in time: still reauthenticationRequired after a refresh")
    func refreshKeepsSignInTime() async throws {
        try await withEndToEnd(accessTokenLifetime: .seconds(120)) { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            await e2e.advanceTime(by: 301)
            _ = try await service.me()
            #expect(await e2e.backEnd.counters().refreshes == 1)

            await #expect(throws: SesameError.reauthenticationRequired(operation: "destroyAccount")) {
                try await service.destroyAccount()
            }
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("when only the server thinks the sign-in is old, its 403 token_too_old arrives typed; state unchanged")
    func serverSideStaleSignIn() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            await e2e.backEnd.advanceClock(by: 301)

            let error = await #expect(throws: ReferenceSDKError.self) { try await service.destroyAccount() }

            guard case .tokenTooOld(let response)? = error else {
                Issue.record("expected token_too_old, got \(String(describing: error))")
                return
            }
            #expect(response.status == 403)
            #expect(response.category == .reauthenticationRequired)
            #expect(await e2e.backEnd.counters().refreshes == 0)
            #expect(await service.state == .authenticated(details))
        }
    }
}
