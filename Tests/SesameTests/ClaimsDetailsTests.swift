import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing

/// `details: idToken` (issue 26): the user's details and id are the claims of the validated ID
/// token, never a details operation's answer: at sign-in, at a refresh that returns an ID
/// token, at restore and when connectivity returns. The fake back-end still answers the
/// details operation (`/me`) of the schemas it serves: no test here may see it asked.
@Suite struct ClaimsDetailsTests {
    let transport = TwoServerTransport()
    let logs = LogCapture()
    let ada = ClaimsDetailsSchema.idToken(["sub": "user-1", "name": "Ada"])

    func service(
        validator: any IDTokenValidating = IDTokenSignInTests.RecordingValidator(),
        sessionStore: InMemorySessionStore<TestClaims> = InMemorySessionStore()
    ) -> AuthenticationService<ClaimsDetailsSchema> {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(query["state"] ?? "")")!
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                logger: logs.logger(), sessionStore: sessionStore, receivesServerEvents: false, browser: browser,
                idTokenValidator: validator))
    }

    var paths: [String] { get async { await transport.sent.map(\.path) } }

    @Test func theSignInsDetailsAreTheIDTokensClaimsWithNoRequest() async throws {
        await transport.setIDToken(ada)
        let service = service()
        let details = try await service.authenticate(with: ClaimsDetailsSchema.method)
        #expect(details == TestClaims(sub: "user-1", name: "Ada"))
        #expect(await service.state == .authenticated(details))
        #expect(ClaimsDetailsSchema.userID(of: details) == "user-1")
        #expect(await paths == ["/oauth/token"])
        // The claims are details: not logged.
        #expect(!logs.text.contains("Ada"))
    }

    @Test func claimsThatDoNotFitFailTheSignInChangeNothingAndRevokeTheTokens() async throws {
        await transport.setIDToken(ClaimsDetailsSchema.idToken(["name": "Ada"]))
        let service = service()
        await #expect(throws: SesameError.decoding(operation: "token", reason: "the ID token's claims: $.sub: required claim is missing")) {
            try await service.authenticate(with: ClaimsDetailsSchema.method)
        }
        #expect(await service.state == .unauthenticated)
        #expect(await service.session == nil)
        #expect(await paths == ["/oauth/token", "/oauth/revoke"])
    }

    @Test func aRefreshsIDTokenReplacesTheDetailsAndOneWithoutKeepsThem() async throws {
        await transport.setIDToken(ada, onRefresh: ClaimsDetailsSchema.idToken(["sub": "user-1", "name": "Ada Lovelace"]))
        let service = service()
        _ = try await service.authenticate(with: ClaimsDetailsSchema.method)
        let signedIn = try #require(await service.session?.credential)
        _ = try await service.refreshedCredential(replacing: signedIn)
        let renamed = TestClaims(sub: "user-1", name: "Ada Lovelace")
        #expect(await service.state == .authenticated(renamed))
        #expect(await service.session?.details == renamed)
        // A refresh that returns no ID token keeps the details it replaced.
        await transport.setIDToken(ada, onRefresh: nil)
        let refreshed = try #require(await service.session?.credential)
        _ = try await service.refreshedCredential(replacing: refreshed)
        #expect(await service.session?.credential.accessToken != refreshed.accessToken)
        #expect(await service.session?.details == renamed)
        #expect(!(await paths).contains("/me"))
    }

    @Test func newDetailsFromARefreshAreSavedAndPublishedTheSameOnesOnlySaved() {
        let ada = TestClaims(sub: "user-1", name: "Ada")
        let renamed = TestClaims(sub: "user-1", name: "Ada Lovelace")
        let session = StoredSession(credential: Credential(accessToken: "a1"), details: ada, signedInAt: Date(timeIntervalSince1970: 0))
        for restored in [false, true] {
            var machine = AuthenticationStateMachine<TestClaims>()
            _ = restored ? machine.sessionRestored(session) : machine.authenticationSucceeded(session)
            let refreshed = Credential(accessToken: "a2", idToken: "id-2")
            var expected = session
            expected.credential = refreshed
            expected.details = renamed
            let state: AuthenticationState<TestClaims> = restored ? .presession(renamed) : .authenticated(renamed)
            #expect(
                machine.credentialRefreshed(refreshed, details: renamed, epoch: machine.epoch)
                    == .install(refreshed, [.persistSession(expected, replacing: session.credential), .publish(state)]))
            #expect(machine.current == state)
            // The same details again: saved with the credential, nothing published.
            let again = Credential(accessToken: "a3", idToken: "id-3")
            expected.credential = again
            #expect(
                machine.credentialRefreshed(again, details: renamed, epoch: machine.epoch)
                    == .install(again, [.persistSession(expected, replacing: refreshed)]))
        }
    }

    @Test func aRefreshsIDTokenWhoseClaimsDoNotFitFailsTheRefreshAndKeepsTheSession() async throws {
        await transport.setIDToken(ada, onRefresh: ClaimsDetailsSchema.idToken(["name": "nobody"]))
        let service = service()
        _ = try await service.authenticate(with: ClaimsDetailsSchema.method)
        let signedIn = try #require(await service.session)
        let error = await #expect(throws: RefreshError.self) { try await service.refreshedCredential(replacing: signedIn.credential) }
        #expect(error?.failure.kind == .failed)
        #expect(
            error?.underlying as? SesameError
                == .decoding(operation: "token", reason: "the ID token's claims: $.sub: required claim is missing"))
        #expect(await service.session == signedIn)
        #expect(await service.state == .authenticated(signedIn.details))
    }

    @Test func aRestoredSessionOpensUnderTheSubAndItsRefreshAsksNoDetails() async throws {
        await transport.setIDToken(ada)
        let store = InMemorySessionStore<TestClaims>()
        _ = try await service(sessionStore: store).authenticate(with: ClaimsDetailsSchema.method)
        let relaunched = service(sessionStore: store)
        let restored = await relaunched.restoreSession()
        #expect(restored == .authenticated(TestClaims(sub: "user-1", name: "Ada")))
        #expect(await relaunched.session?.credential.idToken == ada)
        #expect(await paths == ["/oauth/token", "/oauth/token"])
        #expect(ClaimsDetailsSchema.userID(of: try #require(await relaunched.authenticationDetails)) == "user-1")
    }

    @Test func connectivityBackChecksTheSessionWithARefreshNotADetailsOperation() async throws {
        await transport.setIDToken(ada, onRefresh: ClaimsDetailsSchema.idToken(["sub": "user-1", "name": "Ada L."]))
        let service = service()
        _ = try await service.authenticate(with: ClaimsDetailsSchema.method)
        let signedIn = try #require(await service.session?.credential)
        await service.setConnectivity(online: false)
        await service.setConnectivity(online: true)
        #expect(await paths == ["/oauth/token", "/oauth/token"])
        #expect(await service.session?.credential.accessToken != signedIn.accessToken)
        #expect(await service.state == .authenticated(TestClaims(sub: "user-1", name: "Ada L.")))
    }
}
