import Foundation
import HTTPTypes
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// Several servers: each request goes to its declared server, client credentials only to
/// the authorization server, the access token only to the API; browser sign-in with PKCE
/// and `state`; revocation at sign-out.
@Suite struct TwoServerTests {
    let transport = TwoServerTransport()
    let clock = ManualClock()
    let logs = LogCapture()

    func service(browser: (any Browser)? = nil, authorizationServerURL: URL? = nil) -> AuthenticationService<TwoServerSchema> {
        let clock = self.clock
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                now: { clock.now }, logger: logs.logger(), receivesServerEvents: false,
                authorizationServerURL: authorizationServerURL, browser: browser))
    }

    private static func hasClientAuthentication(_ sent: RoutingTransport.Sent) -> Bool {
        sent.authorization?.hasPrefix("Basic ") == true || sent.body.contains("client_secret=")
    }

    private static func hasBearer(_ sent: RoutingTransport.Sent) -> Bool {
        sent.authorization?.hasPrefix("Bearer ") == true
    }

    @Test func tokenRequestsGoToTheAuthorizationServerAndTheTokenOnlyToTheAPI() async throws {
        let service = service()
        _ = try await service.authenticate(with: TwoServerMethod.password)
        _ = try await service.perform(OperationRequest(TestRequests.notes))
        clock.advance(by: 3600)
        _ = try await service.perform(OperationRequest(TestRequests.notes))
        let sent = await transport.sent
        #expect(
            sent.map { "\($0.method) \($0.url)" } == [
                "POST https://idp.test/oauth/token", "GET https://auth.test/me", "GET https://auth.test/notes",
                "POST https://idp.test/oauth/token", "GET https://auth.test/notes",
            ])
        #expect(
            sent.filter { $0.url.hasPrefix("https://idp.test/") }.allSatisfy { Self.hasClientAuthentication($0) && !Self.hasBearer($0) })
        #expect(
            sent.filter { $0.url.hasPrefix("https://auth.test/") }.allSatisfy { !Self.hasClientAuthentication($0) && Self.hasBearer($0) })
    }

    @Test func theAppMovesTheAuthorizationServerAtRunTime() async throws {
        let service = service()
        await #expect(throws: Never.self) { try await service.authenticate(with: TwoServerMethod.password) }
        #expect(await transport.sent.first?.url == "https://idp.test/oauth/token")
        let moved = self.service(authorizationServerURL: URL(string: "https://login.test")!)
        // The fake has no server at login.test: its 404 proves the request went there.
        let error = await #expect(throws: TestServerError.self) { try await moved.authenticate(with: TwoServerMethod.password) }
        #expect(error?.response.status == 404)
        #expect(error?.response.code == nil)
        #expect(await transport.sent.last?.url == "https://login.test/oauth/token")
        #expect(await moved.state == .unauthenticated)
    }

    @Test func aSingleServerSchemaMovesItsTokenStepsWithTheAuthorizationServer() async throws {
        // As the generator writes a single-server schema: the token request declares client
        // authentication, so its server is `authorization`, the API's origin until the app
        // sets `authorizationServerURL`.
        let clock = self.clock
        let service = AuthenticationService<TestSchema>(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                now: { clock.now }, logger: logs.logger(), receivesServerEvents: false,
                authorizationServerURL: TwoServerSchema.idp))
        _ = try await service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "secret"))
        let sent = await transport.sent
        #expect(sent.map { "\($0.method) \($0.url)" } == ["POST https://idp.test/oauth/token", "GET https://auth.test/me"])
        #expect(Self.hasClientAuthentication(sent[0]) && !Self.hasBearer(sent[0]))
    }

    @Test func clientCredentialsNeverGoToTheAPIOrigin() async throws {
        let service = service()
        await #expect(throws: SesameError.self) { try await service.authenticate(with: TwoServerMethod.passwordToAPI) }
        #expect(await transport.sent.isEmpty)
        #expect(await service.state == .unauthenticated)
    }

    @Test func anAuthorizationServerRequestCarriesTheTokenOnlyWhenItSaysSo() async throws {
        let service = service()
        _ = try await service.authenticate(with: TwoServerMethod.password)
        let declared = RequestDescription(name: "userinfo", method: .get, path: "/userinfo", server: .authorization)
        let undeclared = RequestDescription(
            name: "status", method: .get, path: "/status", authenticated: false, server: .authorization)
        _ = try? await service.perform(OperationRequest(declared))
        _ = try? await service.perform(OperationRequest(undeclared))
        let sent = await transport.sent.suffix(2)
        #expect(sent.map(\.url) == ["https://idp.test/userinfo", "https://idp.test/status"])
        #expect(sent.map(Self.hasBearer) == [true, false])
    }

    // MARK: Browser sign-in

    /// A browser that signs in on the fake authorization server: it checks what the
    /// runtime put in the authorization request and redirects with a code for its challenge.
    func signingInBrowser(
        state: @escaping @Sendable (String?) -> String? = { $0 }, extra: String = ""
    ) -> ScriptedBrowser {
        let transport = self.transport
        return ScriptedBrowser { url in
            let query = queryParameters(of: url)
            guard query["response_type"] == "code", query["client_id"] == "app",
                query["code_challenge_method"] == "S256", let challenge = query["code_challenge"]
            else { return URL(string: "com.example.app://oauth/callback?error=invalid_request") }
            let code = await transport.issueCode(challenge: challenge)
            let returned = state(query["state"]).map { "&state=\($0)" } ?? ""
            return URL(string: "com.example.app://oauth/callback?code=\(code)\(returned)\(extra)")
        }
    }

    @Test func browserSignInSendsTheVerifierOfTheChallenge() async throws {
        let opened = LockedValue<URL?>(nil)
        let browser = signingInBrowser()
        let service = service(
            browser: ScriptedBrowser { url in
                opened.set(url)
                return try? await browser.authorize(url: url, redirectURI: URL(string: "com.example.app://oauth/callback")!)
            })
        let details = try await service.authenticate(with: TwoServerMethod.oauth2)
        #expect(details.uid == "u3")
        let url = try #require(opened.value)
        #expect(
            url.absoluteString.hasPrefix(
                "https://idp.test/oauth/authorize?response_type=code&client_id=app&redirect_uri=com.example.app%3A%2F%2Foauth%2Fcallback&state="
            ))
        let query = queryParameters(of: url)
        #expect(query["scope"] == "profile")
        #expect(query["state"]?.count == 22)
        let token = try #require(await transport.sent.first { $0.url == "https://idp.test/oauth/token" })
        let form = formFields(token.body)
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["redirect_uri"] == "com.example.app://oauth/callback")
        let verifier = try #require(form["code_verifier"])
        #expect(verifier.count == 43)
        #expect(PKCE(verifier: verifier).challenge == query["code_challenge"])
        // Neither the code nor the verifier is logged.
        #expect(!logs.text.contains(verifier))
        #expect(!logs.text.contains("code-1"))
    }

    @Test func aWrongStateIsRefusedAndItsCodeNeverSent() async throws {
        let service = service(browser: signingInBrowser(state: { _ in "forged" }))
        await #expect(throws: BrowserSignInError.stateMismatch) { try await service.authenticate(with: TwoServerMethod.oauth2) }
        let missing = self.service(browser: signingInBrowser(state: { _ in nil }))
        await #expect(throws: BrowserSignInError.stateMismatch) { try await missing.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await transport.sent.isEmpty)
        #expect(await service.state == .unauthenticated)
    }

    @Test func aRedirectErrorIsTypedAndChangesNothing() async throws {
        let denying = ScriptedBrowser { url in
            let state = queryParameters(of: url)["state"] ?? ""
            return URL(
                string:
                    "com.example.app://oauth/callback?error=access_denied&error_description=no+thanks&error_uri=https%3A%2F%2Fidp.test%2Fdenied&state=\(state)"
            )
        }
        // The signed-in service itself is denied: its `state` check runs against its own
        // authorization request, and its session must survive the denial.
        let service = service(browser: denying)
        let details = try await service.authenticate(with: TwoServerMethod.password)
        let before = try #require(await service.session?.credential)
        let sentBefore = await transport.sent.count
        // Typed through the catalogue as the token endpoint's errors are: the test catalogue
        // has no access_denied, so its category is client.
        let expected = TestServerError(
            response: ServerErrorResponse(
                status: 302, code: "access_denied", message: "no thanks", category: .client, uri: "https://idp.test/denied"))
        await #expect(throws: expected) { try await service.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await service.state == .authenticated(details))
        #expect(await service.session?.credential == before)
        #expect(await service.ongoingAuthentication == nil)
        #expect(await transport.sent.count == sentBefore)
    }

    @Test func closingTheBrowserIsATypedCancellationThatKeepsTheSession() async throws {
        let service = service(browser: ScriptedBrowser { _ in nil })
        let details = try await service.authenticate(with: TwoServerMethod.password)
        let before = await transport.sent.count
        await #expect(throws: BrowserSignInError.cancelled) { try await service.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await service.state == .authenticated(details))
        #expect(await transport.sent.count == before)
        #expect(await service.ongoingAuthentication == nil)
    }

    @Test func withoutABrowserTheMethodFailsBeforeSendingAnything() async throws {
        let service = service()
        await #expect(throws: BrowserSignInError.notConfigured(reason: "the configuration has no browser")) {
            try await service.authenticate(with: TwoServerMethod.oauth2)
        }
        #expect(await transport.sent.isEmpty)
    }

    // MARK: Revocation

    @Test func signOutRevokesTheRefreshTokenAtTheAuthorizationServer() async throws {
        let service = service()
        _ = try await service.authenticate(with: TwoServerMethod.password)
        #expect(await service.unauthenticate() == .revoked)
        #expect(await service.state == .unauthenticated)
        let sent = await transport.sent.suffix(2)
        #expect(sent.map { "\($0.method) \($0.url)" } == ["POST https://auth.test/auth/logout", "POST https://idp.test/oauth/revoke"])
        let revoke = try #require(sent.last)
        #expect(formFields(revoke.body) == ["token": "rt-1", "token_type_hint": "refresh_token"])
        #expect(revoke.authorization == "Basic " + Data("app:s3cr3t".utf8).base64EncodedString())
        #expect(revoke.headerFields[.contentType] == "application/x-www-form-urlencoded")
    }

    @Test func aFailedRevocationStillSignsOutAndSaysSo() async throws {
        let service = service()
        _ = try await service.authenticate(with: TwoServerMethod.password)
        await transport.setRevokeStatus(503)
        let result = await service.unauthenticate()
        #expect(await service.state == .unauthenticated)
        let reason = try #require(result.localOnlyReason, "expected localOnly, got \(result)")
        #expect(reason.hasPrefix("revoke: "))
        #expect(!reason.contains("rt-1"))
    }

    @Test func withoutARefreshTokenNoRevocationIsSent() async throws {
        await transport.backEnd.set { $0.issuesRefreshTokens = false }
        let service = service()
        _ = try await service.authenticate(with: TwoServerMethod.password)
        #expect(await service.session?.credential.refreshToken == nil)
        #expect(await service.unauthenticate() == .localOnly(reason: "revoke: no refresh token to revoke"))
        #expect(await service.state == .unauthenticated)
        // The sign-out still went to the API; nothing went to the revocation endpoint.
        #expect(await transport.sent.suffix(1).map(\.path) == ["/auth/logout"])
    }
}
