import Foundation
import HTTPTypes
import Testing

@testable import ReferenceServer

/// Signing in to the current account: `/auth/custom` and `/auth/internal/verify` with a
/// Bearer access token attach the identity to that token's user.
@Suite struct CurrentAccountSignInTests {
    @Test func customTokenWithBearerAttachesToTheCurrentUser() async throws {
        try await Harness.run { h in
            let guest = try await h.guest()
            let uid = try await h.uid(guest.access)
            let result = try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-ada","provider":"acme"}"#, token: guest.access)
            #expect(result.status == .ok)
            let tokens = try Harness.tokens(from: result)
            let me = try await h.sendAuthorized(.get, "/me", token: tokens.access).object()
            #expect(me["uid"] as? String == uid)
            #expect(me["provider"] as? String == "custom")
            #expect(me["providerUID"] as? String == "ada")
            #expect(me["isAnonymous"] as? Bool == false)
            let identities = try await h.sendAuthorized(.get, "/identities", token: tokens.access).array()
            #expect(identities.compactMap { ($0 as? [String: Any])?["provider"] as? String }.sorted() == ["custom", "guest"])
            // The identity now signs in to that account.
            let alone = try Harness.tokens(from: try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-ada","provider":"acme"}"#))
            #expect(try await h.uid(alone.access) == uid)
            // The earlier session stays valid.
            #expect(try await h.uid(guest.access) == uid)
        }
    }

    @Test func verifyWithBearerAttachesToTheCurrentUser() async throws {
        try await Harness.run { h in
            let alice = try await h.password()
            _ = try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"alice@work.example"}"#)
            let challenge = try #require(await h.state.latestChallenge(identifier: "alice@work.example"))
            let body = #"{"challengeId":"\#(challenge.challengeId)","code":"\#(challenge.code)"}"#
            let result = try await h.sendJSON(.post, "/auth/internal/verify", body, token: alice.access)
            #expect(result.status == .ok)
            let tokens = try Harness.tokens(from: result)
            #expect(try await h.uid(tokens.access) == "pw-alice")
            #expect(await h.state.userID(provider: .internal, providerUID: "alice@work.example") == "pw-alice")
        }
    }

    @Test func identityAlreadyOnTheCurrentAccountSignsInAgain() async throws {
        try await Harness.run { h in
            let first = try Harness.tokens(from: try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-ada","provider":"acme"}"#))
            let again = try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-ada","provider":"acme"}"#, token: first.access)
            #expect(again.status == .ok)
            #expect(try await h.uid(try Harness.tokens(from: again).access) == "cu-ada")
            let identities = try await h.sendAuthorized(.get, "/identities", token: first.access).array()
            #expect(identities.count == 1)
        }
    }

    @Test func identityOfAnotherUserIsAConflictThatChangesNothing() async throws {
        try await Harness.run { h in
            _ = try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-ada","provider":"acme"}"#)
            let bob = try await h.password("bob", "builder")
            let grantsBefore = await h.state.counters().tokenGrants
            let conflict = try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-ada","provider":"acme"}"#, token: bob.access)
            #expect(conflict.status == .conflict)
            #expect(try conflict.errorCode() == "identity_already_attached")
            #expect(await h.state.counters().tokenGrants == grantsBefore)
            #expect(await h.state.userID(provider: .custom, providerUID: "ada") == "cu-ada")
            #expect(try await h.sendAuthorized(.get, "/identities", token: bob.access).array().count == 1)

            _ = try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"+15550100"}"#)
            let owner = try Harness.tokens(
                from: try await h.sendJSON(.post, "/auth/internal/verify", try await verifyBody(h, "+15550100")))
            let ownerUID = try await h.uid(owner.access)
            _ = try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"+15550100"}"#)
            let challenge = try #require(await h.state.latestChallenge(identifier: "+15550100"))
            let verify = try await h.sendJSON(.post, "/auth/internal/verify", try await verifyBody(h, "+15550100"), token: bob.access)
            #expect(verify.status == .conflict)
            #expect(try verify.errorCode() == "identity_already_attached")
            // The code is left unused: it still signs its owner in.
            #expect(await h.state.challenge(id: challenge.challengeId)?.consumed == false)
            let retry = try Harness.tokens(from: try await h.sendJSON(.post, "/auth/internal/verify", try await verifyBody(h, "+15550100")))
            #expect(try await h.uid(retry.access) == ownerUID)
        }
    }

    @Test func deadOrMalformedBearerIsRefused() async throws {
        try await Harness.run { h in
            let guest = try await h.guest()
            _ = try await h.sendAuthorized(.post, "/auth/logout", token: guest.access)
            let dead = try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-ada","provider":"acme"}"#, token: guest.access)
            #expect(dead.status == .unauthorized)
            #expect(try dead.errorCode() == "invalid_token")
            let malformed = try await h.send(
                .post, "/auth/custom", headers: [.contentType: "application/json", .authorization: "Bearer a b"],
                body: #"{"token":"custom-ada","provider":"acme"}"#)
            #expect(malformed.status == .badRequest)
            #expect(await h.state.userID(provider: .custom, providerUID: "ada") == nil)
        }
    }

    private func verifyBody(_ h: Harness, _ identifier: String) async throws -> String {
        let challenge = try #require(await h.state.latestChallenge(identifier: identifier))
        return #"{"challengeId":"\#(challenge.challengeId)","code":"\#(challenge.code)"}"#
    }
}
