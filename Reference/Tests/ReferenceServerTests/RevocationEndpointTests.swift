import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// `POST /oauth/revoke` (RFC 7009).
@Suite struct RevocationEndpointTests {
    @Test func revokingARefreshTokenEndsItsSession() async throws {
        try await Harness.run { h in
            let tokens = try await h.password()
            let refreshed = try Harness.tokens(from: try await h.refresh(tokens.refresh))
            let other = try await h.password()
            let result = try await h.revoke(refreshed.refresh, hint: "refresh_token")
            #expect(result.status == .ok)
            #expect(result.body.isEmpty)
            #expect(try await h.refresh(refreshed.refresh).errorCode() == "invalid_grant")
            for access in [tokens.access, refreshed.access] {
                #expect(try await h.sendAuthorized(.get, "/me", token: access).status == .unauthorized)
            }
            // Another session of the same user lives on.
            #expect(try await h.uid(other.access) == "pw-alice")
            #expect(await h.state.counters().revocations == 1)
            #expect(await h.state.counters().requests("POST /oauth/revoke") == 1)
        }
    }

    @Test(arguments: [nil, "access_token", "refresh_token"])
    func revokingAnAccessTokenEndsThatTokenOnly(hint: String?) async throws {
        try await Harness.run { h in
            let tokens = try await h.password()
            #expect(try await h.revoke(tokens.access, hint: hint).status == .ok)
            #expect(try await h.sendAuthorized(.get, "/me", token: tokens.access).status == .unauthorized)
            let refreshed = try await h.refresh(tokens.refresh)
            #expect(refreshed.status == .ok)
        }
    }

    @Test func wrongHintStillFindsARefreshToken() async throws {
        try await Harness.run { h in
            let tokens = try await h.password()
            #expect(try await h.revoke(tokens.refresh, hint: "access_token").status == .ok)
            #expect(try await h.refresh(tokens.refresh).errorCode() == "invalid_grant")
        }
    }

    @Test func unknownOrAlreadyRevokedTokensAnswer200() async throws {
        try await Harness.run { h in
            #expect(try await h.revoke("not-a-token").status == .ok)
            let tokens = try await h.password()
            #expect(try await h.revoke(tokens.refresh).status == .ok)
            #expect(try await h.revoke(tokens.refresh).status == .ok)
            #expect(await h.state.counters().revocations == 2)
            #expect(try await h.revoke("whatever", hint: "something_else").status == .ok)
        }
    }

    @Test(arguments: [nil, ("sesame-demo", "wrong")] as [(String, String)?])
    func confidentialClientWithoutValidAuthenticationIsInvalidClient(basic: (String, String)?) async throws {
        try await Harness.run { h in
            let tokens = try await h.password()
            let result = try await h.revoke(tokens.refresh, basic: basic, extra: "&client_id=sesame-demo")
            #expect(result.status == .unauthorized)
            #expect(try result.errorCode() == "invalid_client")
            #expect(result.wwwAuthenticate == "Basic realm=\"sesame\"")
            #expect(try await h.refresh(tokens.refresh).status == .ok)
        }
    }

    @Test func clientMayAuthenticateInTheBody() async throws {
        try await Harness.run { h in
            let tokens = try await h.password()
            let result = try await h.revoke(tokens.refresh, basic: nil, extra: "&client_id=sesame-demo&client_secret=demo-secret")
            #expect(result.status == .ok)
            #expect(try await h.refresh(tokens.refresh).errorCode() == "invalid_grant")
        }
    }

    @Test func publicClientSendsOnlyItsID() async throws {
        try await Harness.run(configure: { $0.clients = [.init(id: "mobile", secret: nil)] }) { h in
            let tokens = try Harness.tokens(
                from: try await h.tokenRequest("grant_type=password&username=alice&password=wonderland&client_id=mobile", basic: nil))
            #expect(try await h.revoke(tokens.refresh, basic: nil, extra: "&client_id=mobile").status == .ok)
            #expect(
                try await h.tokenRequest("grant_type=refresh_token&refresh_token=\(tokens.refresh)&client_id=mobile", basic: nil).status
                    == .badRequest)
        }
    }

    @Test func tokenOfAnotherClientIsRefusedAndStaysValid() async throws {
        let clients = [ReferenceServer.Client.demo, ReferenceServer.Client(id: "other", secret: "other-secret")]
        try await Harness.run(configure: { $0.clients = clients }) { h in
            let tokens = try await h.password()
            let result = try await h.revoke(tokens.refresh, basic: ("other", "other-secret"))
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "unauthorized_client")
            #expect(try await h.refresh(tokens.refresh).status == .ok)
        }
    }

    @Test func tokensOfTheAuthMethodsMayBeRevokedByAnyClient() async throws {
        try await Harness.run { h in
            let guest = try await h.guest()
            #expect(try await h.revoke(guest.refresh).status == .ok)
            #expect(try await h.sendAuthorized(.get, "/me", token: guest.access).status == .unauthorized)
        }
    }

    @Test func missingTokenOrNonFormBodyIsInvalidRequest() async throws {
        try await Harness.run { h in
            let missing = try await h.postForm("/oauth/revoke", "token_type_hint=refresh_token")
            #expect(missing.status == .badRequest)
            #expect(try missing.errorCode() == "invalid_request")
            let basic = "Basic " + Data("sesame-demo:demo-secret".utf8).base64EncodedString()
            let json = try await h.send(
                .post, "/oauth/revoke", headers: [.contentType: "application/json", .authorization: basic], body: #"{"token":"x"}"#)
            #expect(try json.errorCode() == "invalid_request")
        }
    }

    @Test func injectedFailureAnswersInsteadAndRevokesNothing() async throws {
        try await Harness.run(configure: TwoOriginsTests.separate) { h in
            let tokens = try await h.password()
            let rule = try await h.sendJSON(.post, "/_control/failures", #"{"path": "/oauth/revoke", "status": 500}"#)
            #expect(rule.status == .created)
            #expect(try await h.revoke(tokens.refresh).status == .internalServerError)
            #expect(try await h.uid(tokens.access) == "pw-alice")
            #expect(try await h.revoke(tokens.refresh).status == .ok)
            #expect(try await h.sendAuthorized(.get, "/me", token: tokens.access).status == .unauthorized)
            #expect(await h.state.counters().requests("POST /oauth/revoke") == 2)
            #expect(
                await h.state.requestLog().filter { $0.path == "/oauth/revoke" }.allSatisfy {
                    $0.listener == .authorization && $0.clientAuthentication
                })
        }
    }
}
