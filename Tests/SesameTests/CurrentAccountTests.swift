import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// Running a method into the current account (`context: .currentAccount`): its steps carry
/// the current credential, the same user keeps the session with the new credential, and a
/// different user changes nothing.
@Suite struct CurrentAccountTests {
    let env = TestEnvironment()

    private func signInWithCode(context: AuthenticationContext = .new) async throws -> AuthenticationProgress<TestDetails> {
        try await env.service.initializeAuthentication(with: TestMultiStepMethod.internal(identifier: "ada@example.com"), context: context)
        return try await env.service.continueAuthentication(with: TestContinuation.internalContinue(code: "123456"))
    }

    @Test func theSameUserKeepsTheSessionWithTheNewCredential() async throws {
        guard case .authenticated(let ada) = try await signInWithCode() else {
            Issue.record("the code did not sign in")
            return
        }
        let before = try #require(await env.service.session?.credential)
        let signedInAt = try #require(await env.service.session?.signedInAt)
        env.clock.advance(by: 60)
        guard case .authenticated(let again) = try await signInWithCode(context: .currentAccount) else {
            Issue.record("the attach did not complete")
            return
        }
        #expect(again.uid == ada.uid)
        #expect(await env.service.state == .authenticated(again))
        let after = try #require(await env.service.session)
        #expect(after.credential.accessToken != before.accessToken)
        #expect(after.signedInAt > signedInAt)
        #expect(try env.store.load()?.credential == after.credential)
        // Both steps went to the API with the current credential.
        let steps = await env.backEnd.requests.filter { $0.path.hasPrefix("/auth/internal/") }.suffix(2)
        #expect(steps.map(\.authorization) == ["Bearer \(before.accessToken)", "Bearer \(before.accessToken)"])
    }

    @Test func anotherUserIsAnErrorThatChangesNothing() async throws {
        let guest = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let before = try #require(await env.service.session)
        await #expect(throws: SesameError.accountMismatch(reason: "internal signed in another user than the current one")) {
            _ = try await signInWithCode(context: .currentAccount)
        }
        #expect(await env.service.state == .authenticated(guest))
        #expect(await env.service.session?.credential == before.credential)
        #expect(try env.store.load()?.details == guest)
        #expect(await env.service.ongoingAuthentication == nil)
    }

    @Test func aStepWithClientAuthenticationKeepsItIntoTheCurrentAccount() async throws {
        // One server: the token step goes to the API's origin with Basic client
        // authentication, which the current credential must not replace.
        let ada = try await env.service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "secret"))
        let before = try #require(await env.service.session?.credential)
        let again = try await env.service.authenticate(
            with: TestSingleStepMethod.password(username: "ada", password: "secret"), context: .currentAccount)
        #expect(again.uid == ada.uid)
        #expect(await env.service.session?.credential.accessToken != before.accessToken)
        let token = try #require(await env.backEnd.requests.last { $0.path == "/oauth/token" })
        #expect(token.authorization?.hasPrefix("Basic ") == true)
    }

    @Test func aRefreshInFlightDuringTheAttachGoesOnWithTheNewCredential() async throws {
        let password = TestSingleStepMethod.password(username: "ada", password: "secret")
        let ada = try await env.service.authenticate(with: password)
        await env.backEnd.set { $0.holdRefreshes = true }
        await env.backEnd.revokeAccessTokens()
        let service = env.service
        let request = Task { try await service.perform(OperationRequest(TestRequests.notes)) }
        #expect(await poll { await env.backEnd.heldRefreshCount == 1 })
        // The token step keeps its client authentication, so it does not wait for the refresh.
        _ = try await env.service.authenticate(with: password, context: .currentAccount)
        let attached = try #require(await env.service.session?.credential)
        await env.backEnd.releaseRefreshes()
        // The user is still signed in: the waiting request is sent with the new credential.
        _ = try await request.value
        #expect(await env.service.state == .authenticated(ada))
        #expect(await env.service.session?.credential == attached)
        let notes = try #require(await env.backEnd.requests.last { $0.path == "/notes" })
        #expect(notes.authorization == "Bearer \(attached.accessToken)")
    }

    @Test func withoutAnAuthenticatedUserNothingIsSent() async throws {
        await #expect(throws: SesameError.notAuthenticated) {
            try await env.service.authenticate(with: TestSingleStepMethod.guest, context: .currentAccount)
        }
        #expect(await env.backEnd.requests.isEmpty)
        #expect(await env.service.state == .unauthenticated)
    }
}
