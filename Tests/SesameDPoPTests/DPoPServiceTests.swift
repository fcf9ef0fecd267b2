import Crypto
import Foundation
import HTTPTypes
import Testing
@_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription
import SesameDPoP
import SesameTestSupport

/// A schema whose credential is DPoP-bound (`credential.dpop`), as the generator writes it.
enum DPoPSchema: SDKSchema {
    struct Profile: Codable, Hashable, Sendable { var sub: String }
    struct ServerError: Error, Hashable, Sendable { var response: ServerErrorResponse }
    enum Event: ServerEvent {
        case unknown(wireName: String, data: Data)
        init(wireName: String, data: Data) { self = .unknown(wireName: wireName, data: data) }
        var wireName: String {
            switch self {
            case .unknown(let name, _): name
            }
        }
    }
    typealias Details = Profile

    static let token = RequestDescription(
        name: "token", method: .post, path: "/token", authenticated: false, encoding: .form, server: .authorization)
    static let notes = RequestDescription(name: "notes", method: .get, path: "/notes")
    static let password = AuthenticationMethodDescription(
        name: "password",
        steps: [
            AuthenticationStepDescription(
                name: "password", request: token,
                body: [
                    TemplateField("grant_type", .literal(.string("password"))),
                    TemplateField("username", .variable(.parameter("username"))),
                    TemplateField("password", .variable(.parameter("password"))),
                ])
        ])

    static var description: SDKDescription {
        SDKDescription(
            name: "DPoPSDK", baseURL: DPoPServer.baseURL,
            credential: CredentialDescription(
                accessTokenField: "access_token", refreshTokenField: "refresh_token", expiresInField: "expires_in",
                binding: .dpop(DPoPBinding(algorithms: ["ES256"])),
                refresh: RefreshDescription(
                    request: token,
                    fields: [
                        TemplateField("grant_type", .literal(.string("refresh_token"))),
                        TemplateField("refresh_token", .variable(.refreshToken)),
                    ], leeway: .seconds(60), maxRefreshes: 5, window: .seconds(30)),
                rejection: RejectionRule(status: 401, wwwAuthenticateError: "invalid_token"),
                details: RequestDescription(name: "me", method: .get, path: "/me"), userIDField: "sub"),
            errors: ErrorCatalogue(codeField: "error", codes: ["invalid_grant": .credentialRejected]),
            events: EventCatalogue(invalidating: []),
            lifecycle: LifecycleDescription(signOut: RequestDescription(name: "logout", method: .post, path: "/logout")))
    }
    static func userID(of details: Profile) -> String { details.sub }
    static func serverError(_ response: ServerErrorResponse) -> ServerError { ServerError(response: response) }
}

struct DPoPPassword: SingleStepAuthenticationMethod {
    var methodDescription: AuthenticationMethodDescription { DPoPSchema.password }
    var arguments: [String: JSONValue] { ["username": .string("ada"), "password": .string("secret")] }
    var description: String { "password" }
}

/// The service against a server that issues DPoP-bound tokens: every request proves the key,
/// the server's nonces are answered with one retry, and sign-out replaces the key.
@Suite struct DPoPServiceTests {
    let server = DPoPServer()
    let dpop = DPoP()

    func service(proofOfPossession: (any ProofOfPossession)?) -> AuthenticationService<DPoPSchema> {
        AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app"), transport: server, receivesServerEvents: false,
                proofOfPossession: proofOfPossession))
    }

    @Test func everyRequestProvesTheOneKeyItsTokensAreBoundTo() async throws {
        let service = service(proofOfPossession: dpop)
        _ = try await service.authenticate(with: DPoPPassword())
        _ = try await service.perform(OperationRequest(DPoPSchema.notes))
        let received = await server.received
        let thumbprint = try await dpop.thumbprint()
        // The token request, asked for the server's nonce, then again with it; /me and /notes.
        #expect(received.map { "\($0.path) \($0.status)" } == ["/token 400", "/token 200", "/me 200", "/notes 200"])
        #expect(received.allSatisfy { $0.proof != nil }, "every request carries a proof that verifies")
        #expect(Set(received.compactMap { $0.proof.map { "\($0.x).\($0.y)" } }).count == 1)
        #expect(received[0].proof?.nonce == nil)
        #expect(received[1].proof?.nonce == "n-1")
        #expect(received[1].proof?.ath == nil, "a token request presents no access token")
        #expect(received[3].authorization == "DPoP at-1")
        #expect(received[3].proof?.ath != nil)
        #expect(received[3].proof?.htu == "https://dpop.test/notes")
        #expect(thumbprint == DPoPPublicJWK.thumbprintOf(received[3].proof!))
    }

    @Test func aResourcesNonceIsAnsweredOnceAndIsNoRefresh() async throws {
        let service = service(proofOfPossession: dpop)
        _ = try await service.authenticate(with: DPoPPassword())
        await server.set { $0.nonce = "n-2" }
        _ = try await service.perform(OperationRequest(DPoPSchema.notes))
        let notes = await server.received.filter { $0.path == "/notes" }
        #expect(notes.map(\.status) == [401, 200])
        #expect(notes.map { $0.proof?.nonce } == ["n-1", "n-2"])
        #expect(await server.count("/token") == 2, "no refresh: the sign-in's two token requests only")
    }

    @Test func anExpiredTokenIsRefreshedWithAProofOfTheSameKey() async throws {
        let service = service(proofOfPossession: dpop)
        _ = try await service.authenticate(with: DPoPPassword())
        await server.expireAccessTokens()
        _ = try await service.perform(OperationRequest(DPoPSchema.notes))
        let received = await server.received
        #expect(received.suffix(3).map { "\($0.path) \($0.status)" } == ["/notes 401", "/token 200", "/notes 200"])
        #expect(received.last?.authorization == "DPoP at-2")
    }

    @Test func aServerThatNeverAcceptsANonceGetsOneRetryAndATypedError() async throws {
        let service = service(proofOfPossession: dpop)
        await server.set { $0.rotatesEveryTime = true }
        await #expect(throws: DPoPSchema.ServerError.self) { _ = try await service.authenticate(with: DPoPPassword()) }
        #expect(await server.count("/token") == 2)
        #expect(await service.state == .unauthenticated)
    }

    @Test func signingOutReplacesTheKey() async throws {
        let service = service(proofOfPossession: dpop)
        _ = try await service.authenticate(with: DPoPPassword())
        let first = try await dpop.thumbprint()
        _ = await service.unauthenticate()
        #expect(await poll { (try? await dpop.thumbprint()) != first })
        _ = try await service.authenticate(with: DPoPPassword())
        let proofs = await server.received.compactMap(\.proof)
        #expect(DPoPPublicJWK.thumbprintOf(try #require(proofs.last)) != first)
    }

    @Test func aSignInRightAfterSignOutSignsWithTheNewKey() async throws {
        // The replacement takes a while: the sign-in that follows at once must wait for it.
        let slow = SlowKeyReplacement(dpop)
        let service = service(proofOfPossession: slow)
        _ = try await service.authenticate(with: DPoPPassword())
        let first = try await dpop.thumbprint()
        _ = await service.unauthenticate()
        _ = try await service.authenticate(with: DPoPPassword())
        let received = await server.received
        let signOut = try #require(received.firstIndex { $0.path == "/logout" })
        // The ending session's logout proves the key its token is bound to, not the next one.
        #expect(received[signOut].proof.map(DPoPPublicJWK.thumbprintOf) == first)
        #expect(received[signOut].status == 204)
        let secondSignIn = received[(signOut + 1)...].filter { $0.path == "/token" }
        #expect(!secondSignIn.isEmpty)
        #expect(secondSignIn.allSatisfy { $0.proof.map(DPoPPublicJWK.thumbprintOf) != first })
        #expect(try await dpop.thumbprint() != first)
    }

    @Test func anOpenAPIClientsRequestsCarryProofsThroughTheCredentialMiddleware() async throws {
        let service = service(proofOfPossession: dpop)
        _ = try await service.authenticate(with: DPoPPassword())
        await server.set { $0.nonce = "n-2" }
        let middleware = service.credentialMiddleware
        let server = server
        let (response, _) = try await middleware.intercept(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/notes"), body: nil,
            baseURL: DPoPServer.baseURL, operationID: "listNotes"
        ) { request, body, baseURL in
            try await server.send(request, body: body, baseURL: baseURL, operationID: "listNotes")
        }
        #expect(response.status == .ok)
        let notes = await server.received.filter { $0.path == "/notes" }
        #expect(notes.map(\.status) == [401, 200], "the resource's nonce is answered once")
        #expect(notes.allSatisfy { $0.proof?.ath != nil && $0.authorization == "DPoP at-1" })
        #expect(notes.map { $0.proof?.nonce } == ["n-1", "n-2"])
        #expect(DPoPPublicJWK.thumbprintOf(try #require(notes.last?.proof)) == (try await dpop.thumbprint()))
    }

    @Test func anOpenAPIClientOfADPoPSchemaWithoutAProverSendsNothing() async throws {
        let service = service(proofOfPossession: nil)
        let server = server
        await #expect(throws: SesameError.self) {
            _ = try await service.credentialMiddleware.intercept(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/notes"), body: nil,
                baseURL: DPoPServer.baseURL, operationID: "listNotes"
            ) { request, body, baseURL in
                try await server.send(request, body: body, baseURL: baseURL, operationID: "listNotes")
            }
        }
        #expect(await server.received.isEmpty)
    }

    @Test func aDPoPSchemaWithoutAProverSendsNothing() async throws {
        let service = service(proofOfPossession: nil)
        await #expect(throws: SesameError.self) { _ = try await service.authenticate(with: DPoPPassword()) }
        #expect(await server.received.isEmpty)
    }

    @Test func theKeyStoresKeyIsUsedAndKeptAcrossServices() async throws {
        let store = InMemoryDPoPKeyStore()
        let key = DPoPKey()
        try await store.save(key)
        _ = try await service(proofOfPossession: DPoP(keyStore: store)).authenticate(with: DPoPPassword())
        let proof = try #require(await server.received.last?.proof)
        #expect(DPoPPublicJWK.thumbprintOf(proof) == key.thumbprint)
    }
}

/// A prover whose key replacement takes 200 ms, as a Keychain or Secure Enclave key may.
struct SlowKeyReplacement: ProofOfPossession {
    let prover: DPoP
    init(_ prover: DPoP) { self.prover = prover }
    func proof(method: HTTPRequest.Method, url: URL, accessToken: String?) async throws -> String {
        try await prover.proof(method: method, url: url, accessToken: accessToken)
    }
    func receive(_ response: HTTPResponse, body: Data?, from url: URL) async -> Bool {
        await prover.receive(response, body: body, from: url)
    }
    func replaceKey() async throws {
        try await Task.sleep(for: .milliseconds(200))
        try await prover.replaceKey()
    }
}

extension DPoPPublicJWK {
    /// The thumbprint of the key a verified proof carried.
    static func thumbprintOf(_ proof: DPoPServer.Proof) -> String {
        let json = #"{"crv":"P-256","kty":"EC","x":"\#(proof.x)","y":"\#(proof.y)"}"#
        return Data(SHA256.hash(data: Data(json.utf8))).base64URLEncoded
    }
}
