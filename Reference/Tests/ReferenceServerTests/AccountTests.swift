import Foundation
import HTTPTypes
@testable import ReferenceServer
import Testing

/// `GET /me`, `GET /identities`, `DELETE /identities/{provider}`, `DELETE /account`.
@Suite struct AccountTests {
    @Test func meReportsTheAuthenticationDetails() async throws {
        try await Harness.run(configure: { $0.accessTokenLifetime = .seconds(600) }) { h in
            let tokens = try await h.password()
            let result = try await h.sendAuthorized(.get, "/me", token: tokens.access)
            #expect(result.status == .ok)
            let me = try result.object()
            #expect(me["uid"] as? String == "pw-alice")
            #expect(me["provider"] as? String == "password")
            #expect(me["providerUID"] as? String == "alice")
            #expect(me["displayName"] as? String == "Alice")
            #expect(me["email"] as? String == "alice@example.com")
            #expect(me["isAnonymous"] as? Bool == false)
            #expect(me["authenticatedAt"] as? String == "2025-06-15T15:06:40Z")
            #expect(me["expiresAt"] as? String == "2025-06-15T15:16:40Z")
        }
    }

    @Test func identitiesListsAttachedIdentitiesWithADate() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let uid = try await h.uid(tokens.access)
            let list = try await h.sendAuthorized(.get, "/identities", token: tokens.access).array()
            let identity = try #require(list.first as? [String: Any])
            #expect(list.count == 1)
            #expect(identity["provider"] as? String == "guest")
            #expect(identity["providerUID"] as? String == uid)
            #expect(identity["attachedOn"] as? String == "2025-06-15")
        }
    }

    @Test func detachingOneOfTwoIdentitiesKeepsTheAccount() async throws {
        try await Harness.run { h in
            let tokens = try await h.password()
            try await h.state.attachIdentity(toUser: "pw-alice", provider: .internal, providerUID: "alice@example.com")
            let result = try await h.sendAuthorized(.delete, "/identities/password", token: tokens.access)
            #expect(result.status == .ok)
            let body = try result.object()
            #expect(body["accountDestroyed"] as? Bool == false)
            let remaining = try #require(body["remaining"] as? [[String: Any]])
            #expect(remaining.map { $0["provider"] as? String } == ["internal"])
            // The account lives on, so its session still refreshes.
            #expect(try await h.refresh(tokens.refresh).status == .ok)
        }
    }

    @Test func detachingTheLastIdentityDestroysTheAccount() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let result = try await h.sendAuthorized(.delete, "/identities/guest", token: tokens.access)
            #expect(result.status == .ok)
            let body = try result.object()
            #expect(body["accountDestroyed"] as? Bool == true)
            #expect((body["remaining"] as? [Any])?.isEmpty == true)
            #expect(try await h.refresh(tokens.refresh).errorCode() == "invalid_grant")
        }
    }

    @Test func detachingAMissingIdentityIsNotFound() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let missing = try await h.sendAuthorized(.delete, "/identities/password", token: tokens.access)
            #expect(missing.status == .notFound)
            #expect(try missing.errorCode() == "not_found")
            let bogus = try await h.sendAuthorized(.delete, "/identities/facebook", token: tokens.access)
            #expect(try bogus.errorCode() == "invalid_request")
        }
    }

    @Test(arguments: [(HTTPRequest.Method.delete, "/account"), (.delete, "/identities/guest")])
    func sensitiveOperationsNeedAFreshSignIn(method: HTTPRequest.Method, path: String) async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            h.clock.advance(by: 301)
            // A refresh does not make the sign-in fresh again.
            let refreshed = try Harness.tokens(from: try await h.refresh(tokens.refresh))
            let result = try await h.sendAuthorized(method, path, token: refreshed.access)
            #expect(result.status == .forbidden)
            #expect(try result.errorCode() == "token_too_old")
        }
    }

    @Test func freshnessWindowIncludesItsLastSecond() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            h.clock.advance(by: 300)
            #expect(try await h.sendAuthorized(.delete, "/account", token: tokens.access).status == .noContent)
        }
    }

    @Test func destroyedAccountKeepsItsAccessTokenButCannotRefresh() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let uid = try await h.uid(tokens.access)
            #expect(try await h.sendAuthorized(.delete, "/account", token: tokens.access).status == .noContent)
            let me = try await h.sendAuthorized(.get, "/me", token: tokens.access)
            #expect(me.status == .ok)
            #expect(try me.object()["uid"] as? String == uid)
            let refresh = try await h.refresh(tokens.refresh)
            #expect(refresh.status == .badRequest)
            #expect(try refresh.errorCode() == "invalid_grant")
            let again = try await h.sendAuthorized(.delete, "/account", token: tokens.access)
            #expect(again.status == .notFound)
        }
    }

    @Test func signingInAgainAfterDestructionMakesANewAccount() async throws {
        try await Harness.run { h in
            let first = try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-kim","provider":"acme"}"#)
            let tokens = try Harness.tokens(from: first)
            #expect(try await h.sendAuthorized(.delete, "/account", token: tokens.access).status == .noContent)
            let second = try Harness.tokens(from: try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-kim","provider":"acme"}"#))
            let list = try await h.sendAuthorized(.get, "/identities", token: second.access).array()
            #expect(list.count == 1)
        }
    }
}
