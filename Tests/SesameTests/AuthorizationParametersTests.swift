import Foundation
import HTTPTypes
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// `acr_values`, `max_age`, `prompt` and `login_hint` on the authorization request, and what
/// was asked kept for the ID token's checks.
@Suite struct AuthorizationParametersTests {
    let transport = TwoServerTransport()

    /// A service whose browser records the authorization URL it opened and answers with a code.
    func service(opened: LogCapture) -> AuthenticationService<TwoServerSchema> {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            opened.append(url.absoluteString)
            let query = queryParameters(of: url)
            guard let challenge = query["code_challenge"], let state = query["state"] else { return nil }
            return URL(string: "com.example.app://oauth/callback?code=\(await transport.issueCode(challenge: challenge))&state=\(state)")
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                receivesServerEvents: false, browser: browser))
    }

    @Test func theParametersGoOnTheAuthorizationRequest() async throws {
        let opened = LogCapture()
        // A hint with the characters a form or a URL reads specially: each must come back as sent.
        let hint = "a+b&c#d@x.com"
        let parameters = AuthorizationParameters(
            acrValues: ["urn:mfa", "phr"], maxAge: 0, prompt: [.login, .consent], loginHint: hint)
        _ = try await service(opened: opened).authenticate(with: TwoServerMethod.oauth2, authorization: parameters)
        // The query is decoded as the server reads it, as a form (`+` is a space, `%2B` a plus).
        let query = formFields(try #require(URL(string: opened.text)?.query(percentEncoded: true)))
        #expect(query["acr_values"] == "urn:mfa phr")
        #expect(query["max_age"] == "0")
        #expect(query["prompt"] == "login consent")
        #expect(query["login_hint"] == hint)
        #expect(query["scope"] == "profile")
    }

    @Test func aStepUpChallengeAsksForWhatItNamed() {
        let parameters = AuthorizationParameters(stepUp: StepUpChallenge(acrValues: ["urn:mfa"], maxAge: 60), prompt: [.login])
        #expect(parameters == AuthorizationParameters(acrValues: ["urn:mfa"], maxAge: 60, prompt: [.login]))
    }

    @Test func theRuntimesValuesReplaceTheSchemasOfTheSameName() throws {
        let request = try AuthorizationRequest(
            step: BrowserAuthorization(
                request: RequestDescription(name: "authorize", method: .get, path: "/authorize", server: .authorization),
                redirectURI: "com.example.app://oauth/callback"),
            baseURL: URL(string: "https://idp.test")!, clientID: "app", extra: [("scope", "a"), ("prompt", "consent")],
            state: "s", pkce: PKCE(), requested: AuthorizationParameters(maxAge: 30, prompt: [.login]))
        let query = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(query.filter { $0.name == "prompt" }.map(\.value) == ["login"])
        #expect(query.suffix(3).map(\.name) == ["scope", "max_age", "prompt"])
        #expect(request.requested?.maxAge == 30)
    }

    @Test(arguments: [
        AuthorizationParameters(maxAge: -1), AuthorizationParameters(acrValues: ["a b"]), AuthorizationParameters(acrValues: [""]),
        AuthorizationParameters(prompt: [.none, .login]),
    ])
    func malformedParametersAreRefusedBeforeAnythingIsSent(parameters: AuthorizationParameters) async {
        let opened = LogCapture()
        await #expect(throws: SesameError.self) {
            try await service(opened: opened).authenticate(with: TwoServerMethod.oauth2, authorization: parameters)
        }
        #expect(opened.text.isEmpty)
        #expect(await transport.sent.isEmpty)
    }

    @Test func aMethodWithoutABrowserStepRefusesThem() async {
        let opened = LogCapture()
        await #expect(throws: SesameError.self) {
            try await service(opened: opened).authenticate(
                with: TwoServerMethod.password, authorization: AuthorizationParameters(acrValues: ["urn:mfa"]))
        }
        #expect(await transport.sent.isEmpty)
    }

    @Test func dumpAndMirrorLeaveOutTheLoginHint() {
        let parameters = AuthorizationParameters(acrValues: ["urn:mfa"], loginHint: "ada@example.com")
        var dumped = ""
        dump(parameters, to: &dumped)
        #expect(!dumped.contains("ada"), "\(dumped)")
        #expect(dumped.contains("urn:mfa"))
        let children = Mirror(reflecting: parameters).children.map { "\($0.label ?? ""): \($0.value)" }
        #expect(children.contains("loginHint: (set)"))
        #expect(!"\(children)".contains("ada"))
        #expect(!String(reflecting: parameters).contains("ada"))
    }

    @Test func theDescriptionLeavesOutTheLoginHint() {
        let parameters = AuthorizationParameters(acrValues: ["urn:mfa"], loginHint: "ada@example.com")
        #expect(!parameters.description.contains("ada"))
        #expect(parameters.description == "acr_values urn:mfa, login_hint (set)")
    }
}
