import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing

/// Sign-out that ends the session at the OpenID provider (RP-Initiated Logout 1.0): the
/// end-session endpoint opened in the browser after revocation, with `id_token_hint`,
/// `client_id`, `post_logout_redirect_uri` and `state`; the `state` of the redirect back
/// checked; and the user signed out locally whatever the browser does.
@Suite struct EndSessionTests {
    let transport = TwoServerTransport()
    let logs = LogCapture()
    static let idToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl"
    static let endSession = EndSessionConfiguration(
        endpoint: URL(string: "https://idp.test/oauth/logout?ui=compact")!,
        postLogoutRedirectURI: URL(string: "com.example.app://signed-out")!, timeout: .seconds(30))

    /// Accepts every ID token, so that the session keeps it.
    struct AcceptingValidator: IDTokenValidating {
        func validateIDToken(_ idToken: String, expecting expectations: IDTokenExpectations, now: Date) async throws -> String {
            "user-1"
        }
    }

    /// A service whose browser signs in at once, and answers the end-session request with
    /// `endSession` (nil: the user closes the browser).
    func service(
        endSession configuration: EndSessionConfiguration? = Self.endSession,
        validator: (any IDTokenValidating)? = AcceptingValidator(),
        answering endSession: @escaping @Sendable (URL) async -> URL?
    ) -> AuthenticationService<TwoServerSchema> {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            if url.path == "/oauth/logout" { return await endSession(url) }
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(query["state"] ?? "")")!
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                logger: logs.logger(), receivesServerEvents: false, browser: browser,
                idTokenValidator: validator, endSession: configuration))
    }

    func signIn(_ service: AuthenticationService<TwoServerSchema>) async throws {
        await transport.setIDToken(Self.idToken)
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        #expect(await service.session?.credential.idToken == Self.idToken)
    }

    @Test func theEndSessionRequestCarriesTheHintTheClientTheRedirectAndAState() async throws {
        let opened = LockedValue<[URL]>([])
        let stateWhenOpened = LockedValue<Bool?>(nil)
        let box = LockedValue<AuthenticationService<TwoServerSchema>?>(nil)
        let service = service { url in
            opened.set(opened.value + [url])
            stateWhenOpened.set(await box.value?.state.isAuthenticated)
            return URL(string: "com.example.app://signed-out?state=\(queryParameters(of: url)["state"] ?? "")")
        }
        box.set(service)
        try await signIn(service)
        let result = await service.unauthenticate()
        #expect(result == .endedAtProvider(notRevoked: nil))
        #expect(await service.state == .unauthenticated)
        let url = try #require(opened.value.first)
        #expect(opened.value.count == 1)
        #expect(url.host == "idp.test")
        let query = queryParameters(of: url)
        #expect(query["id_token_hint"] == Self.idToken)
        #expect(query["client_id"] == "app")
        #expect(query["post_logout_redirect_uri"] == "com.example.app://signed-out")
        #expect(query["ui"] == "compact")
        let state = try #require(query["state"])
        #expect(state.count >= 22)
        // Signed out locally before the browser opened.
        #expect(stateWhenOpened.value == false)
        // After the RFC 7009 revocation.
        #expect(await transport.sent.contains { $0.path == "/oauth/revoke" })
        // The ID token is never logged.
        #expect(logs.text.contains("end-session"))
        #expect(!logs.text.contains(Self.idToken))
        // A second sign-out of another sign-in sends another state.
        try await signIn(service)
        await service.unauthenticate()
        #expect(opened.value.count == 2)
        #expect(queryParameters(of: opened.value[1])["state"] != state)
    }

    @Test func aStateMismatchIsReportedAndTheUserIsSignedOutLocally() async throws {
        let service = service { _ in URL(string: "com.example.app://signed-out?state=forged")! }
        try await signIn(service)
        let result = await service.unauthenticate()
        guard case .providerNotConfirmed(let reason, nil) = result else {
            Issue.record("expected providerNotConfirmed, got \(result)")
            return
        }
        #expect(reason.contains("state does not match"))
        #expect(await service.state == .unauthenticated)
        #expect(await service.session == nil)
    }

    @Test func aRedirectWithoutStateIsNotAConfirmation() async throws {
        let service = service { _ in URL(string: "com.example.app://signed-out")! }
        try await signIn(service)
        guard case .providerNotConfirmed = await service.unauthenticate() else {
            Issue.record("a redirect without state was taken as the provider's confirmation")
            return
        }
        #expect(await service.state == .unauthenticated)
    }

    @Test func aCancelledBrowserStillSignsOutLocally() async throws {
        let service = service { _ in nil }
        try await signIn(service)
        let result = await service.unauthenticate()
        #expect(result == .providerNotConfirmed(reason: "the browser was closed before the provider redirected back", notRevoked: nil))
        #expect(await service.state == .unauthenticated)
        #expect(await service.session == nil)
    }

    @Test func theBrowserStepTimesOut() async throws {
        let short = EndSessionConfiguration(
            endpoint: Self.endSession.endpoint, postLogoutRedirectURI: Self.endSession.postLogoutRedirectURI,
            timeout: .milliseconds(200))
        // The browser never comes back on its own; the timeout dismisses it.
        let service = service(endSession: short) { _ in
            try? await Task.sleep(for: .seconds(3600))
            return nil
        }
        try await signIn(service)
        let result = await service.unauthenticate()
        guard case .providerNotConfirmed(let reason, nil) = result else {
            Issue.record("expected providerNotConfirmed, got \(result)")
            return
        }
        #expect(reason.contains("within"))
        #expect(await service.state == .unauthenticated)
    }

    @Test func aFailedRevocationIsReportedBesideTheProvidersConfirmation() async throws {
        let service = service { url in
            URL(string: "com.example.app://signed-out?state=\(queryParameters(of: url)["state"] ?? "")")
        }
        try await signIn(service)
        await transport.setRevokeStatus(503)
        guard case .endedAtProvider(.some(let notRevoked)) = await service.unauthenticate() else {
            Issue.record("the revocation's failure was not reported")
            return
        }
        #expect(notRevoked.contains("revoke"))
    }

    @Test func withoutAnIDTokenOrAConfigurationTheBrowserIsNotOpened() async throws {
        let opened = LockedValue(0)
        // No validator: the session keeps no ID token.
        let service = service(validator: nil) { _ in
            opened.set(opened.value + 1)
            return nil
        }
        await transport.setIDToken(nil)
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        #expect(await service.unauthenticate() == .revoked)
        let unconfigured = self.service(endSession: nil) { _ in
            opened.set(opened.value + 1)
            return nil
        }
        try await signIn(unconfigured)
        #expect(await unconfigured.unauthenticate() == .revoked)
        #expect(opened.value == 0)
    }
}
