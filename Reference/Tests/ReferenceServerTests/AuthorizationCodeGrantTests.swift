import Foundation
import HTTPTypes
import Testing

@testable import ReferenceServer

/// `grant_type=authorization_code` (RFC 6749 §4.1.3) with PKCE S256 (RFC 7636 §4.6).
@Suite struct AuthorizationCodeGrantTests {
    @Test func s256ChallengeIsRFC7636AppendixBsExample() {
        #expect(PKCE.s256Challenge(of: Harness.appendixBVerifier) == Harness.appendixBChallenge)
        #expect(PKCE.verifier(Harness.appendixBVerifier, matches: Harness.appendixBChallenge))
        #expect(!PKCE.verifier(Harness.appendixBVerifier + "x", matches: Harness.appendixBChallenge))
    }

    @Test func appendixBVerifierRedeemsACodeForItsChallengeOverHTTP() async throws {
        try await Harness.run { h in
            let code = try await h.authorizationCode(Harness.authorizationQuery(scope: "profile notes"))
            let result = try await h.exchange(code: code)
            #expect(result.status == .ok)
            #expect(result.headers[.cacheControl] == "no-store")
            let body = try result.object()
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["scope"] as? String == "profile notes")
            let tokens = try Harness.tokens(from: result)
            let me = try await h.sendAuthorized(.get, "/me", token: tokens.access).object()
            #expect(me["uid"] as? String == "pw-alice")
            #expect(me["provider"] as? String == "password")
            #expect(me["providerUID"] as? String == "alice")
            #expect(try await h.refresh(tokens.refresh).status == .ok)
            #expect(await h.state.counters().tokenGrants["authorization_code"] == 1)
            #expect(await h.state.issuedSecrets().contains(IssuedSecret(kind: .codeVerifier, value: Harness.appendixBVerifier)))
        }
    }

    @Test func wrongVerifierIsInvalidGrantAndUsesTheCode() async throws {
        try await Harness.run { h in
            let code = try await h.authorizationCode()
            let wrong = try await h.exchange(code: code, verifier: String(repeating: "a", count: 43))
            #expect(wrong.status == .badRequest)
            #expect(try wrong.errorCode() == "invalid_grant")
            #expect(await h.state.issuedSecrets().filter { $0.kind == .codeVerifier }.isEmpty)
            // Single use: even the right verifier cannot redeem it now.
            #expect(try await h.exchange(code: code).errorCode() == "invalid_grant")
        }
    }

    @Test(arguments: ["short", String(repeating: "a", count: 129), "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjX!"])
    func malformedVerifierIsInvalidGrant(verifier: String) async throws {
        try await Harness.run { h in
            let result = try await h.exchange(code: try await h.authorizationCode(), verifier: verifier)
            #expect(try result.errorCode() == "invalid_grant")
        }
    }

    @Test func missingParametersAreInvalidRequestAndLeaveTheCodeUsable() async throws {
        try await Harness.run { h in
            let code = try await h.authorizationCode()
            let noVerifier = try await h.exchange(code: code, verifier: nil)
            #expect(noVerifier.status == .badRequest)
            #expect(try noVerifier.errorCode() == "invalid_request")
            #expect(try await h.exchange(code: code, redirectURI: nil).errorCode() == "invalid_request")
            #expect(
                try await h.tokenRequest("grant_type=authorization_code&code_verifier=\(Harness.appendixBVerifier)").errorCode()
                    == "invalid_request")
            #expect(try await h.exchange(code: code).status == .ok)
        }
    }

    @Test func reusedCodeIsInvalidGrantAndRevokesTheTokensIssuedFromIt() async throws {
        try await Harness.run { h in
            let code = try await h.authorizationCode()
            let first = try Harness.tokens(from: try await h.exchange(code: code))
            let refreshed = try Harness.tokens(from: try await h.refresh(first.refresh))
            let other = try await h.password("bob", "builder")

            let again = try await h.exchange(code: code)
            #expect(again.status == .badRequest)
            #expect(try again.errorCode() == "invalid_grant")
            // Every token of that grant dies, refreshed ones included; other sessions live.
            for access in [first.access, refreshed.access] {
                #expect(try await h.sendAuthorized(.get, "/me", token: access).status == .unauthorized)
            }
            #expect(try await h.refresh(refreshed.refresh).errorCode() == "invalid_grant")
            #expect(try await h.uid(other.access) == "pw-bob")
        }
    }

    @Test func expiredCodeIsInvalidGrant() async throws {
        try await Harness.run { h in
            let code = try await h.authorizationCode()
            h.clock.advance(by: 60)
            #expect(try await h.exchange(code: code).errorCode() == "invalid_grant")
            let fresh = try await h.authorizationCode()
            h.clock.advance(by: 59)
            #expect(try await h.exchange(code: fresh).status == .ok)
        }
    }

    @Test func redirectURIMustBeTheAuthorizationRequests() async throws {
        let client = ReferenceServer.Client(
            id: "sesame-demo", secret: "demo-secret", redirectURIs: [Harness.redirectURI, "sesame-demo://other"])
        try await Harness.run(configure: { $0.clients = [client] }) { h in
            let code = try await h.authorizationCode()
            let result = try await h.exchange(code: code, redirectURI: "sesame-demo://other")
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_grant")
        }
    }

    @Test func codeOfAnotherClientIsInvalidGrantAndStaysUsable() async throws {
        let clients = [
            ReferenceServer.Client.demo, ReferenceServer.Client(id: "other", secret: "other-secret", redirectURIs: [Harness.redirectURI]),
        ]
        try await Harness.run(configure: { $0.clients = clients }) { h in
            let code = try await h.authorizationCode()
            #expect(try await h.exchange(code: code, basic: ("other", "other-secret")).errorCode() == "invalid_grant")
            #expect(try await h.exchange(code: code).status == .ok)
        }
    }

    @Test func clientAuthenticationIsCheckedAsForOtherGrants() async throws {
        try await Harness.run { h in
            let code = try await h.authorizationCode()
            let unauthenticated = try await h.exchange(code: code, basic: nil, extra: "&client_id=sesame-demo")
            #expect(unauthenticated.status == .unauthorized)
            #expect(try unauthenticated.errorCode() == "invalid_client")
            let inBody = try await h.exchange(code: code, basic: nil, extra: "&client_id=sesame-demo&client_secret=demo-secret")
            #expect(inBody.status == .ok)
        }
    }

    @Test func publicClientSendsOnlyItsIDWithTheVerifier() async throws {
        let mobile = ReferenceServer.Client(id: "mobile", secret: nil, redirectURIs: ["com.example.mobile:/oauth"])
        try await Harness.run(configure: { $0.clients = [mobile] }) { h in
            let code = try await h.authorizationCode(
                Harness.authorizationQuery(clientID: "mobile", redirectURI: "com.example.mobile:/oauth"))
            let result = try await h.exchange(code: code, redirectURI: "com.example.mobile:/oauth", basic: nil, extra: "&client_id=mobile")
            #expect(result.status == .ok)
            #expect(try await h.uid(try Harness.tokens(from: result).access) == "pw-alice")
        }
    }

    @Test func codesWorkAcrossTwoOrigins() async throws {
        try await Harness.run(configure: TwoOriginsTests.separate) { h in
            let tokens = try Harness.tokens(from: try await h.exchange(code: try await h.authorizationCode()))
            #expect(try await h.uid(tokens.access) == "pw-alice")
            let log = await h.state.requestLog()
            #expect(log.map(\.listener) == [.authorization, .authorization, .authorization, .api])
            #expect(log.map(\.path) == ["/oauth/authorize", "/oauth/authorize", "/oauth/token", "/me"])
            #expect(log.filter { $0.listener == .api }.allSatisfy { !$0.clientAuthentication })
            #expect(log.filter { $0.listener == .authorization }.allSatisfy { !$0.bearer })
        }
    }
}
