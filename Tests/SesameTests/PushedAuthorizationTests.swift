import Foundation
import HTTPTypes
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// Pushed authorization requests (RFC 9126): a browser step whose `browser.pushed` names the
/// server's endpoint posts its parameters there, and the browser opens the authorization
/// endpoint with `client_id` and `request_uri` only.
@Suite struct PushedAuthorizationTests {
    let transport = TwoServerTransport()

    static let pushedEndpoint = RequestDescription(
        name: "oauth2.authorize.pushed", method: .post, path: "/oauth/par", authenticated: false, encoding: .form,
        clientAuthentication: .basic, server: .authorization)

    static let method = TwoServerMethod(
        methodDescription: AuthenticationMethodDescription(
            name: "oauth2",
            steps: [
                AuthenticationStepDescription(
                    name: "authenticate", request: TwoServerSchema.token,
                    body: [
                        TemplateField("grant_type", .literal(.string("authorization_code"))),
                        TemplateField("code", .variable(.authorizationCode)), TemplateField("redirect_uri", .variable(.redirectURI)),
                        TemplateField("code_verifier", .variable(.codeVerifier)),
                    ],
                    browser: BrowserAuthorization(
                        request: RequestDescription(
                            name: "oauth2.authorize", method: .get, path: "/oauth/authorize", authenticated: false,
                            server: .authorization),
                        redirectURI: "com.example.app://oauth/callback",
                        parameters: [TemplateField("scope", .variable(.parameter("scope")))],
                        pushed: pushedEndpoint))
            ]), arguments: ["scope": .string("profile")])

    func service(opened: LogCapture) -> AuthenticationService<TwoServerSchema> {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            opened.append(url.absoluteString)
            // The login page reads the pushed request the URL names.
            guard let requestURI = queryParameters(of: url)["request_uri"],
                let pushed = await transport.pushedRequests[requestURI], let challenge = pushed["code_challenge"],
                let state = pushed["state"]
            else { return nil }
            return URL(string: "com.example.app://oauth/callback?code=\(await transport.issueCode(challenge: challenge))&state=\(state)")
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                receivesServerEvents: false, browser: browser))
    }

    @Test func theParametersArePushedAndTheBrowserOpensOnlyTheirReference() async throws {
        let opened = LogCapture()
        let service = service(opened: opened)
        _ = try await service.authenticate(with: Self.method)
        #expect(await service.state.isAuthenticated)
        // The browser's URL holds the client and the reference, nothing else.
        let url = try #require(URLComponents(string: opened.text))
        #expect(url.host == "idp.test")
        #expect(url.path == "/oauth/authorize")
        #expect(url.queryItems?.map(\.name) == ["client_id", "request_uri"])
        #expect(url.queryItems?.first?.value == "app")
        #expect(url.queryItems?.last?.value == "urn:ietf:params:oauth:request_uri:1")
        // The pushed request carried the parameters, with the step's client authentication.
        let par = try #require(await transport.sent.first { $0.path == "/oauth/par" })
        #expect(par.method == .post)
        #expect(par.headerFields[.authorization]?.hasPrefix("Basic ") == true)
        let pushed = formFields(par.body)
        #expect(pushed["response_type"] == "code")
        #expect(pushed["scope"] == "profile")
        #expect(pushed["code_challenge_method"] == "S256")
        #expect(pushed["redirect_uri"] == "com.example.app://oauth/callback")
        #expect(pushed["state"] != nil)
    }

    @Test(arguments: [
        (201, #"{"expires_in":60}"#), (201, #"{"request_uri":"","expires_in":60}"#),
        (201, #"{"request_uri":"urn:x","expires_in":0}"#), (201, "not json"),
    ])
    func aMalformedAnswerIsATypedErrorAndNoBrowserOpens(status: Int, body: String) async throws {
        let opened = LogCapture()
        await transport.setPARAnswer((status, body))
        let service = service(opened: opened)
        await #expect(throws: SesameError.self) { _ = try await service.authenticate(with: Self.method) }
        #expect(opened.text.isEmpty)
        #expect(await service.state == .unauthenticated)
    }

    @Test func theServersRefusalIsTypedAndNoBrowserOpens() async throws {
        let opened = LogCapture()
        await transport.setPARAnswer((400, #"{"error":"invalid_request","error_description":"bad scope"}"#))
        let service = service(opened: opened)
        await #expect(throws: TestServerError.self) { _ = try await service.authenticate(with: Self.method) }
        #expect(opened.text.isEmpty)
        #expect(await service.state == .unauthenticated)
        #expect(await transport.sent.allSatisfy { $0.path != "/oauth/token" })
    }
}
