import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// RFC 6750 on the protected resources: §2.1 header, §3 and §3.1 challenges.
@Suite struct BearerAuthenticationTests {
    static let protected: [(HTTPRequest.Method, String)] = [
        (.get, "/me"), (.post, "/auth/logout"), (.get, "/identities"), (.delete, "/identities/guest"),
        (.delete, "/account"), (.get, "/notes"), (.post, "/notes"), (.get, "/events"),
    ]

    @Test(arguments: protected.map { "\($0.0.rawValue) \($0.1)" })
    func missingCredentialGetsABareChallenge(route: String) async throws {
        let parts = route.split(separator: " ")
        try await Harness.run { h in
            let result = try await h.send(HTTPRequest.Method(String(parts[0]))!, String(parts[1]))
            #expect(result.status == .unauthorized)
            #expect(result.wwwAuthenticate == "Bearer realm=\"sesame\"")
            #expect(result.body.isEmpty)
        }
    }

    @Test func anotherSchemeCountsAsNoCredential() async throws {
        try await Harness.run { h in
            let result = try await h.send(.get, "/me", headers: [.authorization: "Basic YTpi"])
            #expect(result.status == .unauthorized)
            #expect(result.wwwAuthenticate == "Bearer realm=\"sesame\"")
        }
    }

    @Test func unknownTokenIsInvalidToken() async throws {
        try await Harness.run { h in
            let result = try await h.sendAuthorized(.get, "/me", token: "bm90LWEtdG9rZW4")
            #expect(result.status == .unauthorized)
            let challenge = try #require(result.wwwAuthenticate)
            #expect(challenge.hasPrefix("Bearer realm=\"sesame\", error=\"invalid_token\", error_description=\""))
            #expect(try result.errorCode() == "invalid_token")
            #expect(try result.object()["error_description"] is String)
        }
    }

    @Test func expiredTokenIsInvalidToken() async throws {
        try await Harness.run(configure: { $0.accessTokenLifetime = .seconds(60) }) { h in
            let tokens = try await h.guest()
            h.clock.advance(by: 59)
            #expect(try await h.sendAuthorized(.get, "/me", token: tokens.access).status == .ok)
            h.clock.advance(by: 1)
            let result = try await h.sendAuthorized(.get, "/me", token: tokens.access)
            #expect(result.status == .unauthorized)
            #expect(result.wwwAuthenticate?.contains("error=\"invalid_token\"") == true)
            #expect(try result.object()["error_description"] as? String == "The access token expired.")
        }
    }

    @Test func malformedHeaderIsInvalidRequest() async throws {
        try await Harness.run { h in
            for header in ["Bearer", "Bearer a b", "Bearer é"] {
                let result = try await h.send(.get, "/me", headers: [.authorization: header])
                #expect(result.status == .badRequest, "\(header)")
                #expect(result.wwwAuthenticate?.contains("error=\"invalid_request\"") == true)
            }
        }
    }

    @Test func schemeNameIsCaseInsensitive() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let result = try await h.send(.get, "/me", headers: [.authorization: "bearer \(tokens.access)"])
            #expect(result.status == .ok)
        }
    }

    @Test func logoutRevokesTheSessionsAccessAndRefreshTokens() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let other = try await h.guest()
            let result = try await h.sendAuthorized(.post, "/auth/logout", token: tokens.access)
            #expect(result.status == .noContent)
            let me = try await h.sendAuthorized(.get, "/me", token: tokens.access)
            #expect(me.status == .unauthorized)
            #expect(try me.errorCode() == "invalid_token")
            #expect(try await h.refresh(tokens.refresh).errorCode() == "invalid_grant")
            #expect(try await h.sendAuthorized(.get, "/me", token: other.access).status == .ok)
        }
    }

    @Test func refreshedAwayAccessTokenStaysValidUntilItExpires() async throws {
        try await Harness.run { h in
            let first = try await h.guest()
            _ = try Harness.tokens(from: try await h.refresh(first.refresh))
            #expect(try await h.sendAuthorized(.get, "/me", token: first.access).status == .ok)
        }
    }

    @Test func statusNeedsNoCredential() async throws {
        try await Harness.run { h in
            let result = try await h.send(.get, "/status")
            #expect(result.status == .ok)
            let body = try result.object()
            #expect(body["status"] as? String == "ok")
            #expect(body["version"] as? String == "1.0")
            #expect((body["uptimeSeconds"] as? Double ?? 0) > 0)
        }
    }
}
