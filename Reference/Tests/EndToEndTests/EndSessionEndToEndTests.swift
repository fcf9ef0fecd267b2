import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReferenceSDK
import ReferenceServer
import Sesame
import SesameTestSupport
import Testing

/// Sign-out that ends the session at the reference server as the OpenID provider
/// (RP-Initiated Logout 1.0), over real HTTP: the runtime opens the discovery document's
/// `end_session_endpoint` in a HeadlessBrowser, the server checks the ID token hint and the
/// post-logout redirect URI, ends the sign-in and redirects back with the `state`.
@Suite("RP-initiated logout, end to end", .secretScan)
struct EndSessionEndToEndTests {
    /// The discovery document's `end_session_endpoint`.
    static func endSessionEndpoint(_ e2e: EndToEnd) async throws -> URL {
        let url = e2e.backEnd.authorizationBaseURL.appendingPathComponent(".well-known/openid-configuration")
        let (data, _) = try await URLSession.shared.data(from: url)
        let document = try JSONDecoder().decode([String: JSONValue].self, from: data)
        guard case .string(let endpoint)? = document["end_session_endpoint"], let endpointURL = URL(string: endpoint) else {
            throw NoEndpoint()
        }
        return endpointURL
    }

    struct NoEndpoint: Error {}

    /// Whether the API still accepts `accessToken`.
    static func accepts(_ e2e: EndToEnd, accessToken: String) async throws -> Bool {
        var request = URLRequest(url: e2e.backEnd.baseURL.appendingPathComponent("me"))
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode == 200
    }

    func signedIn(_ e2e: EndToEnd, postLogoutRedirectURI: String) async throws -> (Service, InMemorySessionStore<AuthenticationDetails>) {
        let endpoint = try await Self.endSessionEndpoint(e2e)
        #expect(endpoint.path == "/oauth/logout")
        let store = InMemorySessionStore<AuthenticationDetails>()
        let service = e2e.makeService(
            store: store, browser: OpenIDEndToEndTests.alice(), idTokenValidator: try await OpenIDEndToEndTests.validator(e2e),
            endSession: EndSessionConfiguration(endpoint: endpoint, postLogoutRedirectURI: URL(string: postLogoutRedirectURI)!))
        _ = try await service.authenticate(with: OpenIDEndToEndTests.openID)
        #expect(try store.load()?.credential.idToken != nil)
        return (service, store)
    }

    @Test("the server confirms the end of the session: redirected back with the state, the sign-in ended")
    func providerConfirms() async throws {
        try await withEndToEnd { e2e in
            let (service, store) = try await signedIn(e2e, postLogoutRedirectURI: ReferenceServer.Client.demoPostLogoutRedirectURI)
            let accessToken = try #require(try store.load()?.credential.accessToken)
            #expect(try await Self.accepts(e2e, accessToken: accessToken))
            let result = await service.unauthenticate()
            #expect(result == .endedAtProvider(notRevoked: nil))
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
            #expect(await e2e.backEnd.counters().endedSessions == 1)
            #expect(await e2e.backEnd.counters().requests("GET /oauth/logout") == 1)
            #expect(try await !Self.accepts(e2e, accessToken: accessToken))
        }
    }

    /// Schema/'s `openid` method signed in with the generated SDK's defaults: no validator, no
    /// end-session configuration, the authorization server on a listener of its own.
    func signedInWithSchemaDefaults(
        _ e2e: EndToEnd, postLogoutRedirectURI: URL? = nil, endsProviderSession: Bool = true
    ) async throws -> (Service, InMemorySessionStore<AuthenticationDetails>) {
        let store = InMemorySessionStore<AuthenticationDetails>()
        let service = e2e.makeService(
            store: store, browser: OpenIDEndToEndTests.alice(), postLogoutRedirectURI: postLogoutRedirectURI,
            endsProviderSession: endsProviderSession)
        _ = try await service.authenticate(with: SingleStepMethod.openid())
        #expect(try store.load()?.credential.idToken != nil)
        return (service, store)
    }

    @Test("with Schema/'s openID.endSession and no app code, sign-out ends the session at the provider, which confirms")
    func schemaEndSessionByDefault() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let (service, store) = try await signedInWithSchemaDefaults(e2e)
            let accessToken = try #require(try store.load()?.credential.accessToken)
            #expect(try await Self.accepts(e2e, accessToken: accessToken))
            let result = await service.unauthenticate()
            #expect(result == .endedAtProvider(notRevoked: nil))
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
            // sdk.yaml's path, on the authorization server the configuration moved to the test's port.
            #expect(await e2e.backEnd.counters().requests("GET /oauth/logout") == 1)
            #expect(await e2e.backEnd.counters().endedSessions == 1)
            #expect(try await !Self.accepts(e2e, accessToken: accessToken))
        }
    }

    @Test("the app overrides the schema's post-logout redirect URI, or turns the end session off")
    func schemaEndSessionOverriddenOrOff() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            // An unregistered URI from the configuration is the one sent: the server refuses it.
            let (service, _) = try await signedInWithSchemaDefaults(e2e, postLogoutRedirectURI: URL(string: "sesame-demo://elsewhere")!)
            guard case .providerNotConfirmed(let reason, nil) = await service.unauthenticate() else {
                Issue.record("expected providerNotConfirmed")
                return
            }
            #expect(reason.contains("UnexpectedPage"), "\(reason)")
            #expect(await e2e.backEnd.counters().requests("GET /oauth/logout") == 1)
            #expect(await e2e.backEnd.counters().endedSessions == 0)

            // Turned off: sign-out stays with the back-end, nothing is opened.
            let (quiet, _) = try await signedInWithSchemaDefaults(e2e, endsProviderSession: false)
            #expect(await quiet.unauthenticate() == .revoked)
            #expect(await quiet.state == .unauthenticated)
            #expect(await e2e.backEnd.counters().requests("GET /oauth/logout") == 1)
            #expect(await e2e.backEnd.counters().endedSessions == 0)
        }
    }

    @Test("a post-logout redirect URI the client did not register is refused; sign-out still ends unauthenticated")
    func wrongRedirectURIRefused() async throws {
        try await withEndToEnd { e2e in
            let (service, store) = try await signedIn(e2e, postLogoutRedirectURI: "sesame-demo://elsewhere")
            let result = await service.unauthenticate()
            guard case .providerNotConfirmed(let reason, nil) = result else {
                Issue.record("expected providerNotConfirmed, got \(result)")
                return
            }
            #expect(reason.contains("UnexpectedPage"), "\(reason)")
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
            #expect(await e2e.backEnd.counters().endedSessions == 0)
            #expect(await e2e.backEnd.counters().requests("GET /oauth/logout") == 1)
        }
    }

    @Test("the end-session endpoint alone ends the sign-in of a good hint and refuses a forged one, another client's, none")
    func endpointChecksTheHint() async throws {
        try await withEndToEnd { e2e in
            let endpoint = try await Self.endSessionEndpoint(e2e)
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(
                store: store, browser: OpenIDEndToEndTests.alice(), idTokenValidator: try await OpenIDEndToEndTests.validator(e2e))
            _ = try await service.authenticate(with: OpenIDEndToEndTests.openID)
            let credential = try #require(try store.load()?.credential)
            let idToken = try #require(credential.idToken)
            let back = URL(string: ReferenceServer.Client.demoPostLogoutRedirectURI)!
            func request(_ parameters: [(String, String)]) -> URL {
                var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
                components.percentEncodedQuery = parameters.map { "\($0.0)=\(FormField.encode($0.1))" }.joined(separator: "&")
                return components.url!
            }
            let browser = HeadlessBrowser(username: "alice", password: "wonderland")
            let forged = idToken.split(separator: ".")[0...1].joined(separator: ".") + ".AAAA"
            let refused: [[(String, String)]] = [
                [("id_token_hint", forged), ("post_logout_redirect_uri", back.absoluteString), ("state", "s")],
                [("id_token_hint", idToken), ("client_id", BackEnd.publicClientID), ("post_logout_redirect_uri", back.absoluteString)],
                [("post_logout_redirect_uri", back.absoluteString), ("state", "s")],
            ]
            for parameters in refused {
                await #expect(throws: HeadlessBrowser.UnexpectedPage.self) {
                    _ = try await browser.authorize(url: request(parameters), redirectURI: back)
                }
            }
            #expect(await e2e.backEnd.counters().endedSessions == 0)
            #expect(try await Self.accepts(e2e, accessToken: credential.accessToken))

            let returned = try await browser.authorize(
                url: request([
                    ("id_token_hint", idToken), ("client_id", BackEnd.clientID),
                    ("post_logout_redirect_uri", back.absoluteString), ("state", "a/b+c"),
                ]),
                redirectURI: back)
            #expect(queryParameters(of: returned)["state"] == "a/b+c")
            #expect(await e2e.backEnd.counters().endedSessions == 1)
            // The sign-in ended at the server: its access token no longer works, though the app never revoked it.
            #expect(try await !Self.accepts(e2e, accessToken: credential.accessToken))
        }
    }
}
