import Foundation
import HTTPTypes
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// A step-up sign-in is into the current account: whoever signs in at the authorization
/// server must be the signed-in user, or nothing changes.
@Suite struct StepUpSameAccountTests {
    let transport = TwoServerTransport()
    let stepUp = AuthorizationParameters(stepUp: StepUpChallenge(acrValues: ["urn:mfa"], maxAge: 60))

    /// A service whose login page signs in the password user ("u3") with a code.
    func service() -> AuthenticationService<TwoServerSchema> {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            let query = queryParameters(of: url)
            guard let challenge = query["code_challenge"], let state = query["state"] else { return nil }
            return URL(string: "com.example.app://oauth/callback?code=\(await transport.issueCode(challenge: challenge))&state=\(state)")
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                receivesServerEvents: false, browser: browser))
    }

    @Test func anotherUserSigningInIsAMismatchThatChangesNothingAndRevokesTheirTokens() async throws {
        let service = service()
        let guest = try await service.authenticate(with: TestSingleStepMethod.guest)
        let before = try #require(await service.session)
        await #expect(throws: SesameError.accountMismatch(reason: "oauth2 signed in another user than the current one")) {
            _ = try await service.authenticate(with: TwoServerMethod.oauth2, authorization: stepUp)
        }
        #expect(await service.state == .authenticated(guest))
        #expect(await service.session == before)
        #expect(await service.ongoingAuthentication == nil)
        // The other user's refresh token was revoked at the authorization server.
        let revoked = await transport.sent.filter { $0.url == "https://idp.test/oauth/revoke" }
        #expect(revoked.count == 1)
        let token = try #require(revoked.first.flatMap { formFields($0.body)["token"] })
        #expect(token.hasPrefix("rt-"))
        #expect(token != before.credential.refreshToken)
        // The retried request still runs as the guest.
        _ = try await service.perform(OperationRequest(TestRequests.notes))
        let retried = try #require(await transport.sent.last)
        #expect(retried.url.hasPrefix("https://auth.test/"))
        #expect(retried.headerFields[.authorization] == "Bearer \(before.credential.accessToken)")
    }

    @Test func theSameUserKeepsTheSessionWithTheNewCredential() async throws {
        let service = service()
        let user = try await service.authenticate(with: TwoServerMethod.password)
        let before = try #require(await service.session?.credential)
        let again = try await service.authenticate(with: TwoServerMethod.oauth2, authorization: stepUp)
        #expect(again == user)
        #expect(await service.state == .authenticated(user))
        #expect(await service.session?.credential.accessToken != before.accessToken)
        #expect(await transport.sent.allSatisfy { !$0.url.hasSuffix("/oauth/revoke") })
    }

    @Test func contextNewLetsAnotherUserReplaceTheSession() async throws {
        // The control: the same sign-in switches user when the app asks for it.
        let service = service()
        let guest = try await service.authenticate(with: TestSingleStepMethod.guest)
        let other = try await service.authenticate(with: TwoServerMethod.oauth2, authorization: stepUp, context: .new)
        #expect(other != guest)
        #expect(await service.state == .authenticated(other))
    }

    @Test func sameAccountNeedsASignedInUser() async {
        await #expect(throws: SesameError.notAuthenticated) {
            _ = try await service().authenticate(with: TwoServerMethod.oauth2, authorization: stepUp, context: .sameAccount)
        }
        #expect(await transport.sent.isEmpty)
    }
}
