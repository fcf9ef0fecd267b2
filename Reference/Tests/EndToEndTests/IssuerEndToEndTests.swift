import Foundation
import ReferenceSDK
import ReferenceServer
import SesameTestSupport
import Testing

/// RFC 9207 against the reference server, whose authorization endpoint puts its issuer in
/// `iss` (or another server's, or none, as its control API says): the runtime accepts its
/// own issuer and refuses the others before the code is exchanged, which the server's
/// request log shows (no `POST /oauth/token`).
@Suite("Issuer checks (RFC 9207), end to end", .secretScan)
struct IssuerEndToEndTests {
    static var alice: HeadlessBrowser { HeadlessBrowser(username: "alice", password: "wonderland") }

    /// The issuer the reference server sends, declared as sending it in every response.
    static func declared(_ e2e: EndToEnd, sent: Bool = true) -> AuthorizationServerIssuer {
        AuthorizationServerIssuer(issuer: e2e.backEnd.issuer, sentInResponses: sent)
    }

    static func tokenRequests(_ e2e: EndToEnd) async -> Int {
        await e2e.backEnd.requestLog().filter { $0.path == "/oauth/token" }.count
    }

    @Test("the server's own issuer is accepted and its code exchanged")
    func rightIssuer() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let service = e2e.makeService(browser: Self.alice, issuer: Self.declared(e2e))
            let details = try await service.authenticate(with: SingleStepMethod.oauth2())
            #expect(await service.state == .authenticated(details))
            #expect(await Self.tokenRequests(e2e) == 1)
        }
    }

    @Test("another server's issuer is refused and the code never exchanged")
    func wrongIssuer() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            await e2e.backEnd.setIssuerMode(.wrong)
            let service = e2e.makeService(browser: Self.alice, issuer: Self.declared(e2e))
            let guest = try await e2e.signInAsGuest(service)
            await #expect(throws: BrowserSignInError.issuerMismatch(expected: e2e.backEnd.issuer, received: IssuerMode.wrongIssuer)) {
                try await service.authenticate(with: SingleStepMethod.oauth2())
            }
            #expect(await service.state == .authenticated(guest))
            #expect(await Self.tokenRequests(e2e) == 0)
            #expect(await e2e.backEnd.counters().tokenGrants["authorization_code"] == nil)
        }
    }

    @Test("a missing issuer is refused when the server is declared to send one, accepted otherwise")
    func missingIssuer() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            await e2e.backEnd.setIssuerMode(.missing)
            let strict = e2e.makeService(browser: Self.alice, issuer: Self.declared(e2e))
            await #expect(throws: BrowserSignInError.issuerMismatch(expected: e2e.backEnd.issuer, received: nil)) {
                try await strict.authenticate(with: SingleStepMethod.oauth2())
            }
            #expect(await strict.state == .unauthenticated)
            #expect(await Self.tokenRequests(e2e) == 0)
            // A server not declared to send iss may leave it out.
            let lenient = e2e.makeService(browser: Self.alice, issuer: Self.declared(e2e, sent: false))
            _ = try await lenient.authenticate(with: SingleStepMethod.oauth2())
            #expect(await Self.tokenRequests(e2e) == 1)
        }
    }

    @Test("a denial with another server's issuer is an issuer mismatch, not the denial")
    func wrongIssuerOnAnError() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            await e2e.backEnd.setIssuerMode(.wrong)
            let service = e2e.makeService(
                browser: HeadlessBrowser(username: "alice", password: "wonderland", action: .deny), issuer: Self.declared(e2e))
            await #expect(throws: BrowserSignInError.issuerMismatch(expected: e2e.backEnd.issuer, received: IssuerMode.wrongIssuer)) {
                try await service.authenticate(with: SingleStepMethod.oauth2())
            }
            #expect(await Self.tokenRequests(e2e) == 0)
        }
    }
}
