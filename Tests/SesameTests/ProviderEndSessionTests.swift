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

    /// An absolute endpoint receives the ID token: it must be on the origin of the provider the
    /// service uses at run time. Moving the authorization server (and its issuer) to another
    /// provider leaves the schema's absolute endpoint unusable, never called with the other
    /// provider's ID token; a path follows the move.
    @Test func anAbsoluteEndpointMustBeOnTheRunTimeProvidersOrigin() {
        var absolute = Self.declared
        absolute.endSession = "https://idp.test/v2/logout"
        var moved = Self.sdk(absolute)
        moved.authorizationBaseURL = URL(string: "https://staging-idp.test/base/")!
        moved.authorizationIssuer = AuthorizationServerIssuer(issuer: "https://staging-idp.test", sentInResponses: false)
        guard case .unusable(let reason) = ProviderEndSession(sdk: moved, configuration: Configuration()) else {
            Issue.record("the production provider's logout was kept for the staging provider")
            return
        }
        #expect(reason.contains("not on the run-time provider's origin"))
        // On the issuer's origin, with the authorization server elsewhere: usable.
        var issuerOnly = Self.sdk(absolute)
        issuerOnly.authorizationBaseURL = URL(string: "https://tokens.test/")!
        issuerOnly.authorizationIssuer = AuthorizationServerIssuer(issuer: "https://idp.test", sentInResponses: false)
        #expect(
            ProviderEndSession(sdk: issuerOnly, configuration: Configuration())
                == .configured(
                    EndSessionConfiguration(endpoint: URL(string: "https://idp.test/v2/logout")!, postLogoutRedirectURI: Self.back)))
        // A default port is the same origin.
        absolute.endSession = "https://idp.test:443/v2/logout"
        #expect(ProviderEndSession(sdk: Self.sdk(absolute), configuration: Configuration()) != .off)
        guard case .configured = ProviderEndSession(sdk: Self.sdk(absolute), configuration: Configuration()) else {
            Issue.record("https://idp.test:443 is https://idp.test's origin")
            return
        }
        // A path follows the moved authorization server.
        var path = Self.sdk(Self.declared)
        path.authorizationBaseURL = URL(string: "https://staging-idp.test/base/")!
        #expect(
            ProviderEndSession(sdk: path, configuration: Configuration())
                == .configured(
                    EndSessionConfiguration(
                        endpoint: URL(string: "https://staging-idp.test/base/logout?ui=compact")!, postLogoutRedirectURI: Self.back)))
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

    /// A post-logout URI in the configuration with no end-session endpoint anywhere (neither
    /// the schema's nor the configuration's) is not dropped silently: unusable, with a reason
    /// naming what to set. Turning the end session off is the app's own choice: off.
    @Test func aConfiguredURIWithoutAnEndpointIsUnusableWithAReason() {
        for openID in [nil, OpenIDDescription(keys: "/jwks")] {
            guard
                case .unusable(let reason) = ProviderEndSession(
                    sdk: Self.sdk(openID), configuration: Configuration(postLogoutRedirectURI: Self.back))
            else {
                Issue.record("postLogoutRedirectURI without an endpoint was dropped silently")
                continue
            }
            #expect(reason.hasPrefix("postLogoutRedirectURI is set, but there is no end-session endpoint"))
        }
        #expect(
            ProviderEndSession(
                sdk: Self.sdk(nil), configuration: Configuration(postLogoutRedirectURI: Self.back, endsProviderSession: false))
                == .off)
    }

    @Test func aConfiguredURIWithoutAnEndpointIsAWarningAtCreationAndSignOutSaysWhy() async throws {
        let transport = TwoServerTransport()
        let opened = LockedValue<[URL]>([])
        let browser = ScriptedBrowser { url in
            opened.set(opened.value + [url])
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(query["state"] ?? "")")!
        }
        let logs = LogCapture()
        let service = AuthenticationService<TwoServerSchema>(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport, logger: logs.logger(),
                receivesServerEvents: false, browser: browser,
                idTokenValidator: EndSessionTests.AcceptingValidator(), postLogoutRedirectURI: Self.back))
        #expect(TwoServerSchema.description.openID?.endSession == nil)
        // Said when the service is created, before any sign-in.
        #expect(logs.lines.contains { $0.contains("sign-out will not end the provider's session: postLogoutRedirectURI is set") })
        await transport.setIDToken(EndSessionTests.idToken)
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let openedBySignIn = opened.value.count
        // Sign-out never throws: signed out, the reason in its result, no browser opened.
        guard case .providerNotConfirmed(let reason, nil) = await service.unauthenticate() else {
            Issue.record("expected providerNotConfirmed")
            return
        }
        #expect(reason.hasPrefix("postLogoutRedirectURI is set, but there is no end-session endpoint"))
        #expect(await service.state == .unauthenticated)
        #expect(opened.value.count == openedBySignIn)
    }

    /// The schema's own end session, unusable (here without a post-logout URI anywhere), is
    /// said when the service is created too, not only the configuration's.
    @Test func anUnusableSchemaEndSessionIsAWarningAtCreation() {
        let logs = LogCapture()
        _ = AuthenticationService<EndSessionWithoutURISchema>(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: TwoServerTransport(),
                logger: logs.logger(), receivesServerEvents: false))
        #expect(
            logs.lines.contains { $0.contains("sign-out will not end the provider's session: no post-logout redirect URI") },
            "\(logs.lines)")
        // Usable with the configuration's URI: nothing said.
        let quiet = LogCapture()
        _ = AuthenticationService<EndSessionWithoutURISchema>(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: TwoServerTransport(),
                logger: quiet.logger(), receivesServerEvents: false, postLogoutRedirectURI: Self.back))
        #expect(!quiet.lines.contains { $0.contains("sign-out will not end the provider's session") })
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
