import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing

/// A schema that declares `openID:` (issue 26): the service builds the schema's validator
/// itself — the schema's issuer, the configuration's client id, the keys resolved against the
/// authorization server's run-time URL and fetched through the configuration's transport —
/// and only the steps marked `openID: true` send a nonce and validate an ID token. An app's own
/// `idTokenValidator` wins. The generated `idTokenValidator(_:)` builds SesameOpenID's
/// validator; here the schema records the settings it was given instead.
@Suite struct SchemaOpenIDTests {
    let transport = TwoServerTransport()

    /// ``TwoServerSchema`` with an issuer, `openID: { keys: /jwks, clockSkew: 30s }` and the
    /// `oauth2` method also as `openid`, marked `openID: true`.
    enum OpenIDSchema: SDKSchema {
        typealias Details = TestDetails
        typealias ServerError = TestServerError
        typealias Event = TestEvent

        static var description: SDKDescription {
            var description = TwoServerSchema.description
            description.authorizationIssuer = AuthorizationServerIssuer(issuer: "https://idp.test", sentInResponses: false)
            description.openID = OpenIDDescription(keys: "/jwks", algorithms: ["ES256"], clockSkew: .seconds(30))
            return description
        }
        static func userID(of details: TestDetails) -> String { details.uid }
        static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
        static func idTokenValidator(_ settings: OpenIDValidatorSettings) -> (any IDTokenValidating)? {
            SchemaValidator(settings: settings)
        }

        static var openIDMethod: TwoServerMethod {
            var method = TwoServerMethod.oauth2
            method.methodDescription.name = "openid"
            method.methodDescription.steps[0].kind = .browser(
                BrowserAuthorization(
                    request: TwoServerSchema.browser.steps[0].browser!.request, redirectURI: "com.example.app://oauth/callback",
                    openID: true))
            return method
        }
    }

    /// What the generated code would build: here it keeps its settings and the ID tokens it
    /// was asked to validate.
    final class SchemaValidator: IDTokenValidating, Sendable {
        let settings: OpenIDValidatorSettings
        let asked = LockedValue<[(token: String, nonce: String?)]>([])
        init(settings: OpenIDValidatorSettings) { self.settings = settings }
        func validateIDToken(_ idToken: String, expecting expectations: IDTokenExpectations, now: Date) async throws -> String {
            asked.set(asked.value + [(idToken, expectations.nonce)])
            return "user-1"
        }
    }

    func service(
        authorizationServerURL: URL? = nil, validator: (any IDTokenValidating)? = nil, opened: LockedValue<URL?> = LockedValue(nil)
    ) -> AuthenticationService<OpenIDSchema> {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            opened.set(url)
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(query["state"] ?? "")")!
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport, receivesServerEvents: false,
                authorizationServerURL: authorizationServerURL, browser: browser, idTokenValidator: validator))
    }

    @Test func theServiceBuildsTheSchemasValidatorFromItsConfiguration() async throws {
        let validator = try #require(service().idTokenValidator as? SchemaValidator)
        #expect(validator.settings.issuer == "https://idp.test")
        #expect(validator.settings.clientID == "app")
        #expect(validator.settings.keysURL == URL(string: "https://idp.test/jwks"))
        #expect(validator.settings.algorithms == ["ES256"])
        #expect(validator.settings.clockSkew == .seconds(30))
        // The keys follow the authorization server the app moves to.
        let moved = try #require(
            service(authorizationServerURL: URL(string: "https://staging.idp.test/tenant")).idTokenValidator as? SchemaValidator)
        #expect(moved.settings.keysURL == URL(string: "https://staging.idp.test/tenant/jwks"))
        // They are fetched through the configuration's transport: a 404 is a transport error.
        await #expect(
            throws: SesameError.transport(operation: "openID.keys", reason: "the provider's keys answered HTTP 404")
        ) { try await validator.settings.fetchKeys() }
        #expect(await transport.sent.map(\.url) == ["https://idp.test/jwks"])
    }

    @Test func onlyTheOpenIDStepSendsANonceAndValidatesItsIDToken() async throws {
        await transport.setIDToken("header.claims.signature")
        let opened = LockedValue<URL?>(nil)
        let service = service(opened: opened)
        let validator = try #require(service.idTokenValidator as? SchemaValidator)
        _ = try await service.authenticate(with: OpenIDSchema.openIDMethod)
        let firstURL = try #require(opened.value)
        let nonce = try #require(queryParameters(of: firstURL)["nonce"])
        #expect(validator.asked.value.map(\.token) == ["header.claims.signature"])
        #expect(validator.asked.value.first?.nonce == nonce)
        #expect(await service.session?.credential.idToken == "header.claims.signature")
        // The plain OAuth 2.0 step of the same schema: no nonce, no validation, no ID token kept.
        _ = await service.unauthenticate()
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let secondURL = try #require(opened.value)
        #expect(queryParameters(of: secondURL)["nonce"] == nil)
        #expect(validator.asked.value.count == 1)
        #expect(await service.session?.credential.idToken == nil)
    }

    @Test func theAppsOwnValidatorWins() async throws {
        await transport.setIDToken("header.claims.signature")
        let own = IDTokenSignInTests.RecordingValidator()
        let service = service(validator: own)
        #expect(service.idTokenValidator as? IDTokenSignInTests.RecordingValidator === own)
        _ = try await service.authenticate(with: OpenIDSchema.openIDMethod)
        #expect(own.asked.value.map(\.token) == ["header.claims.signature"])
    }
}
