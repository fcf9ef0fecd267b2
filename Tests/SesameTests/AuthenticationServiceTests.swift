import Foundation
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

@Suite struct AuthenticationServiceTests {
    let u1 = TestDetails(uid: "u1", provider: "guest")

    @Test func guestSignInEndsAuthenticatedAndSavesTheSession() async throws {
        let env = TestEnvironment()
        let events = await env.service.events()
        let details = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        #expect(details == u1)
        #expect(await env.service.state == .authenticated(u1))
        #expect(await env.service.authenticationDetails == u1)
        let stored = try env.store.load()
        #expect(stored?.details == u1)
        #expect(stored?.signedInAt == env.clock.now)
        #expect(stored?.credential.refreshToken != nil)
        // The details were fetched with the new credential.
        let me = await env.backEnd.requests.last
        #expect(me?.path == "/me" && me?.authorization?.hasPrefix("Bearer at-") == true)
        await env.service.unsubscribeFromAll()
        let received = await TestEnvironment<TestSchema>.collect(events)
        #expect(received == [.stateChanged(.unauthenticated), .stateChanged(.authenticated(u1))])
    }

    @Test func failedSignInNeverChangesTheState() async throws {
        let env = TestEnvironment()
        await #expect(throws: TestServerError.self) {
            try await env.service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "wrong"))
        }
        #expect(await env.service.state == .unauthenticated)
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        do {
            _ = try await env.service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "wrong"))
            Issue.record("expected a failure")
        } catch let error as TestServerError {
            #expect(error.response.code == "invalid_grant")
            #expect(error.response.category == .credentialRejected)
        }
        #expect(await env.service.state == .authenticated(u1))
        #expect(try env.store.load()?.details == u1)
    }

    @Test func malformedDetailsFailTheSignInWithADecodingError() async throws {
        let env = TestEnvironment()
        await env.backEnd.set { $0.malformedDetails = true }
        do {
            _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
            Issue.record("expected a failure")
        } catch let error as SesameError {
            guard case .decoding(let operation, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(operation == "me")
        }
        #expect(await env.service.state == .unauthenticated)
        #expect(try env.store.load() == nil)
    }

    @Test func passwordMethodAuthenticatesTheClientWithHTTPBasic() async throws {
        let env = TestEnvironment()
        let details = try await env.service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "secret"))
        #expect(details.uid == "u3")
        let token = await env.backEnd.requests.first { $0.path == "/oauth/token" }
        #expect(token?.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(token?.form["grant_type"] == "password")
        #expect(token?.form["client_id"] == nil)
    }

    @Test func multiStepMethodStopsForInputAndRetriesAWrongCode() async throws {
        let env = TestEnvironment()
        let progress = try await env.service.initializeAuthentication(with: TestMultiStepMethod.internal(identifier: "ada@example.com"))
        let ongoing = OngoingAuthentication(methodName: "internal", nextStep: "continue", needs: ["code"])
        #expect(progress == .needsInput(ongoing))
        #expect(await env.service.ongoingAuthentication == ongoing)
        #expect(await env.service.state == .unauthenticated)

        await #expect(throws: TestServerError.self) {
            try await env.service.continueAuthentication(with: TestContinuation.internalContinue(code: "000000"))
        }
        #expect(await env.service.ongoingAuthentication == ongoing)
        #expect(await env.service.state == .unauthenticated)

        await #expect(throws: SesameError.self) { try await env.service.continueAuthentication(with: TestContinuation.wrongStep) }
        let done = try await env.service.continueAuthentication(with: TestContinuation.internalContinue(code: "123456"))
        #expect(done == .authenticated(TestDetails(uid: "u2", provider: "internal")))
        #expect(await env.service.ongoingAuthentication == nil)
        let verify = await env.backEnd.requests.first { $0.path == "/auth/internal/verify" && $0.body.contains("123456") }
        #expect(verify?.body.contains("\"challengeId\":\"ch-1\"") == true)
    }

    @Test func cancelledAuthenticationCannotBeContinued() async throws {
        let env = TestEnvironment()
        try await env.service.initializeAuthentication(with: TestMultiStepMethod.internal(identifier: "ada@example.com"))
        await env.service.cancelAuthentication()
        #expect(await env.service.ongoingAuthentication == nil)
        await #expect(throws: SesameError.authenticationProcess(reason: "no authentication is under way")) {
            try await env.service.continueAuthentication(with: TestContinuation.internalContinue(code: "123456"))
        }
        #expect(await env.service.state == .unauthenticated)
    }

    @Test func signOutRevokesTheSessionAndClearsTheStore() async throws {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let token = try #require(try env.store.load()?.credential.accessToken)
        #expect(await env.service.unauthenticate() == .revoked)
        #expect(await env.service.state == .unauthenticated)
        #expect(try env.store.load() == nil)
        let logout = await env.backEnd.requests.last
        #expect(logout?.path == "/auth/logout" && logout?.authorization == "Bearer \(token)")
    }

    @Test func signOutEndsUnauthenticatedWhenTheBackEndFails() async throws {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        await env.backEnd.set { $0.logoutFails = true }
        let result = await env.service.unauthenticate()
        guard case .localOnly = result else {
            Issue.record("\(result)")
            return
        }
        #expect(await env.service.state == .unauthenticated)
        #expect(try env.store.load() == nil)
    }

    @Test func signOutOfflineSendsNothing() async throws {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        await env.service.setConnectivity(online: false)
        let before = await env.backEnd.requests.count
        #expect(await env.service.unauthenticate() == .localOnly(reason: "offline"))
        #expect(await env.service.state == .unauthenticated)
        #expect(await env.backEnd.requests.count == before)
    }

    @Test func destroyAccountNeedsAFreshSignInAndKeepsTheState() async throws {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let response = try await env.service.destroyAccount()
        #expect(response.status == 200)
        #expect(await env.service.state == .authenticated(u1))

        env.clock.advance(by: 301)
        let before = await env.backEnd.requests.count
        await #expect(throws: SesameError.reauthenticationRequired(operation: "destroyAccount")) {
            try await env.service.destroyAccount()
        }
        await #expect(throws: SesameError.reauthenticationRequired(operation: "detachIdentity")) {
            try await env.service.detachCurrentIdentity()
        }
        #expect(await env.backEnd.requests.count == before)
        #expect(await env.service.state == .authenticated(u1))
    }

    @Test func detachIdentityTakesItsPathFromTheDetails() async throws {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let response = try await env.service.detachCurrentIdentity()
        #expect(try response.decode([String: Bool].self) == ["accountDestroyed": true])
        #expect(await env.backEnd.requests.last?.path == "/identities/guest")
        #expect(await env.service.state == .authenticated(u1))
    }

    @Test func operationsNeedASession() async throws {
        let env = TestEnvironment()
        await #expect(throws: SesameError.notAuthenticated) { try await env.service.perform(OperationRequest(TestRequests.notes)) }
        await #expect(throws: SesameError.notAuthenticated) { try await env.service.authenticationDetailsThrows() }
        #expect(await env.backEnd.requests.isEmpty)
    }

    @Test func errorResponsesBecomeTypedErrors() async throws {
        let env = TestEnvironment()
        do {
            _ = try await env.service.perform(
                OperationRequest(RequestDescription(name: "missing", method: .get, path: "/missing", authenticated: false)))
            Issue.record("expected a failure")
        } catch let error as TestServerError {
            #expect(error.response == ServerErrorResponse(status: 404, code: "not_found", message: "not_found happened", category: .client))
        }
    }
}
