import Foundation
@_spi(Generated) import SesameDescription
@testable import SesameGenerator
import Testing

/// OpenID Connect in the YAML (issue 26): sdk.yaml's `openID:` and a browser step's
/// `openID: true`, what reaches the runtime, each mistake at its line and column, and what
/// `sesame diff` says of adding them.
@Suite struct OpenIDSchemaTests {
    static let issuer = "authorizationServer: { baseURL: https://idp.example.com, issuer: https://idp.example.com }"

    /// `twoServers` with an issuer and `openID` (`block` is its value).
    static func sdk(openID block: String? = "{ keys: /oauth/jwks }", issuer: String = issuer) -> String {
        ServerAndBrowserTests.twoServers.replacingOccurrences(
            of: "authorizationServer: { baseURL: https://idp.example.com }",
            with: issuer + (block.map { "\nopenID: \($0)" } ?? ""))
    }

    static let openIDAuth = ServerAndBrowserTests.browserAuth.replacingOccurrences(
        of: "      parameters: { scope: \"{scope}\" }", with: "      parameters: { scope: \"{scope}\" }\n          openID: true")

    @Test func openIDReachesTheRuntime() throws {
        let sdk = Self.sdk(openID: "{ keys: /oauth/jwks, algorithms: [ES256, RS256], clockSkew: 30s, claims: User }")
        let files = ["sdk.yaml": sdk, "auth.yaml": Self.openIDAuth]
        let validation = Fixture.validate(files)
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        let ir = try #require(validation.ir)
        #expect(
            ir.runtimeDescription.openID
                == OpenIDDescription(keys: "/oauth/jwks", algorithms: ["ES256", "RS256"], clockSkew: .seconds(30)))
        #expect(ir.openID?.claims?.schemaName == "User")
        #expect(ir.methods.first?.steps.first?.value.browser?.openID == true)
        let schema = Fixture.file("TestSDKSchema.swift", in: Fixture.generate(files))
        #expect(
            schema.contains(#"openID: OpenIDDescription(keys: "/oauth/jwks", algorithms: ["ES256", "RS256"], clockSkew: .seconds(30))"#))
        #expect(schema.contains("openID: true"))
        // The defaults: the validator's algorithms, 60 s of skew.
        let plain = try #require(Fixture.validate(["sdk.yaml": Self.sdk(), "auth.yaml": Self.openIDAuth]).ir)
        #expect(plain.runtimeDescription.openID == OpenIDDescription(keys: "/oauth/jwks"))
        #expect(plain.runtimeDescription.openID?.clockSkew == .seconds(60))
        // An absolute https URL is kept as it is.
        let absolute = try #require(
            Fixture.validate(["sdk.yaml": Self.sdk(openID: "{ keys: \"https://keys.example.com/jwks.json\" }")]).ir)
        #expect(
            absolute.runtimeDescription.openID?.keysURL(authorizationServer: URL(string: "https://idp.example.com/base")!)
                == URL(string: "https://keys.example.com/jwks.json"))
        #expect(
            plain.runtimeDescription.openID?.keysURL(authorizationServer: URL(string: "https://idp.example.com/base/")!)
                == URL(string: "https://idp.example.com/base/oauth/jwks"))
    }

    @Test func anSDKWithOpenIDBuildsItsValidator() {
        let generation = Fixture.generate(["sdk.yaml": Self.sdk(), "auth.yaml": Self.openIDAuth])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let schema = Fixture.file("TestSDKSchema.swift", in: generation)
        #expect(schema.contains("@_spi(Generated) import SesameOpenID\n"))
        #expect(
            schema.contains(
                """
                    @_spi(Generated) public static func idTokenValidator(_ settings: OpenIDValidatorSettings) -> (any IDTokenValidating)? {
                        IDTokenValidator(settings)
                    }
                """))
        // Without claims, no typed accessor; with them, one that returns the model.
        #expect(!schema.contains("idTokenClaims"))
        let withClaims = Fixture.file(
            "TestSDKSchema.swift",
            in: Fixture.generate(["sdk.yaml": Self.sdk(openID: "{ keys: /oauth/jwks, claims: User }"), "auth.yaml": Self.openIDAuth]))
        #expect(withClaims.contains("extension AuthenticationService where Schema == TestSDKSchema {"))
        #expect(withClaims.contains("    public func idTokenClaims() throws(IDTokenClaimsMismatch) -> User? {"))
        #expect(withClaims.contains("        return try IDTokenClaims.decode(User.self, fromValidated: idToken)"))
        // Only the schema file links SesameOpenID.
        for file in generation.files where file.path != "TestSDKSchema.swift" {
            #expect(!file.contents.contains("SesameOpenID"), "\(file.path)")
        }
    }

    @Test func withoutOpenIDNothingIsPrinted() throws {
        let generation = Fixture.generate(["sdk.yaml": ServerAndBrowserTests.twoServers, "auth.yaml": ServerAndBrowserTests.browserAuth])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let schema = Fixture.file("TestSDKSchema.swift", in: generation)
        #expect(schema.contains("BrowserAuthorization("))
        #expect(!schema.contains("openID"))
        // No import of SesameOpenID, no validator: the SDK links no JOSE library.
        for file in generation.files {
            #expect(!file.contents.contains("SesameOpenID"), "\(file.path)")
            #expect(!file.contents.contains("idTokenValidator"), "\(file.path)")
        }
    }

    @Test func openIDMistakesArePositioned() {
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk(issuer: "authorizationServer: { baseURL: https://idp.example.com }")]) == [
                "Schema/sdk.yaml:4:1: error: openID validates the ID token's iss against the authorization server's issuer: add authorizationServer: { baseURL: https://…, issuer: https://… }"
            ])
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk(openID: "{ keys: \"http://idp.example.com/jwks\", clockSkew: soon }")]) == [
                "Schema/sdk.yaml:4:17: error: keys must be a path on the authorization server (/oauth/jwks) or an absolute https URL (the provider's jwks_uri)",
                "Schema/sdk.yaml:4:59: error: clockSkew must be a duration such as 60s, 5m, 1h or 250ms, found 'soon'",
            ])
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk(openID: "{ keys: /jwks, algorithms: [RS256, HS256, none, RS257, RS256], claim: User }")])
                == [
                    "Schema/sdk.yaml:4:44: error: algorithm 'HS256' is never accepted for ID tokens: none and HMAC cannot be verified by a public client",
                    "Schema/sdk.yaml:4:51: error: algorithm 'none' is never accepted for ID tokens: none and HMAC cannot be verified by a public client",
                    "Schema/sdk.yaml:4:57: error: unknown algorithm 'RS257'; the accepted ones are ES256, ES384, ES512, PS256, PS384, PS512, RS256, RS384, RS512; did you mean 'RS256'?",
                    "Schema/sdk.yaml:4:64: error: algorithm 'RS256' is listed twice",
                    "Schema/sdk.yaml:4:72: error: unknown key 'claim' in openID; did you mean 'claims'?",
                ])
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk(openID: "{ claims: Profile }")]) == [
                "Schema/sdk.yaml:4:1: error: openID must say where the provider's keys are (keys: /oauth/jwks)",
                "Schema/sdk.yaml:4:19: error: unknown model 'Profile'",
            ])
        // A browser step that is an OpenID Connect sign-in needs the keys sdk.yaml declares.
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk(openID: nil), "auth.yaml": Self.openIDAuth]) == [
                "Schema/auth.yaml:9:11: error: step 'authenticate' of 'oauth2' is an OpenID Connect sign-in, but sdk.yaml declares no openID: add openID: { keys: /oauth/jwks } beside authorizationServer"
            ])
    }

    @Test func addingOpenIDIsNoBreakingChange() throws {
        let old = try #require(
            Fixture.validate(["sdk.yaml": Self.sdk(openID: nil), "auth.yaml": ServerAndBrowserTests.browserAuth]).ir)
        let openidMethod = """
              openid:
                steps:
                  - browser:
                      request: GET /oauth/authorize
                      redirectURI: com.example.app://oauth/callback
                      openID: true
                    request: POST /oauth/token
                    server: authorization
                    encoding: form
                    clientAuthentication: basic
                    body: { grant_type: authorization_code, code: "{code}", redirect_uri: "{redirectURI}", code_verifier: "{codeVerifier}" }
                    response: Token

            """
        let auth = ServerAndBrowserTests.browserAuth.replacingOccurrences(of: "operations:\n", with: openidMethod + "operations:\n")
        let validation = Fixture.validate(["sdk.yaml": Self.sdk(), "auth.yaml": auth])
        let new = try #require(validation.ir, "\(validation.diagnostics)")
        let changes = SchemaDiff.compare(old: old, new: new)
        #expect(changes.allSatisfy { $0.grade == .compatible }, "\(changes)")
        #expect(changes.map(\.kind).contains("openid.added"))
        // Turning an existing browser step into an OpenID Connect sign-in is a warning.
        let turned = try #require(Fixture.validate(["sdk.yaml": Self.sdk(), "auth.yaml": Self.openIDAuth]).ir)
        #expect(SchemaDiff.compare(old: old, new: turned).map(\.kind).contains("step.openid-changed"))
    }
}
