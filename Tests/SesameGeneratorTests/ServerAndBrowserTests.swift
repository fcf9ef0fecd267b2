import Foundation
@_spi(Generated) import SesameDescription
@testable import SesameGenerator
import Testing

/// Several servers, browser steps and revocation: what the generator accepts, the Swift it
/// writes for them, and each mistake at its line and column.
@Suite struct ServerAndBrowserTests {
    static let twoServers = """
        sdk: TestSDK
        server: { baseURL: https://api.example.com }
        authorizationServer: { baseURL: https://idp.example.com }
        credential:
          token: { model: Token, accessToken: access_token, refreshToken: refresh_token, expiresIn: expires_in }
          refresh:
            request: POST /oauth/token
            encoding: form
            clientAuthentication: basic
            fields: { grant_type: refresh_token, refresh_token: "{refreshToken}" }
          rejected: { status: 401, wwwAuthenticate: { error: invalid_token } }
          details: me
          userID: id
        lifecycle:
          revoke:
            request: POST /oauth/revoke
            clientAuthentication: basic
            fields: { token: "{refreshToken}", token_type_hint: refresh_token }
        """

    /// `twoServers` before the authorization server moved to an origin of its own.
    static let oneServer = twoServers.replacingOccurrences(of: "authorizationServer: { baseURL: https://idp.example.com }\n", with: "")
        .replacingOccurrences(of: "lifecycle:\n", with: "").replacingOccurrences(
            of:
                "  revoke:\n    request: POST /oauth/revoke\n    clientAuthentication: basic\n    fields: { token: \"{refreshToken}\", token_type_hint: refresh_token }",
            with: "")

    static let browserAuth = """
        methods:
          oauth2:
            parameters: { scope: { type: string, default: profile } }
            steps:
              - browser:
                  request: GET /oauth/authorize
                  redirectURI: com.example.app://oauth/callback
                  parameters: { scope: "{scope}" }
                request: POST /oauth/token
                server: authorization
                encoding: form
                clientAuthentication: basic
                body: { grant_type: authorization_code, code: "{code}", redirect_uri: "{redirectURI}", code_verifier: "{codeVerifier}" }
                response: Token
        operations:
          me: { request: GET /me, response: User }
          userinfo: { request: GET /userinfo, server: authorization, response: User }
          introspect: { request: GET /introspect, server: authorization, authenticated: true, response: User }
        """

    private func schemaFile(_ sdk: String = twoServers, auth: String = browserAuth) -> String {
        let generation = Fixture.generate(["sdk.yaml": sdk, "auth.yaml": auth])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        return Fixture.file("TestSDKSchema.swift", in: generation)
    }

    /// The translated schema, and what `<SDK>Schema.description` holds for it.
    private func translated(_ sdk: String = twoServers, auth: String = browserAuth) throws -> (SDKIR, SDKDescription) {
        let validation = Fixture.validate(["sdk.yaml": sdk, "auth.yaml": auth])
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        let ir = try #require(validation.ir)
        return (ir, ir.runtimeDescription)
    }

    private func request(_ name: String, in ir: SDKIR) -> RequestDescription? {
        ir.operations.first { $0.name == name }?.request.value
    }

    @Test func twoServersRenderEachRequestsServer() throws {
        let (ir, description) = try translated()
        #expect(description.baseURL == URL(string: "https://api.example.com"))
        #expect(description.authorizationBaseURL == URL(string: "https://idp.example.com"))
        // The refresh and revocation default to the authorization server.
        #expect(
            description.credential.refresh?.request
                == RequestDescription(
                    name: "refresh", method: .post, path: "/oauth/token", authenticated: false, encoding: .form,
                    clientAuthentication: .basic, server: .authorization))
        #expect(
            description.lifecycle.revocation
                == RevocationDescription(
                    request: RequestDescription(
                        name: "revoke", method: .post, path: "/oauth/revoke", authenticated: false, encoding: .form,
                        clientAuthentication: .basic, server: .authorization),
                    fields: [
                        TemplateField("token", .variable(.refreshToken)),
                        TemplateField("token_type_hint", .literal(.string("refresh_token"))),
                    ]))
        // Operations go to the API; one on the authorization server gets no access token
        // unless it says so.
        #expect(request("me", in: ir) == RequestDescription(name: "me", method: .get, path: "/me"))
        #expect(
            request("userinfo", in: ir)
                == RequestDescription(name: "userinfo", method: .get, path: "/userinfo", authenticated: false, server: .authorization))
        #expect(
            request("introspect", in: ir)
                == RequestDescription(name: "introspect", method: .get, path: "/introspect", server: .authorization))
        // The generated file names the operations' requests rather than repeating them.
        let swift = schemaFile()
        #expect(swift.contains("authorizationBaseURL: URL(string: \"https://idp.example.com\")!,"))
        #expect(swift.contains("details: Requests.me,"))
    }

    @Test func browserStepRendersItsAuthorizationRequest() throws {
        let (ir, _) = try translated()
        let step = try #require(ir.methods.first?.runtimeDescription.steps.first)
        #expect(
            step.kind
                == .browser(
                    BrowserAuthorization(
                        request: RequestDescription(
                            name: "oauth2.authenticate.authorize", method: .get, path: "/oauth/authorize", authenticated: false,
                            server: .authorization),
                        redirectURI: "com.example.app://oauth/callback",
                        parameters: [TemplateField("scope", .variable(.parameter("scope")))])))
        // What the browser brings back is the runtime's to supply, not a parameter.
        #expect(step.body.map(\.value).contains(.variable(.authorizationCode)))
        #expect(step.body.map(\.value).contains(.variable(.codeVerifier)))
        #expect(step.body.map(\.value).contains(.variable(.redirectURI)))
        // Single-step from the app's side.
        let methods = Fixture.file("Methods.swift", in: Fixture.generate(["sdk.yaml": Self.twoServers, "auth.yaml": Self.browserAuth]))
        #expect(methods.contains("case oauth2(scope: String = \"profile\")"))
    }

    @Test func singleServerSchemaIsUnchangedButForTheRefreshRole() {
        let swift = schemaFile(Fixture.sdk, auth: Fixture.auth)
        #expect(!swift.contains("authorizationBaseURL"))
        #expect(swift.contains("lifecycle: LifecycleDescription()"))
    }

    @Test func clientAuthenticationToTheAPIIsAnError() {
        let auth = """
            methods:
              password:
                steps:
                  - request: POST /oauth/token
                    server: api
                    clientAuthentication: basic
                    body: { grant_type: password }
                    response: Token
            operations:
              me: { request: GET /me, response: User }
            """
        #expect(
            Fixture.printed(["sdk.yaml": Self.twoServers, "auth.yaml": auth]) == [
                "Schema/auth.yaml:4:18: error: step 'authenticate' of 'password' declares client authentication, which goes only to the authorization server: remove server: api"
            ])
        // With one server, the API's server is the authorization server: no error.
        #expect(Fixture.printed(["auth.yaml": auth]).isEmpty)
    }

    @Test func aStepWithClientAuthenticationDefaultsToTheAuthorizationServer() throws {
        let auth = """
            methods:
              password:
                steps:
                  - request: POST /oauth/token
                    clientAuthentication: basic
                    body: { grant_type: password }
                    response: Token
                  - request: POST /auth/other
                    response: Token
            operations:
              me: { request: GET /me, response: User }
            """
        // No error with two servers, and with one server the step is on the authorization
        // server too, so that `authorizationServerURL` set at run time moves it there.
        #expect(Fixture.printed(["sdk.yaml": Self.twoServers, "auth.yaml": auth]).isEmpty)
        let (ir, _) = try translated(Fixture.sdk, auth: auth)
        let steps = try #require(ir.methods.first?.runtimeDescription.steps)
        #expect(steps.map(\.request.server) == [.authorization, .api])
    }

    @Test func aPublicClientsBrowserTokenRequestWithoutServerIsAWarning() throws {
        let publicClient = Self.browserAuth.replacingOccurrences(of: "clientAuthentication: basic", with: "clientAuthentication: none")
        let withoutServer = publicClient.replacingOccurrences(
            of: "        server: authorization\n        encoding: form", with: "        encoding: form")
        #expect(withoutServer != publicClient)
        #expect(
            Fixture.printed(["sdk.yaml": Self.twoServers, "auth.yaml": withoutServer]) == [
                "Schema/auth.yaml:9:9: warning: the token request of a browser step with clientAuthentication: none goes to the API's server; add server: authorization to send it to the authorization server (or server: api if the API's server is meant)"
            ])
        // A declared server, either of them, says it is meant; client authentication takes
        // the step to the authorization server by default.
        #expect(Fixture.printed(["sdk.yaml": Self.twoServers, "auth.yaml": publicClient]).isEmpty)
        let onAPI = publicClient.replacingOccurrences(
            of: "        server: authorization\n        encoding: form", with: "        server: api\n        encoding: form")
        #expect(Fixture.printed(["sdk.yaml": Self.twoServers, "auth.yaml": onAPI]).isEmpty)
        let basic = Self.browserAuth.replacingOccurrences(
            of: "        server: authorization\n        encoding: form", with: "        encoding: form")
        #expect(Fixture.printed(["sdk.yaml": Self.twoServers, "auth.yaml": basic]).isEmpty)
    }

    @Test func theAuthorizationServersIssuerReachesTheRuntime() throws {
        let sdk = Self.twoServers.replacingOccurrences(
            of: "authorizationServer: { baseURL: https://idp.example.com }",
            with: "authorizationServer: { baseURL: https://idp.example.com, issuer: https://idp.example.com, issuerInResponses: true }")
        let (_, description) = try translated(sdk)
        #expect(description.authorizationIssuer == AuthorizationServerIssuer(issuer: "https://idp.example.com", sentInResponses: true))
        #expect(
            schemaFile(sdk).contains(
                #"authorizationIssuer: AuthorizationServerIssuer(issuer: "https://idp.example.com", sentInResponses: true)"#))
        // Without issuerInResponses, a response without iss is accepted.
        let optional = Self.twoServers.replacingOccurrences(
            of: "authorizationServer: { baseURL: https://idp.example.com }",
            with: "authorizationServer: { baseURL: https://idp.example.com, issuer: https://idp.example.com }")
        #expect(try translated(optional).1.authorizationIssuer?.sentInResponses == false)
        // Without an issuer, nothing is declared or printed.
        #expect(try translated().1.authorizationIssuer == nil)
        #expect(!schemaFile().contains("authorizationIssuer"))
    }

    @Test func issuerMistakesArePositioned() {
        func printed(_ server: String) -> [String] {
            Fixture.printed([
                "sdk.yaml": Self.twoServers.replacingOccurrences(
                    of: "authorizationServer: { baseURL: https://idp.example.com }", with: "authorizationServer: \(server)")
            ])
        }
        #expect(
            printed("{ baseURL: https://idp.example.com, issuer: idp.example.com }") == [
                "Schema/sdk.yaml:3:66: error: issuer must be an absolute http or https URL without a query or fragment (RFC 8414 §2), such as 'https://idp.example.com'"
            ])
        #expect(
            printed("{ baseURL: https://idp.example.com, issuer: \"https://idp.example.com?tenant=1\" }") == [
                "Schema/sdk.yaml:3:66: error: issuer must be an absolute http or https URL without a query or fragment (RFC 8414 §2), such as 'https://idp.example.com'"
            ])
        #expect(
            printed("{ baseURL: https://idp.example.com, issuerInResponses: true }") == [
                "Schema/sdk.yaml:3:58: error: issuerInResponses needs the issuer it is compared with: add issuer: https://…"
            ])
    }

    @Test func unknownServerSuggestsTheClosest() {
        let auth = "operations:\n  me: { request: GET /me, server: authorisation, response: User }\n"
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:2:35: error: server must be api or authorization, found 'authorisation'; did you mean 'authorization'?"
            ])
    }

    @Test func authorizationServerNeedsAnAbsoluteURL() {
        let sdk = Fixture.sdk.replacingOccurrences(
            of: "server: { baseURL: https://auth.example.com }",
            with: "server: { baseURL: https://auth.example.com }\nauthorizationServer: { baseURL: /oauth }")
        #expect(Fixture.printed(["sdk.yaml": sdk]) == ["Schema/sdk.yaml:3:33: error: baseURL must be an absolute http or https URL"])
    }

    @Test func browserStepMistakesArePositioned() {
        let auth = """
            methods:
              oauth2:
                steps:
                  - browser:
                      request: POST /oauth/authorize
                      redirectURI: "not a url"
                      parameters: { state: fixed, prompt: "{promt}" }
                    request: POST /oauth/token
                    server: authorization
                    body: { code: "{code}" }
                    response: Token
              later:
                steps:
                  - request: POST /oauth/token
                    body: { code: "{code}" }
                    response: Token
            operations:
              me: { request: GET /me, response: User }
            """
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:5:20: error: the authorization request is opened in a browser: it must be a GET request",
                "Schema/auth.yaml:6:24: error: redirectURI must be an absolute URL without a query or fragment, such as 'com.example.app://oauth/callback'",
                "Schema/auth.yaml:7:32: error: the runtime sets 'state' of the authorization request itself; remove it from parameters",
                "Schema/auth.yaml:7:47: error: no parameter, need or earlier step provides '{promt}'",
                "Schema/auth.yaml:10:9: error: the token request of a browser step must send {codeVerifier}, {redirectURI} (RFC 6749 §4.1.3, RFC 7636 §4.5)",
                "Schema/auth.yaml:15:23: error: no parameter, need or earlier step provides '{code}'",
            ])
    }

    @Test func revocationMistakesArePositioned() {
        let sdk =
            Fixture.sdk + """

                lifecycle:
                  revoke: { request: GET /oauth/revoke, fields: { token_type_hint: "{idToken}" } }
                """
        #expect(
            Fixture.printed(["sdk.yaml": sdk]) == [
                "Schema/sdk.yaml:9:11: error: the revocation request must send the token to revoke: fields: { token: \"{refreshToken}\" }",
                "Schema/sdk.yaml:9:22: error: the revocation request sends its token in a body: use POST (RFC 7009 §2.1)",
                "Schema/sdk.yaml:9:68: error: unknown placeholder '{idToken}'; here you may use {accessToken}, {refreshToken}",
            ])
    }
}
