import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing

/// Which end session sign-out uses (RP-Initiated Logout 1.0): the schema's `openID.endSession`
/// by default, resolved against the run-time authorization server, with the configuration's
/// or the schema's post-logout URI; the configuration's `endSession` instead when set; none
/// when the app turns it off or the schema declares none.
@Suite struct ProviderEndSessionTests {
    typealias Configuration = AuthenticationServiceConfiguration<TwoServerSchema.Details>
    static let back = URL(string: "com.example.app://signed-out")!

    /// TwoServerSchema's description with its authorization server at `https://idp.test/base/` and `openID`.
    static func sdk(_ openID: OpenIDDescription?) -> SDKDescription {
        var sdk = TwoServerSchema.description
        sdk.authorizationBaseURL = URL(string: "https://idp.test/base/")!
        sdk.openID = openID
        return sdk
    }

    static let declared = OpenIDDescription(keys: "/jwks", endSession: "/logout?ui=compact", postLogoutRedirectURI: back)

    @Test func theSchemasEndSessionIsTheDefault() {
        #expect(
            ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration())
                == .configured(
                    EndSessionConfiguration(
                        endpoint: URL(string: "https://idp.test/base/logout?ui=compact")!, postLogoutRedirectURI: Self.back)))
        // An absolute endpoint is used as it is.
        var absolute = Self.declared
        absolute.endSession = "https://idp.test/v2/logout"
        #expect(
            ProviderEndSession(sdk: Self.sdk(absolute), configuration: Configuration())
                == .configured(
                    EndSessionConfiguration(endpoint: URL(string: "https://idp.test/v2/logout")!, postLogoutRedirectURI: Self.back)))
    }

    @Test func theConfigurationOverridesOrTurnsItOff() {
        let other = URL(string: "com.example.app://staging/signed-out")!
        #expect(
            ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration(postLogoutRedirectURI: other))
                == .configured(
                    EndSessionConfiguration(endpoint: URL(string: "https://idp.test/base/logout?ui=compact")!, postLogoutRedirectURI: other)
                ))
        let own = EndSessionConfiguration(endpoint: URL(string: "https://login.test/bye")!, postLogoutRedirectURI: other)
        #expect(ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration(endSession: own)) == .configured(own))
        #expect(ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration(endsProviderSession: false)) == .off)
        #expect(
            ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration(endSession: own, endsProviderSession: false))
                == .off)
    }

    @Test func withoutAnEndpointNothingAndWithoutAURIAReason() {
        #expect(ProviderEndSession(sdk: Self.sdk(nil), configuration: Configuration()) == .off)
        #expect(ProviderEndSession(sdk: Self.sdk(OpenIDDescription(keys: "/jwks")), configuration: Configuration()) == .off)
        var noURI = Self.declared
        noURI.postLogoutRedirectURI = nil
        guard case .unusable(let reason) = ProviderEndSession(sdk: Self.sdk(noURI), configuration: Configuration()) else {
            Issue.record("expected unusable")
            return
        }
        #expect(reason.hasPrefix("no post-logout redirect URI"))
        // The configuration's URI makes it usable.
        #expect(
            ProviderEndSession(sdk: Self.sdk(noURI), configuration: Configuration(postLogoutRedirectURI: Self.back))
                == .configured(
                    EndSessionConfiguration(
                        endpoint: URL(string: "https://idp.test/base/logout?ui=compact")!, postLogoutRedirectURI: Self.back)))
    }

    @Test func aSchemaEndSessionWithoutAURIOpensNothingAndSaysWhyThenTheConfigurationsURIIsUsed() async throws {
        let transport = TwoServerTransport()
        let opened = LockedValue<[URL]>([])
        let browser = ScriptedBrowser { url in
            if url.path == "/oauth/logout" {
                opened.set(opened.value + [url])
                return URL(string: "com.example.app://signed-out?state=\(queryParameters(of: url)["state"] ?? "")")
            }
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(query["state"] ?? "")")!
        }
        func service(postLogoutRedirectURI: URL?) -> AuthenticationService<EndSessionWithoutURISchema> {
            AuthenticationService(
                configuration: .init(
                    client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                    receivesServerEvents: false, browser: browser,
                    idTokenValidator: EndSessionTests.AcceptingValidator(), postLogoutRedirectURI: postLogoutRedirectURI))
        }
        await transport.setIDToken(EndSessionTests.idToken)
        let withoutURI = service(postLogoutRedirectURI: nil)
        _ = try await withoutURI.authenticate(with: TwoServerMethod.oauth2)
        guard case .providerNotConfirmed(let reason, nil) = await withoutURI.unauthenticate() else {
            Issue.record("expected providerNotConfirmed")
            return
        }
        #expect(reason.hasPrefix("no post-logout redirect URI"))
        #expect(await withoutURI.state == .unauthenticated)
        #expect(opened.value.isEmpty)

        let withURI = service(postLogoutRedirectURI: Self.back)
        _ = try await withURI.authenticate(with: TwoServerMethod.oauth2)
        #expect(await withURI.unauthenticate() == .endedAtProvider(notRevoked: nil))
        let url = try #require(opened.value.first)
        #expect(url.host == "idp.test")
        #expect(queryParameters(of: url)["post_logout_redirect_uri"] == Self.back.absoluteString)
        #expect(queryParameters(of: url)["id_token_hint"] == EndSessionTests.idToken)
    }
}

/// ``TwoServerSchema`` whose sdk.yaml declares `openID.endSession` without a post-logout
/// redirect URI.
enum EndSessionWithoutURISchema: SDKSchema {
    typealias Details = TestDetails
    typealias ServerError = TestServerError
    typealias Event = TestEvent

    static var description: SDKDescription {
        var description = TwoServerSchema.description
        description.openID = OpenIDDescription(keys: "/jwks", endSession: "/oauth/logout")
        return description
    }
    static func userID(of details: TestDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
}
