import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing

/// A browser sign-in with an ID token validator (OpenID Connect): the authorization request
/// carries a fresh `nonce`, the code exchange's `id_token` is validated against it and the
/// access token, and a refused or missing ID token fails the sign-in, revokes the tokens the
/// exchange issued and changes nothing. The validator's own rules are SesameOpenIDTests'.
@Suite struct IDTokenSignInTests {
    let transport = TwoServerTransport()
    let logs = LogCapture()

    /// Records what it was asked to validate, and answers with `result`.
    final class RecordingValidator: IDTokenValidating, @unchecked Sendable {
        let asked = LockedValue<[(token: String, expectations: IDTokenExpectations)]>([])
        let refusal: (any Error & Sendable)?
        /// How many validations pass before it refuses.
        let passing: Int

        init(refusing refusal: (any Error & Sendable)? = nil, after passing: Int = 0) {
            self.refusal = refusal
            self.passing = passing
        }

        func validateIDToken(_ idToken: String, expecting expectations: IDTokenExpectations, now: Date) async throws -> String {
            asked.set(asked.value + [(idToken, expectations)])
            if let refusal, asked.value.count > passing { throw refusal }
            return "user-1"
        }
    }

    struct Refused: Error, Equatable {}

    /// A service whose browser signs in at once and records the authorization URL it opened.
    func service(
        validator: (any IDTokenValidating)?, opened: LockedValue<URL?>, clock: ManualClock = ManualClock()
    ) -> AuthenticationService<TwoServerSchema> {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            opened.set(url)
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(query["state"] ?? "")")!
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                now: { clock.now }, logger: logs.logger(), receivesServerEvents: false, browser: browser,
                idTokenValidator: validator))
    }

    @Test func theNonceSentIsTheOneTheIDTokenIsCheckedAgainst() async throws {
        await transport.setIDToken("header.claims.signature")
        let validator = RecordingValidator()
        let opened = LockedValue<URL?>(nil)
        let service = service(validator: validator, opened: opened)
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let firstURL = try #require(opened.value)
        let nonce = try #require(queryParameters(of: firstURL)["nonce"])
        #expect(nonce.count >= 22)
        let asked = try #require(validator.asked.value.first)
        #expect(validator.asked.value.count == 1)
        #expect(asked.token == "header.claims.signature")
        #expect(asked.expectations.nonce == nonce)
        #expect(asked.expectations.accessToken == (await service.session?.credential.accessToken))
        #expect(await service.state.isAuthenticated)
        #expect(await service.session?.credential.idToken == "header.claims.signature")
        // Neither the nonce nor the ID token is logged.
        #expect(!logs.text.isEmpty)
        #expect(!logs.text.contains(nonce))
        #expect(!logs.text.contains("header.claims.signature"))
        // A second sign-in sends another nonce.
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let secondURL = try #require(opened.value)
        #expect(queryParameters(of: secondURL)["nonce"] != nonce)
    }

    @Test func theAcrValuesAndMaxAgeAskedAreWhatTheIDTokenIsCheckedAgainst() async throws {
        await transport.setIDToken("header.claims.signature")
        let validator = RecordingValidator()
        let service = service(validator: validator, opened: LockedValue(nil))
        _ = try await service.authenticate(
            with: TwoServerMethod.oauth2, authorization: AuthorizationParameters(acrValues: ["urn:example:mfa"], maxAge: 300))
        let asked = try #require(validator.asked.value.first)
        #expect(asked.expectations.acrValues == ["urn:example:mfa"])
        #expect(asked.expectations.maxAge == .seconds(300))
        // A sign-in that asks nothing expects nothing.
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let plain = try #require(validator.asked.value.last)
        #expect(plain.expectations.acrValues.isEmpty)
        #expect(plain.expectations.maxAge == nil)
    }

    @Test func aRefusedIDTokenFailsTheSignInAndRevokesItsTokens() async throws {
        await transport.setIDToken("header.claims.signature")
        let service = service(validator: RecordingValidator(refusing: Refused()), opened: LockedValue(nil))
        await #expect(throws: Refused()) { try await service.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await service.state == .unauthenticated)
        #expect(await service.session == nil)
        #expect(await transport.sent.map(\.path) == ["/oauth/token", "/oauth/revoke"])
    }

    @Test func aTokenResponseWithoutIDTokenFailsTheSignIn() async throws {
        let service = service(validator: RecordingValidator(), opened: LockedValue(nil))
        await #expect(
            throws: SesameError.decoding(
                operation: "token", reason: "$.id_token: required property is missing (OpenID Connect Core §3.1.3.3)")
        ) { try await service.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await service.state == .unauthenticated)
        #expect(await transport.sent.map(\.path) == ["/oauth/token", "/oauth/revoke"])
    }

    @Test func aRefreshsIDTokenIsValidatedAgainstTheSessionsAndKept() async throws {
        await transport.setIDToken("id-1", onRefresh: "id-2")
        let validator = RecordingValidator()
        let service = service(validator: validator, opened: LockedValue(nil))
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let signedIn = try #require(await service.session?.credential)
        let refreshed = try await service.refreshedCredential(replacing: signedIn)
        let asked = try #require(validator.asked.value.last)
        #expect(validator.asked.value.count == 2)
        #expect(asked.token == "id-2")
        #expect(asked.expectations.nonce == nil)
        #expect(asked.expectations.previousIDToken == "id-1")
        #expect(asked.expectations.accessToken == refreshed.accessToken)
        #expect(refreshed.idToken == "id-2")
        #expect(await service.session?.credential.idToken == "id-2")
    }

    @Test func aRefreshWithoutIDTokenKeepsTheSessionsOne() async throws {
        await transport.setIDToken("id-1")
        let service = service(validator: RecordingValidator(), opened: LockedValue(nil))
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let signedIn = try #require(await service.session?.credential)
        let refreshed = try await service.refreshedCredential(replacing: signedIn)
        #expect(refreshed.accessToken != signedIn.accessToken)
        #expect(refreshed.idToken == "id-1")
    }

    @Test func aRefusedRefreshIDTokenFailsTheRefreshAndKeepsTheSession() async throws {
        await transport.setIDToken("id-1", onRefresh: "id-of-someone-else")
        let service = service(validator: RecordingValidator(refusing: Refused(), after: 1), opened: LockedValue(nil))
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let signedIn = try #require(await service.session?.credential)
        await #expect(throws: (any Error).self) { try await service.refreshedCredential(replacing: signedIn) }
        #expect(await service.session?.credential == signedIn)
        #expect(await service.state.isAuthenticated)
    }

    /// A request that waits for a refresh whose ID token the validator refuses throws the
    /// validator's error, as a call to refresh does: not a transport failure, which an app
    /// would retry. The session keeps its credential.
    @Test func aRequestWhoseRefreshGetsARefusedIDTokenThrowsTheRefusal() async throws {
        await transport.setIDToken("id-1", onRefresh: "id-of-someone-else")
        let clock = ManualClock()
        let service = service(validator: RecordingValidator(refusing: Refused(), after: 1), opened: LockedValue(nil), clock: clock)
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let signedIn = try #require(await service.session?.credential)
        clock.advance(by: 4000)
        await #expect(throws: Refused()) { _ = try await service.perform(OperationRequest(TestRequests.notes)) }
        #expect(await service.session?.credential == signedIn)
    }

    @Test func aCredentialPersistedWithoutIDTokenStillDecodes() throws {
        let old = Data(#"{"accessToken":"at","refreshToken":"rt"}"#.utf8)
        let credential = try JSONDecoder().decode(Credential.self, from: old)
        #expect(credential.idToken == nil)
        let withIDToken = Credential(accessToken: "at", idToken: "id")
        #expect(try JSONDecoder().decode(Credential.self, from: JSONEncoder().encode(withIDToken)) == withIDToken)
    }

    @Test func withoutAValidatorNoNonceIsSent() async throws {
        let opened = LockedValue<URL?>(nil)
        _ = try await service(validator: nil, opened: opened).authenticate(with: TwoServerMethod.oauth2)
        let url = try #require(opened.value)
        #expect(queryParameters(of: url)["nonce"] == nil)
    }
}
