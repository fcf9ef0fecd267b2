import Foundation
import Testing
@testable import SesameGenerator

/// `sesame discover`'s pure stages: the discovery document's checks (OpenID Connect
/// Discovery 1.0, RFC 8414) and the in-place edit of sdk.yaml.
@Suite struct DiscoveryTests {
    static func document(_ members: [String: String]) -> Data {
        var all = [
            "issuer": #""https://idp.example.com""#,
            "authorization_endpoint": #""https://idp.example.com/oauth2/authorize""#,
            "token_endpoint": #""https://idp.example.com/oauth2/token""#,
            "revocation_endpoint": #""https://idp.example.com/oauth2/revoke""#,
            "authorization_response_iss_parameter_supported": "true",
            "id_token_signing_alg_values_supported": #"["RS256", "ES256"]"#,
        ]
        for (name, value) in members { all[name] = value.isEmpty ? nil : value }
        return Data(("{\n" + all.sorted { $0.key < $1.key }.map { "  \"\($0.key)\": \($0.value)" }.joined(separator: ",\n") + "\n}").utf8)
    }

    static func read(_ members: [String: String] = [:], issuer: String? = "https://idp.example.com") -> (DiscoveryDocument?, [Diagnostic]) {
        DiscoveryDocument.read(document(members), file: "idp.json", expectedIssuer: issuer)
    }

    @Test func aValidDocumentIsRead() throws {
        let (document, diagnostics) = Self.read()
        #expect(diagnostics.isEmpty)
        let read = try #require(document)
        #expect(read.issuer == "https://idp.example.com")
        #expect(read.tokenEndpoint.absoluteString == "https://idp.example.com/oauth2/token")
        #expect(read.issuerInResponses == true)
        #expect(read.signingAlgorithms == ["RS256", "ES256"])
    }

    @Test(
        arguments: [
            (
                [String: String](), "https://other.example.com",
                "idp.json:5:3: error: issuer 'https://idp.example.com' is not the expected issuer 'https://other.example.com'"
            ),
            (
                ["issuer": #""http://idp.example.com""#], "http://idp.example.com",
                "idp.json:5:3: error: issuer 'http://idp.example.com' must be an https URL"
            ),
            (
                ["issuer": #""https://idp.example.com?x=1""#], nil,
                "idp.json:5:3: error: issuer 'https://idp.example.com?x=1' must be an https URL"
            ),
            (["issuer": "42"], nil, "idp.json:5:3: error: the discovery document has no issuer string"),
            (["token_endpoint": ""], nil, "idp.json:1:1: error: the discovery document has no token_endpoint"),
            (["token_endpoint": #""http://idp.example.com/t""#], nil, "idp.json:7:3: error: token_endpoint must be an https URL"),
            (
                ["token_endpoint": #""https://tokens.example.com/t""#], nil,
                "idp.json:7:3: error: the authorization, token, revocation, device and pushed authorization endpoints are on several origins"
            ),
            (
                ["authorization_response_iss_parameter_supported": "1"], nil,
                "idp.json:3:3: error: authorization_response_iss_parameter_supported must be true or false"
            ),
            (
                ["id_token_signing_alg_values_supported": #"["RS256", 1]"#], nil,
                "idp.json:4:3: error: id_token_signing_alg_values_supported must be an array of strings"
            ),
        ] as [([String: String], String?, String)])
    func badDocumentsArePositionedErrors(members: [String: String], issuer: String?, expected: String) {
        let (document, diagnostics) = Self.read(members, issuer: issuer)
        #expect(document == nil)
        #expect(diagnostics.contains { "\($0)".hasPrefix(expected) }, "\(diagnostics)")
    }

    @Test func loopbackMayUsePlainHTTP() {
        let (document, diagnostics) = DiscoveryDocument.read(
            Data(
                #"{"issuer":"http://127.0.0.1:8081","authorization_endpoint":"http://127.0.0.1:8081/a","token_endpoint":"http://127.0.0.1:8081/t"}"#
                    .utf8),
            file: "local.json", expectedIssuer: nil)
        #expect(diagnostics.isEmpty)
        #expect(document?.issuerInResponses == nil)
    }

    @Test func notJSONAndTooLargeAreRefused() {
        #expect(
            "\(DiscoveryDocument.read(Data("<html>".utf8), file: "x", expectedIssuer: nil).1)".contains(
                "x:1:1: error: the discovery document is not a JSON object"))
        let large = Data(repeating: 0x20, count: DiscoveryDocument.maximumSize + 1)
        #expect("\(DiscoveryDocument.read(large, file: "x", expectedIssuer: nil).1)".contains("larger than"))
    }

    @Test(arguments: [
        ("https://idp.example.com", "https://idp.example.com", "https://idp.example.com/.well-known/openid-configuration"),
        (
            "https://idp.example.com/tenant/", "https://idp.example.com/tenant/",
            "https://idp.example.com/tenant/.well-known/openid-configuration"
        ),
        (
            "https://idp.example.com/t/.well-known/openid-configuration", "https://idp.example.com/t",
            "https://idp.example.com/t/.well-known/openid-configuration"
        ),
        (
            "https://idp.example.com/.well-known/oauth-authorization-server/t", "https://idp.example.com/t",
            "https://idp.example.com/.well-known/oauth-authorization-server/t"
        ),
    ])
    func theURLNamesTheIssuer(url: String, issuer: String, fetch: String) {
        let location = DiscoveryDocument.location(of: URL(string: url)!)
        #expect(location.issuer == issuer)
        #expect(location.fetch.absoluteString == fetch)
    }

    /// RFC 8414 §3.3 and Discovery §4.3: the issuer is compared as a string, so the authority
    /// is kept as written in both well-known forms alike (no case or default-port
    /// normalisation in one and not the other), and never carries a user name or password.
    @Test(arguments: [
        ("https://IdP.Example.com/.well-known/oauth-authorization-server/t", "https://IdP.Example.com/t"),
        ("https://IdP.Example.com/t/.well-known/openid-configuration", "https://IdP.Example.com/t"),
        ("https://idp.example.com:443/.well-known/oauth-authorization-server/t", "https://idp.example.com:443/t"),
        ("https://idp.example.com:443/t/.well-known/openid-configuration", "https://idp.example.com:443/t"),
        ("https://user:hunter2@idp.example.com/.well-known/oauth-authorization-server/t", "https://idp.example.com/t"),
        ("https://user:hunter2@idp.example.com:8443/.well-known/oauth-authorization-server", "https://idp.example.com:8443"),
        ("https://user:hunter2@idp.example.com/t/.well-known/openid-configuration", "https://idp.example.com/t"),
        ("https://user:hunter2@idp.example.com/t", "https://idp.example.com/t"),
    ])
    func theWellKnownAuthorityIsKeptAsWrittenWithoutCredentials(url: String, issuer: String) {
        let location = DiscoveryDocument.location(of: URL(string: url)!)
        #expect(location.issuer == issuer)
        #expect(location.alsoAccepted == (url.contains("/.well-known/") ? [issuer + "/"] : []))
        #expect(!location.issuer.contains("hunter2") && !location.issuer.contains("user"))
    }

    /// A library caller gets no credentials back from any part of the location, the URL to
    /// fetch included (the CLI refuses such URLs before it asks): they are dropped, the rest
    /// kept as written.
    @Test(arguments: [
        (
            "https://user:hunter2@idp.example.com/.well-known/oauth-authorization-server/t",
            "https://idp.example.com/.well-known/oauth-authorization-server/t"
        ),
        (
            "https://user:hunter2@IdP.Example.com:8443/t/.well-known/openid-configuration",
            "https://IdP.Example.com:8443/t/.well-known/openid-configuration"
        ),
        ("https://user:hunter2@idp.example.com/t", "https://idp.example.com/t/.well-known/openid-configuration"),
        ("https://hunter2@idp.example.com/", "https://idp.example.com/.well-known/openid-configuration"),
        ("https://:hunter2@idp.example.com/.well-known/openid-configuration", "https://idp.example.com/.well-known/openid-configuration"),
    ])
    func theURLToFetchCarriesNoCredentials(url: String, fetch: String) {
        let location = DiscoveryDocument.location(of: URL(string: url)!)
        #expect(location.fetch.absoluteString == fetch)
        #expect(location.fetch.user == nil && location.fetch.password == nil)
        let everything = [location.issuer, location.fetch.absoluteString] + location.alsoAccepted
        #expect(!everything.contains { $0.contains("hunter2") })
    }

    /// The issuer is compared exactly: a document naming the normalised spelling of an
    /// upper-case host or an explicit `:443` is refused, with the expected one in the error.
    @Test func theIssuerIsComparedAsWritten() {
        for expected in ["https://IdP.Example.com/t", "https://idp.example.com:443/t"] {
            let (document, diagnostics) = DiscoveryDocument.read(
                Self.document(["issuer": #""https://idp.example.com/t""#]), file: "idp.json", expectedIssuer: expected)
            #expect(document == nil)
            #expect(diagnostics.contains { $0.severity == .error && $0.message.contains("'\(expected)'") }, "\(diagnostics)")
        }
    }

    // MARK: The edit

    static var parsed: DiscoveryDocument { Self.read().0! }

    @Test func existingValuesAreReplacedInPlaceKeepingCommentsAndOtherKeys() {
        let text = """
            # the SDK
            sdk: Demo
            server: { baseURL: https://api.example.com }
            authorizationServer:   # the IdP
              baseURL: "https://old.example.com"   # moved
              issuer: https://old.example.com
              other: kept
            credential: {}

            """
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: Self.parsed)
        #expect(
            result.text == """
                # the SDK
                sdk: Demo
                server: { baseURL: https://api.example.com }
                authorizationServer:   # the IdP
                  issuerInResponses: true
                  baseURL: https://idp.example.com   # moved
                  issuer: https://idp.example.com
                  other: kept
                credential: {}

                """)
        #expect(result.diagnostics.allSatisfy { $0.severity == .note })
        #expect(
            result.diagnostics.first.map { "\($0)" }?.hasPrefix("sdk.yaml:4:1: note: authorization_endpoint: /oauth2/authorize") == true)
    }

    @Test func theUserInfoEndpointIsNamedForAnOperationOfOpenIDUserInfo() throws {
        let text = "sdk: Demo\nauthorizationServer: { baseURL: https://idp.example.com/oauth2 }\n"
        let onServer = try #require(Self.read(["userinfo_endpoint": #""https://idp.example.com/oauth2/userinfo""#]).0)
        let notes = DiscoveryImport.update(text, file: "sdk.yaml", with: onServer).diagnostics.map(\.message)
        #expect(
            notes.contains(
                "userinfo_endpoint: /userinfo on the authorization server: declare an operation { request: GET /userinfo, server: authorization, authenticated: true, response: a model with a required string sub } and name it in openID.userInfo (not written)"
            ), "\(notes)")
        let elsewhere = try #require(Self.read(["userinfo_endpoint": #""https://graph.example.com/oidc/userinfo""#]).0)
        #expect(
            DiscoveryImport.update(text, file: "sdk.yaml", with: elsewhere).diagnostics.map(\.message).contains {
                $0.hasPrefix("userinfo_endpoint https://graph.example.com/oidc/userinfo is not under the authorization server's base URL")
            })
    }

    @Test func theJWKSIsNamedForOpenIDKeys() throws {
        let text = "sdk: Demo\nauthorizationServer: { baseURL: https://idp.example.com/oauth2 }\n"
        let onServer = try #require(Self.read(["jwks_uri": #""https://idp.example.com/oauth2/jwks""#]).0)
        let notes = DiscoveryImport.update(text, file: "sdk.yaml", with: onServer).diagnostics.map(\.message)
        #expect(
            notes.contains(
                "jwks_uri: /jwks: to validate ID tokens (OpenID Connect), sdk.yaml needs openID: { keys: /jwks, algorithms: [RS256, ES256] } (not written)"
            ), "\(notes)")
        #expect(!notes.contains { $0.contains("userinfo_endpoint") })
        // On another origin, the absolute URL (https, as openID.keys requires).
        let elsewhere = try #require(Self.read(["jwks_uri": #""https://keys.example.com/jwks.json""#]).0)
        #expect(
            DiscoveryImport.update(text, file: "sdk.yaml", with: elsewhere).diagnostics.map(\.message).contains {
                $0.hasPrefix("jwks_uri: https://keys.example.com/jwks.json: to validate ID tokens")
            })
    }

    @Test func aBaseURLOnTheSameOriginKeepsItsPath() {
        let text = "sdk: Demo\nauthorizationServer: { baseURL: https://idp.example.com/oauth2 }\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: Self.parsed)
        #expect(
            result.text
                == "sdk: Demo\nauthorizationServer: { issuer: https://idp.example.com, issuerInResponses: true, baseURL: https://idp.example.com/oauth2 }\n"
        )
        #expect(result.diagnostics.contains { $0.message.hasPrefix("token_endpoint: /token on the authorization server") })
    }

    @Test func aMissingAuthorizationServerIsInsertedAfterServer() {
        let text = "sdk: Demo\nserver:\n  baseURL: https://api.example.com  # api\ncredential: {}\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: Self.parsed)
        #expect(
            result.text == """
                sdk: Demo
                server:
                  baseURL: https://api.example.com  # api
                authorizationServer:
                  baseURL: https://idp.example.com
                  issuer: https://idp.example.com
                  issuerInResponses: true
                credential: {}

                """)
    }

    @Test func anAuthorizationServerThatIsNotAMappingIsAnError() {
        let result = DiscoveryImport.update("authorizationServer: https://x\n", file: "sdk.yaml", with: Self.parsed)
        #expect(result.text == nil)
        #expect(result.diagnostics.contains { "\($0)".hasPrefix("sdk.yaml:1:1: error: authorizationServer is not a mapping") })
    }

    @Test func theResultIsAValidSchemaAndRunningTwiceChangesNothing() throws {
        let sources = try ReferenceSchema.sources()
        let sdk = try #require(sources.first { $0.relativePath == "sdk.yaml" })
        let once = try #require(DiscoveryImport.update(sdk.text, file: "sdk.yaml", with: Self.parsed).text)
        #expect(DiscoveryImport.update(once, file: "sdk.yaml", with: Self.parsed).text == once)
        let updated = sources.map {
            $0.relativePath == "sdk.yaml" ? SchemaSource(path: "Schema/sdk.yaml", relativePath: "sdk.yaml", text: once) : $0
        }
        let validation = GeneratorPipeline.validate(updated)
        #expect(!validation.diagnostics.hasErrors, "\(validation.diagnostics)")
        #expect(validation.ir?.authorizationIssuer?.issuer == "https://idp.example.com")
    }
}
