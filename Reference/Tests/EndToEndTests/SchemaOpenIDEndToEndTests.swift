import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReferenceSDK
import ReferenceServer
import Sesame
import SesameOpenID
import SesameTestSupport
import Testing

/// Schema/'s `openid` method, as generated, against the reference server: the SDK's own
/// validator (built from sdk.yaml's `openID`, with the issuer and the authorization server's
/// URL the configuration moves to the test server's port) checks the ID token over real
/// HTTP, and `idTokenClaims()` returns Schema/'s `OpenIDClaims`. No test here hands the
/// service a validator: ``OpenIDEndToEndTests`` covers the runtime with a hand-built one.
@Suite("Schema/'s openid method, end to end", .secretScan)
struct SchemaOpenIDEndToEndTests {
    static func alice() -> HeadlessBrowser { HeadlessBrowser(username: "alice", password: "wonderland") }

    @Test("the generated openid method signs in, validates the ID token against the JWKS, and types its claims")
    func signsInAndTypesTheClaims() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, browser: Self.alice())
            #expect(try await service.idTokenClaims() == nil)

            let details = try await service.authenticate(with: SingleStepMethod.openid())
            #expect(await service.state == .authenticated(details))
            // The generated validator fetched the server's keys, at sdk.yaml's path on the
            // authorization server the configuration moved.
            #expect(await OpenIDEndToEndTests.jwksRequests(e2e) == 1)
            let claims = try #require(try await service.idTokenClaims())
            #expect(claims.sub == details.uid)
            #expect(claims.iss == e2e.backEnd.issuer)
            #expect(claims.aud == BackEnd.clientID)
            #expect(claims.iat <= claims.exp)
            #expect(claims.authTime <= claims.iat)
            #expect(!claims.sid.isEmpty)
            #expect(try store.load()?.credential.idToken != nil)

            // A plain oauth2 sign-in holds no ID token: no claims.
            _ = await service.unauthenticate()
            #expect(try await service.idTokenClaims() == nil)
            _ = try await service.authenticate(with: SingleStepMethod.oauth2())
            #expect(await service.state.isAuthenticated)
            #expect(try await service.idTokenClaims() == nil)
        }
    }

    /// The control API's faults this suite makes, and the rejection each must cause.
    static let faults: [(fault: String, matches: @Sendable (IDTokenRejection) -> Bool)] = [
        ("aud", { $0 == .audience(received: ["another-client"]) }),
        ("signature", { $0 == .signature }),
        ("iss", { if case .issuer(_, let received) = $0 { received.hasSuffix("/not-this-issuer") } else { false } }),
    ]

    @Test("a bad ID token fails the generated openid sign-in with its rejection and changes nothing", arguments: 0..<3)
    func badTokenChangesNothing(index: Int) async throws {
        let (fault, matches) = Self.faults[index]
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, browser: Self.alice())
            let guest = try await e2e.signInAsGuest(service)
            let before = try #require(try store.load())
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"fault":"\#(fault)"}"#)
            let revocationsBefore = await e2e.backEnd.server.state.counters().revocations
            do {
                _ = try await service.authenticate(with: SingleStepMethod.openid())
                Issue.record("the \(fault) fault was accepted")
            } catch let rejection as IDTokenRejection {
                #expect(matches(rejection), "\(fault): \(rejection)")
            } catch {
                Issue.record("\(fault): not an IDTokenRejection: \(error)")
            }
            #expect(await service.state == .authenticated(guest))
            #expect(try store.load() == before)
            #expect(try await service.idTokenClaims() == nil)
            // The exchange's tokens were revoked, not left behind.
            #expect(await e2e.backEnd.server.state.counters().revocations > revocationsBefore)
        }
    }
}
