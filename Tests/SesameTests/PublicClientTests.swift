import Foundation
import HTTPTypes
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// A public client (`clientAuthentication: none`) names itself with `client_id` in the body
/// of every OAuth request that RFC 6749, RFC 7009 and RFC 8628 require it in, and never
/// sends a secret, even when the configuration holds one.
@Suite struct PublicClientTests {
    let transport = TwoServerTransport()
    let clock = ManualClock()

    init() async {
        await transport.backEnd.set { $0.publicClientID = "app" }
    }

    func service(browser: (any Browser)? = nil) -> AuthenticationService<PublicClientSchema> {
        let clock = self.clock
        let transport = self.transport
        return AuthenticationService(
            configuration: .init(
                // The secret is there to show that `none` never sends it.
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                now: { clock.now }, receivesServerEvents: false, browser: browser))
    }

    /// A browser that signs in on the fake authorization server.
    var browser: ScriptedBrowser {
        let transport = self.transport
        return ScriptedBrowser { url in
            let query = queryParameters(of: url)
            guard let challenge = query["code_challenge"], let state = query["state"] else { return nil }
            let code = await transport.issueCode(challenge: challenge)
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(state)")
        }
    }

    private static func isPublic(_ sent: RoutingTransport.Sent) -> Bool {
        sent.authorization == nil && formFields(sent.body)["client_id"] == "app" && !sent.body.contains("s3cr3t")
            && formFields(sent.body)["client_secret"] == nil
    }

    @Test func theCodeExchangeRefreshAndRevocationNameThePublicClient() async throws {
        let service = service(browser: browser)
        let details = try await service.authenticate(with: PublicClientSchema.method)
        #expect(details.uid == "u3")
        clock.advance(by: 3600)
        _ = try await service.perform(OperationRequest(TestRequests.notes))
        #expect(await service.unauthenticate() == .revoked)
        let sent = await transport.sent.filter { $0.url.hasPrefix("https://idp.test/") }
        #expect(sent.map(\.path) == ["/oauth/token", "/oauth/token", "/oauth/revoke"])
        #expect(sent.map { formFields($0.body)["grant_type"] } == ["authorization_code", "refresh_token", nil])
        for request in sent {
            #expect(Self.isPublic(request), "\(request.path): \(request.body)")
        }
        // The API never sees the client's identity.
        #expect(await transport.sent.filter { $0.url.hasPrefix("https://auth.test/") }.allSatisfy { !$0.body.contains("client_id") })
    }

    @Test func eachModeNamesTheClientWhereItShould() throws {
        let client = ClientCredentials(clientID: "app", clientSecret: "s3cr3t")
        let fields = [TemplateField("grant_type", .literal(.string("refresh_token")))]
        func body(_ mode: ClientAuthentication, _ naming: RequestFactory.ClientNaming, fields: [TemplateField] = fields) throws -> [String]
        {
            let request = RequestDescription(
                name: "token", method: .post, path: "/t", authenticated: false, encoding: .form, clientAuthentication: mode)
            let body = try RequestFactory.body(fields: fields, for: request, client: client, naming: naming) { _ in nil }
            guard case .form(let form) = body else { return [] }
            return form.map { "\($0.name)=\($0.value)" }
        }
        #expect(try body(.none, .onlyWithPost) == ["grant_type=refresh_token"])
        #expect(try body(.none, .publicClientToo) == ["grant_type=refresh_token", "client_id=app"])
        #expect(try body(.none, .always) == ["grant_type=refresh_token", "client_id=app"])
        #expect(try body(.basic, .publicClientToo) == ["grant_type=refresh_token"])
        #expect(try body(.basic, .always) == ["grant_type=refresh_token", "client_id=app"])
        #expect(try body(.post, .onlyWithPost) == ["grant_type=refresh_token", "client_id=app", "client_secret=s3cr3t"])
        // A body that names the client itself is not given a second `client_id`.
        let named = fields + [TemplateField("client_id", .literal(.string("other")))]
        #expect(try body(.none, .publicClientToo, fields: named) == ["grant_type=refresh_token", "client_id=other"])
    }

    /// `ClientCredentials(clientID:)` without a secret is a public client whatever mode the
    /// schema declares: no `Authorization: Basic id:` with an empty password, but `client_id`
    /// in the body, so one schema serves an app (public) and a server-side client
    /// (confidential), as AppAuth and Auth0.swift do.
    @Test func aClientWithoutASecretIsPublicWhateverTheSchemaDeclares() throws {
        let publicClient = ClientCredentials(clientID: "app")
        let fields = [TemplateField("grant_type", .literal(.string("refresh_token")))]
        func request(_ mode: ClientAuthentication) -> RequestDescription {
            RequestDescription(
                name: "token", method: .post, path: "/t", authenticated: false, encoding: .form, clientAuthentication: mode)
        }
        for naming in [RequestFactory.ClientNaming.onlyWithPost, .publicClientToo, .always] {
            for mode in [ClientAuthentication.basic, .post] {
                let body = try RequestFactory.body(fields: fields, for: request(mode), client: publicClient, naming: naming) { _ in nil }
                #expect(
                    body == .form([FormField(name: "grant_type", value: "refresh_token"), FormField(name: "client_id", value: "app")]),
                    "\(mode) \(naming)")
                let prepared = try RequestFactory.make(
                    OperationRequest(request(mode), body: body), client: publicClient)
                #expect(prepared.request.headerFields[.authorization] == nil, "\(mode) \(naming)")
                #expect(prepared.body.map { String(decoding: $0, as: UTF8.self) } == "grant_type=refresh_token&client_id=app")
            }
        }
        // An operation's own form body under `basic` gets the public client's `client_id` too.
        let operation = OperationRequest(request(.basic), body: .form([FormField(name: "token", value: "t")]))
        let prepared = try RequestFactory.make(operation, client: publicClient)
        #expect(prepared.request.headerFields[.authorization] == nil)
        #expect(prepared.body.map { String(decoding: $0, as: UTF8.self) } == "token=t&client_id=app")
        // With a secret, `basic` is still the header and nothing in the body.
        let confidential = try RequestFactory.make(operation, client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"))
        #expect(confidential.request.headerFields[.authorization]?.hasPrefix("Basic ") == true)
        #expect(confidential.body.map { String(decoding: $0, as: UTF8.self) } == "token=t")
    }

    @Test func withoutAClientInTheConfigurationNothingIsAdded() throws {
        let request = RequestDescription(
            name: "token", method: .post, path: "/t", authenticated: false, encoding: .form, clientAuthentication: .none)
        let body = try RequestFactory.body(
            fields: [TemplateField("grant_type", .literal(.string("refresh_token")))], for: request, client: nil,
            naming: .publicClientToo
        ) { _ in nil }
        #expect(body == .form([FormField(name: "grant_type", value: "refresh_token")]))
    }
}
