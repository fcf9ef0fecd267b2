import Foundation
import HTTPTypes
import ReferenceServer
import SesameDPoP
import Testing

/// Pushed authorization requests (RFC 9126): `POST /oauth/par`, then the authorization
/// endpoint with `client_id` and `request_uri` only.
@Suite struct PushedAuthorizationTests {
    static let pushed = Harness.authorizationQuery(scope: "profile")

    /// Pushes `form` as the demo client and returns the `request_uri`.
    static func push(_ h: Harness, _ form: String = pushed) async throws -> String {
        let result = try await h.postForm("/oauth/par", form)
        #expect(result.status == .created)
        return try #require(try result.object()["request_uri"] as? String)
    }

    @Test func aPushAnswersARequestURIAndItsLifetime() async throws {
        try await Harness.run(configure: { $0.pushedAuthorization.lifetime = .seconds(90) }) { h in
            let result = try await h.postForm("/oauth/par", Self.pushed)
            #expect(result.status == .created)
            #expect(result.headers[.cacheControl] == "no-store")
            let body = try result.object()
            #expect((body["request_uri"] as? String)?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
            #expect(body["expires_in"] as? Int == 90)
        }
    }

    @Test func aPushNeedsClientAuthentication() async throws {
        try await Harness.run { h in
            let result = try await h.postForm("/oauth/par", Self.pushed, basic: ("sesame-demo", "wrong"))
            #expect(result.status == .unauthorized)
            #expect(try result.errorCode() == "invalid_client")
        }
    }

    @Test func anInvalidPushIsRefusedBeforeAnyPage() async throws {
        try await Harness.run { h in
            let noPKCE = try await h.postForm("/oauth/par", Harness.authorizationQuery(challenge: nil))
            #expect(noPKCE.status == .badRequest)
            #expect(try noPKCE.errorCode() == "invalid_request")
            let strangeRedirect = try await h.postForm("/oauth/par", Harness.authorizationQuery(redirectURI: "https://evil.example/cb"))
            #expect(try strangeRedirect.errorCode() == "invalid_request")
            let nested = try await h.postForm("/oauth/par", Self.pushed + "&request_uri=urn%3Ax")
            #expect(try nested.errorCode() == "invalid_request")
        }
    }

    @Test func theLoginPageOfAPushedRequestCarriesOnlyItsReferenceAndSignsIn() async throws {
        try await Harness.run { h in
            let requestURI = try await Self.push(h)
            let page = try await h.authorizationPage("client_id=sesame-demo&request_uri=\(Harness.formEncode(requestURI))")
            #expect(page.status == .ok)
            let fields = try LoginForm.hiddenFields(of: page.body)
            #expect(fields.map(\.0) == ["client_id", "request_uri"])
            let redirect = try await h.submitLoginPage(page)
            let code = try #require(redirect.redirectParameters?["code"])
            #expect(redirect.redirectParameters?["state"] == "xyz", "the pushed state comes back")
            #expect(try await h.exchange(code: code).status == .ok)
        }
    }

    @Test func aRequestURIOpensOnce() async throws {
        try await Harness.run { h in
            let requestURI = try await Self.push(h)
            let query = "client_id=sesame-demo&request_uri=\(Harness.formEncode(requestURI))"
            #expect(try await h.authorizationPage(query).status == .ok)
            #expect(try await h.authorizationPage(query).status == .badRequest)
        }
    }

    @Test func aRequestURIIsUsedUpByTheDecision() async throws {
        try await Harness.run { h in
            let requestURI = try await Self.push(h)
            let page = try await h.authorizationPage("client_id=sesame-demo&request_uri=\(Harness.formEncode(requestURI))")
            #expect(try await h.submitLoginPage(page).redirectParameters?["code"] != nil)
            #expect(try await h.submitLoginPage(page).status == .badRequest, "the same form again")
        }
    }

    @Test func anExpiredRequestURIIsRefused() async throws {
        try await Harness.run { h in
            let requestURI = try await Self.push(h)
            await h.state.advanceClock(by: .seconds(61))
            let page = try await h.authorizationPage("client_id=sesame-demo&request_uri=\(Harness.formEncode(requestURI))")
            #expect(page.status == .badRequest)
        }
    }

    @Test func anotherClientsRequestURIIsRefused() async throws {
        try await Harness.run { h in
            let requestURI = try await Self.push(h)
            let page = try await h.authorizationPage("client_id=sesame-demo-app&request_uri=\(Harness.formEncode(requestURI))")
            #expect(page.status == .badRequest)
        }
    }

    @Test func whenRequiredOnlyPushedRequestsAreAccepted() async throws {
        try await Harness.run(configure: { $0.pushedAuthorization.required = true }) { h in
            #expect(try await h.authorizationPage().status == .badRequest)
            let requestURI = try await Self.push(h)
            #expect(try await h.authorizationPage("client_id=sesame-demo&request_uri=\(Harness.formEncode(requestURI))").status == .ok)
            let metadata = try await h.send(.get, "/.well-known/oauth-authorization-server", on: .authorization).object()
            #expect(metadata["require_pushed_authorization_requests"] as? Bool == true)
        }
    }

    @Test func theMetadataNamesTheEndpoint() async throws {
        try await Harness.run { h in
            let metadata = try await h.send(.get, "/.well-known/oauth-authorization-server", on: .authorization).object()
            #expect(
                metadata["pushed_authorization_request_endpoint"] as? String == h.endpoint.authorizationBaseURL.absoluteString
                    + "/oauth/par")
            #expect(metadata["require_pushed_authorization_requests"] == nil)
        }
    }

    @Test func aPushWithAProofBindsTheCodeToItsKey() async throws {
        try await Harness.runDPoP { h in
            let maker = h.proofs
            let nonce = await h.state.currentDPoPNonce()
            let push = try await h.dpopPostForm(
                "/oauth/par", Self.pushed, proof: try await maker.proof(.post, h.url("/oauth/par", on: .authorization), nonce: nonce))
            let requestURI = try #require(try push.object()["request_uri"] as? String)
            let page = try await h.authorizationPage("client_id=sesame-demo&request_uri=\(Harness.formEncode(requestURI))")
            let code = try #require(try await h.submitLoginPage(page).redirectParameters?["code"])
            let form =
                "grant_type=authorization_code&code=\(Harness.formEncode(code))&redirect_uri=\(Harness.formEncode(Harness.redirectURI))"
                + "&code_verifier=\(Harness.appendixBVerifier)"
            let token = h.url("/oauth/token", on: .authorization)
            let other = try await h.dpopTokenRequest(form, proof: try await h.proofs.proof(.post, token, nonce: nonce))
            #expect(try other.errorCode() == "invalid_grant")
            #expect(try other.object()["error_description"] as? String == "The authorization code is bound to another DPoP key.")
        }
    }
}
