import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// `POST /oauth/token`: RFC 6749 §2.3.1 client authentication, §4.3 and §6 grants, §5 answers.
@Suite struct TokenEndpointTests {
    @Test func passwordGrantAnswersATokenResponseThatIsNotCached() async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest("grant_type=password&username=alice&password=wonderland&scope=profile")
            #expect(result.status == .ok)
            #expect(result.headers[.cacheControl] == "no-store")
            #expect(result.headers[HTTPField.Name("Pragma")!] == "no-cache")
            #expect(result.headers[.contentType]?.hasPrefix("application/json") == true)
            let body = try result.object()
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["expires_in"] as? Int == 3600)
            #expect(body["scope"] as? String == "profile")
            let access = try #require(body["access_token"] as? String)
            let refresh = try #require(body["refresh_token"] as? String)
            #expect(access.count == 43 && refresh.count == 43 && access != refresh)
            #expect(try await h.uid(access) == "pw-alice")
        }
    }

    @Test func wrongPasswordIsInvalidGrant() async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest("grant_type=password&username=alice&password=builder")
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_grant")
            #expect(try result.object()["error_description"] is String)
            #expect(result.headers[.cacheControl] == "no-store")
        }
    }

    @Test func missingPasswordIsInvalidRequest() async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest("grant_type=password&username=alice")
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_request")
        }
    }

    @Test func clientMayAuthenticateInTheBody() async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest(
                "grant_type=password&username=bob&password=builder&client_id=sesame-demo&client_secret=demo-secret",
                basic: nil
            )
            #expect(result.status == .ok)
        }
    }

    @Test(arguments: [("sesame-demo", "wrong"), ("someone-else", "demo-secret")])
    func wrongClientIsInvalidClientWithABasicChallenge(id: String, secret: String) async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest("grant_type=password&username=alice&password=wonderland", basic: (id, secret))
            #expect(result.status == .unauthorized)
            #expect(try result.errorCode() == "invalid_client")
            #expect(result.wwwAuthenticate == "Basic realm=\"sesame\"")
        }
    }

    @Test func missingClientAuthenticationIsInvalidClient() async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest("grant_type=password&username=alice&password=wonderland", basic: nil)
            #expect(result.status == .unauthorized)
            #expect(try result.errorCode() == "invalid_client")
        }
    }

    @Test func basicCredentialsAreFormEncodedInsideBasic() async throws {
        // RFC 6749 §2.3.1: the id and secret are form-urlencoded before Basic encoding.
        let client = ReferenceServer.Client(id: "app:one", secret: "s3cr+t /%")
        try await Harness.run(configure: { $0.clients = [client] }) { h in
            let encoded = (id: "app%3Aone", secret: "s3cr%2Bt+%2F%25")
            let good = try await h.tokenRequest("grant_type=password&username=alice&password=wonderland", basic: encoded)
            #expect(good.status == .ok)
            let raw = try await h.tokenRequest("grant_type=password&username=alice&password=wonderland", basic: ("app:one", "s3cr+t /%"))
            #expect(raw.status == .unauthorized)
        }
    }

    @Test func publicClientSendsOnlyItsID() async throws {
        try await Harness.run(configure: { $0.clients = [.init(id: "mobile", secret: nil)] }) { h in
            let result = try await h.tokenRequest("grant_type=password&username=alice&password=wonderland&client_id=mobile", basic: nil)
            #expect(result.status == .ok)
        }
    }

    @Test func onlyFormBodiesAreAccepted() async throws {
        try await Harness.run { h in
            let basic = "Basic " + Data("sesame-demo:demo-secret".utf8).base64EncodedString()
            let result = try await h.send(
                .post,
                "/oauth/token",
                headers: [.contentType: "application/json", .authorization: basic],
                body: #"{"grant_type":"password","username":"alice","password":"wonderland"}"#
            )
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_request")
        }
    }

    @Test func repeatedParameterIsInvalidRequest() async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest("grant_type=password&username=alice&username=bob&password=wonderland")
            #expect(try result.errorCode() == "invalid_request")
        }
    }

    @Test func repeatedParameterStillLogsTheClientSecretInTheBody() async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest(
                "grant_type=password&username=alice&username=bob&client_id=sesame-demo&client_secret=demo-secret",
                basic: nil)
            #expect(try result.errorCode() == "invalid_request")
            #expect(await h.state.requestLog().map(\.clientAuthentication) == [true])
        }
    }

    @Test func unknownGrantIsUnsupportedGrantType() async throws {
        try await Harness.run { h in
            let result = try await h.tokenRequest("grant_type=client_credentials")
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "unsupported_grant_type")
            let missing = try await h.tokenRequest("username=alice")
            #expect(try missing.errorCode() == "invalid_request")
        }
    }

    @Test func refreshRotatesAndTheOldRefreshTokenDies() async throws {
        try await Harness.run { h in
            let first = try await h.password()
            let refreshed = try await h.refresh(first.refresh)
            #expect(refreshed.status == .ok)
            #expect(refreshed.headers[.cacheControl] == "no-store")
            let second = try Harness.tokens(from: refreshed)
            #expect(second.refresh != first.refresh)
            #expect(second.access != first.access)
            #expect(try await h.uid(second.access) == "pw-alice")

            let reused = try await h.refresh(first.refresh)
            #expect(reused.status == .badRequest)
            #expect(try reused.errorCode() == "invalid_grant")
            #expect(try await h.refresh(second.refresh).status == .ok)

            let counters = await h.state.counters()
            #expect(counters.refreshes == 2)
            #expect(counters.rejectedRefreshes == 1)
            #expect(counters.tokenGrants == ["password": 1, "refresh_token": 2])
        }
    }

    @Test func refreshTokenOfAnotherClientIsInvalidGrantAndStaysValid() async throws {
        let clients = [ReferenceServer.Client.demo, ReferenceServer.Client(id: "other", secret: "other-secret")]
        try await Harness.run(configure: { $0.clients = clients }) { h in
            let tokens = try await h.password()
            let stolen = try await h.refresh(tokens.refresh, basic: ("other", "other-secret"))
            #expect(stolen.status == .badRequest)
            #expect(try stolen.errorCode() == "invalid_grant")
            #expect(try await h.uid(tokens.access) == "pw-alice")
            #expect(try await h.refresh(tokens.refresh).status == .ok)
            #expect(await h.state.counters().rejectedRefreshes == 1)
        }
    }

    @Test func refreshTokensOfTheAuthMethodsMayBeRefreshedByAnyClient() async throws {
        let clients = [ReferenceServer.Client.demo, ReferenceServer.Client(id: "other", secret: "other-secret")]
        try await Harness.run(configure: { $0.clients = clients }) { h in
            let guest = try await h.guest()
            #expect(try await h.refresh(guest.refresh, basic: ("other", "other-secret")).status == .ok)
        }
    }

    @Test func unknownRefreshTokenIsInvalidGrant() async throws {
        try await Harness.run { h in
            let result = try await h.refresh("not-a-token")
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_grant")
        }
    }

    @Test func refreshKeepsTheOriginalSignInTime() async throws {
        try await Harness.run { h in
            let first = try await h.guest()
            let signedInAt = try await h.sendAuthorized(.get, "/me", token: first.access).object()["authenticatedAt"] as? String
            h.clock.advance(by: 120)
            let second = try Harness.tokens(from: try await h.refresh(first.refresh))
            let me = try await h.sendAuthorized(.get, "/me", token: second.access).object()
            #expect(me["authenticatedAt"] as? String == signedInAt)
            #expect(me["authenticatedAt"] as? String != nil)
        }
    }

    @Test func newTokenLifetimeAppliesToLaterTokens() async throws {
        try await Harness.run(configure: { $0.accessTokenLifetime = .seconds(90) }) { h in
            let long = try await h.guest()
            #expect(long.expiresIn == 90)
            await h.state.setAccessTokenLifetime(.seconds(5))
            let short = try await h.guest()
            #expect(short.expiresIn == 5)
        }
    }

    @Test func refreshTokensCanBeGivenALifetime() async throws {
        try await Harness.run(configure: { $0.refreshTokenLifetime = .seconds(600) }) { h in
            let tokens = try await h.guest()
            h.clock.advance(by: 601)
            #expect(try await h.refresh(tokens.refresh).errorCode() == "invalid_grant")
        }
    }
}
