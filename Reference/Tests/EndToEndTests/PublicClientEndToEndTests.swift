import Foundation
@_spi(Generated) import ReferenceSDK
import SesameTestSupport
import Testing
@_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

/// The reference SDK's schema as a public client declares it: its browser step's token
/// request, its refresh and its revocation say `clientAuthentication: none` (Schema/ declares
/// `basic` for the demo's confidential client).
enum PublicClientReferenceSchema: SDKSchema {
    typealias Details = AuthenticationDetails
    typealias ServerError = ReferenceSDKError
    typealias Event = ReferenceSDKEvent

    static var description: SDKDescription {
        var description = ReferenceSDKSchema.description
        description.credential.refresh?.request.clientAuthentication = .none
        description.lifecycle.revocation?.request.clientAuthentication = .none
        return description
    }
    static func userID(of details: AuthenticationDetails) -> String { ReferenceSDKSchema.userID(of: details) }
    static func serverError(_ response: ServerErrorResponse) -> ReferenceSDKError { ReferenceSDKSchema.serverError(response) }
}

/// `SingleStepMethod.oauth2()` with its token request of a public client.
struct PublicOAuth2: SingleStepAuthenticationMethod {
    var methodDescription: AuthenticationMethodDescription {
        var method = SingleStepMethod.oauth2().methodDescription
        for index in method.steps.indices { method.steps[index].request.clientAuthentication = .none }
        return method
    }
    var arguments: [String: JSONValue] { SingleStepMethod.oauth2().arguments }
    var description: String { "publicOAuth2" }
}

/// A public client signs in in a browser, refreshes and signs out against the reference
/// server, which knows it without a secret: every token and revocation request names it with
/// `client_id` alone, which the server accepts, and none carries client authentication.
@Suite("A public client, end to end", .secretScan)
struct PublicClientEndToEndTests {
    @Test("a public client's browser sign-in, refresh and revocation")
    func signInRefreshAndRevocation() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let clock = e2e.clock
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = AuthenticationService<PublicClientReferenceSchema>(
                configuration: .init(
                    baseURL: e2e.backEnd.baseURL, client: ClientCredentials(clientID: BackEnd.publicClientID),
                    now: { clock.now }, sessionStore: store, receivesServerEvents: false,
                    authorizationServerURL: e2e.backEnd.authorizationBaseURL,
                    browser: HeadlessBrowser(username: "alice", password: "wonderland"),
                    authorizationServerIssuer: e2e.backEnd.declaredIssuer))
            let details = try await service.authenticate(with: PublicOAuth2())
            #expect(await service.state == .authenticated(details))
            let before = try #require(try store.load()?.credential)
            await e2e.advanceTime(by: 3600)
            _ = try await service.perform(OperationRequest(ReferenceSDKSchema.Requests.listNotes))
            let after = try #require(try store.load()?.credential)
            #expect(after.accessToken != before.accessToken)
            #expect(await service.unauthenticate() == .revoked)

            let log = await e2e.backEnd.requestLog().filter { $0.listener == .authorization && $0.method == "POST" }
            #expect(log.map(\.path) == ["/oauth/authorize", "/oauth/token", "/oauth/token", "/oauth/revoke"])
            // A bare client_id is not client authentication: no Basic header, no secret.
            #expect(log.allSatisfy { !$0.clientAuthentication })
            let counters = await e2e.backEnd.counters()
            #expect(counters.tokenGrants["authorization_code"] == 1)
            #expect(counters.refreshes == 1)
        }
    }
}
