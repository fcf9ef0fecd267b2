import Foundation
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

@Suite struct RefreshTests {
    let notes = OperationRequest(TestRequests.notes)

    func signedIn<Schema: SDKSchema>(_ schema: Schema.Type = TestSchema.self) async throws -> TestEnvironment<Schema>
    where Schema.Details == TestDetails {
        let env = TestEnvironment(schema)
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        return env
    }

    @Test func refreshesAheadOfExpiryWithinTheLeeway() async throws {
        let env = try await signedIn()
        let signedInAt = try #require(try env.store.load()?.signedInAt)
        env.clock.advance(by: 3500)
        _ = try await env.service.perform(notes)
        #expect(await env.backEnd.count("/oauth/token") == 0)

        env.clock.advance(by: 50)  // 50 s before expiry, inside the 60 s leeway
        _ = try await env.service.perform(notes)
        #expect(await env.backEnd.count("/oauth/token") == 1)
        let stored = try #require(try env.store.load())
        #expect(await env.backEnd.requests.last?.authorization == "Bearer \(stored.credential.accessToken)")
        #expect(stored.signedInAt == signedInAt)  // a refresh keeps the sign-in time
        let refresh = await env.backEnd.requests.first { $0.path == "/oauth/token" && $0.form["grant_type"] == "refresh_token" }
        #expect(refresh?.form["refresh_token"] == "rt-1")
    }

    @Test func concurrentRequestsWithAnExpiredTokenShareOneRefresh() async throws {
        let env = try await signedIn()
        await env.backEnd.set { $0.refreshYields = 50 }
        env.clock.advance(by: 4000)
        let service = env.service
        let notes = self.notes
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<25 { group.addTask { _ = try await service.perform(notes) } }
            try await group.waitForAll()
        }
        #expect(await env.backEnd.count("/oauth/token") == 1)
        #expect(await env.backEnd.count("/notes") == 25)
    }

    @Test func concurrentRejectionsShareOneRefreshAndRetry() async throws {
        let env = try await signedIn()
        await env.backEnd.set { $0.refreshYields = 50 }
        await env.backEnd.revokeAccessTokens()
        let service = env.service
        let notes = self.notes
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<25 { group.addTask { _ = try await service.perform(notes) } }
            try await group.waitForAll()
        }
        #expect(await env.backEnd.count("/oauth/token") == 1)
        #expect(await env.service.state.isAuthenticated)
        // Requests rejected after the refresh retried at once, with the new token.
        let retried = await env.backEnd.requests.filter { $0.path == "/notes" && $0.authorization == "Bearer at-2" }
        #expect(retried.count == 25)
    }

    @Test func aRejectionOfAnAlreadyReplacedCredentialRetriesWithoutRefreshing() async throws {
        let env = try await signedIn()
        let old = try #require(try env.store.load()?.credential)
        await env.backEnd.revokeAccessTokens()
        _ = try await env.service.perform(notes)
        #expect(await env.backEnd.count("/oauth/token") == 1)
        let replacement = try await env.service.credentialAfterRejection(of: old)
        #expect(replacement?.accessToken == "at-2")
        #expect(await env.backEnd.count("/oauth/token") == 1)
    }

    @Test func aDownstreamRejectionIsReturnedUntouched() async throws {
        let env = try await signedIn()
        await env.backEnd.set { $0.notesDownstreamRejects = true }
        do {
            _ = try await env.service.perform(notes)
            Issue.record("expected a failure")
        } catch let error as TestServerError {
            #expect(error.response.status == 401)
            #expect(error.response.code == nil)
        }
        #expect(await env.backEnd.count("/oauth/token") == 0)
        #expect(await env.service.state.isAuthenticated)
    }

    @Test func aRejectedRefreshFailsEveryWaiterAndInvalidatesTheSession() async throws {
        let env = try await signedIn()
        let events = await env.service.events()
        await env.backEnd.set {
            $0.refreshBehaviour = .invalidGrant
            $0.refreshYields = 20
        }
        await env.backEnd.revokeAccessTokens()
        let service = env.service
        let notes = self.notes
        let failures = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await service.perform(notes)
                        return nil
                    } catch let error as TestServerError {
                        return error.response.code
                    } catch { return "\(error)" }
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        // Waiters of the refresh get invalid_grant; later ones find no session.
        #expect(failures.allSatisfy { $0 == "invalid_grant" || $0 == SesameError.notAuthenticated.description })
        #expect(failures.contains("invalid_grant"))
        #expect(await env.backEnd.count("/oauth/token") == 1)
        #expect(await env.service.state == .invalid)
        #expect(try env.store.load() == nil)
        await env.service.unsubscribeFromAll()
        let received = await TestEnvironment<TestSchema>.collect(events)
        #expect(
            received.contains(.refreshFailed(RefreshFailure(kind: .rejected, reason: "HTTP 400 invalid_grant: invalid_grant happened"))))
        #expect(received.last == .stateChanged(.invalid))
    }

    @Test func aTransientRefreshFailureKeepsTheCredentialAndTheState() async throws {
        let env = try await signedIn()
        let before = try env.store.load()
        await env.backEnd.set { $0.refreshBehaviour = .unavailable }
        env.clock.advance(by: 3590)  // within the leeway, not expired: the old token is used
        _ = try await env.service.perform(notes)
        #expect(await env.backEnd.requests.last?.authorization == "Bearer at-1")
        env.clock.advance(by: 20)  // expired: the failure is thrown
        do {
            _ = try await env.service.perform(notes)
            Issue.record("expected a failure")
        } catch let error as TestServerError {
            #expect(error.response.category == .transient)
        }
        #expect(await env.service.state.isAuthenticated)
        #expect(try env.store.load() == before)
    }

    @Test func aMalformedTokenResponseIsADecodingErrorThatChangesNothing() async throws {
        let env = try await signedIn()
        let before = try env.store.load()
        await env.backEnd.set { $0.refreshBehaviour = .malformed }
        await env.backEnd.revokeAccessTokens()
        do {
            _ = try await env.service.perform(notes)
            Issue.record("expected a failure")
        } catch let error as SesameError {
            guard case .decoding = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(await env.service.state.isAuthenticated)
        #expect(try env.store.load() == before)
    }

    @Test func refreshesBeyondTheWindowFailWithExcessiveRefresh() async throws {
        let env = try await signedIn()
        for _ in 0..<5 {
            await env.backEnd.revokeAccessTokens()
            _ = try await env.service.perform(notes)
        }
        #expect(await env.backEnd.count("/oauth/token") == 5)
        await env.backEnd.revokeAccessTokens()
        await #expect(throws: SesameError.excessiveRefresh(maxRefreshes: 5, window: .seconds(30))) {
            try await env.service.perform(notes)
        }
        #expect(await env.backEnd.count("/oauth/token") == 5)
        #expect(await env.service.state.isAuthenticated)
        env.clock.advance(by: 31)
        _ = try await env.service.perform(notes)
        #expect(await env.backEnd.count("/oauth/token") == 6)
    }

    @Test func aRefreshCompletingAfterSignOutIsDiscarded() async throws {
        let env = try await signedIn()
        await env.backEnd.set { $0.holdRefreshes = true }
        await env.backEnd.revokeAccessTokens()
        let service = env.service
        let notes = self.notes
        let request = Task { try await service.perform(notes) }
        #expect(await poll { await env.backEnd.heldRefreshCount == 1 })
        await env.service.unauthenticate()
        await env.backEnd.releaseRefreshes()
        await #expect(throws: SesameError.notAuthenticated) { try await request.value }
        #expect(await env.service.state == .unauthenticated)
        #expect(try env.store.load() == nil)
    }

    @Test func aRefreshCompletingAfterAUserSwitchIsDiscarded() async throws {
        let env = try await signedIn()
        await env.backEnd.set { $0.holdRefreshes = true }
        await env.backEnd.revokeAccessTokens()
        let service = env.service
        let notes = self.notes
        let request = Task { try await service.perform(notes) }
        #expect(await poll { await env.backEnd.heldRefreshCount == 1 })
        _ = try await env.service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "secret"))
        let afterSwitch = try env.store.load()
        await env.backEnd.releaseRefreshes()
        await #expect(throws: SesameError.notAuthenticated) { try await request.value }
        #expect(await env.service.state == .authenticated(TestDetails(uid: "u3", provider: "password")))
        #expect(try env.store.load() == afterSwitch)
    }

    @Test func aRotatedRefreshTokenIsSavedAndAnUnrotatedOneKept() async throws {
        let env = try await signedIn()
        await env.backEnd.revokeAccessTokens()
        _ = try await env.service.perform(notes)
        #expect(try env.store.load()?.credential.refreshToken == "rt-2")
        #expect(await env.backEnd.isValidRefreshToken("rt-1") == false)

        await env.backEnd.set { $0.refreshBehaviour = .rotateless }
        await env.backEnd.revokeAccessTokens()
        _ = try await env.service.perform(notes)
        let stored = try #require(try env.store.load())
        #expect(stored.credential.accessToken == "at-3")
        #expect(stored.credential.refreshToken == "rt-2")
    }

    @Test func anExpiredTokenThatCannotBeRefreshedInvalidatesTheSession() async throws {
        let env = try await signedIn(NoRefreshSchema.self)
        env.clock.advance(by: 3601)
        await #expect(throws: SesameError.notAuthenticated) { try await env.service.perform(notes) }
        #expect(await env.service.state == .invalid)
        #expect(await env.backEnd.count("/notes") == 0)
    }

    @Test func aRejectionThatCannotBeRefreshedInvalidatesAndReturnsTheResponse() async throws {
        let env = try await signedIn(NoRefreshSchema.self)
        await env.backEnd.revokeAccessTokens()
        do {
            _ = try await env.service.perform(notes)
            Issue.record("expected a failure")
        } catch let error as TestServerError {
            #expect(error.response.code == "invalid_token")
        }
        #expect(await env.service.state == .invalid)
    }

    @Test func whileOfflineARejectedRefreshLeavesTheStateFrozen() async throws {
        let env = try await signedIn()
        await env.service.setConnectivity(online: false)
        await env.backEnd.revokeAccessTokens()
        await env.backEnd.revokeRefreshTokens()
        await #expect(throws: TestServerError.self) { try await env.service.perform(notes) }
        #expect(await env.service.state.isAuthenticated)
        // When the connection returns, the back-end's rejection invalidates the session.
        await env.service.setConnectivity(online: true)
        #expect(await env.service.state == .invalid)
    }
}
