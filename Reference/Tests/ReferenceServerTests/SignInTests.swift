import Foundation
import HTTPTypes
import ReferenceServer
import SesameTestSupport
import Testing

/// The sign-in methods of auth.yaml other than the password grant.
@Suite struct SignInTests {
    @Test func guestGetsANewAnonymousAccountEachTime() async throws {
        try await Harness.run { h in
            let result = try await h.send(.post, "/auth/guest", headers: [.contentType: "application/json"])
            #expect(result.status == .ok)
            #expect(result.headers[.cacheControl] == "no-store")
            let tokens = try Harness.tokens(from: result)
            let me = try await h.sendAuthorized(.get, "/me", token: tokens.access).object()
            #expect(me["provider"] as? String == "guest")
            #expect(me["isAnonymous"] as? Bool == true)
            let other = try await h.guest()
            #expect(try await h.uid(other.access) != me["uid"] as? String)
        }
    }

    @Test(arguments: [("ada@example.com", "email"), ("+33612345678", "sms"), ("0612345678", "sms")])
    func challengeChoosesTheChannel(identifier: String, channel: String) async throws {
        try await Harness.run { h in
            let result = try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"\#(identifier)"}"#)
            #expect(result.status == .ok)
            let body = try result.object()
            #expect(body["channel"] as? String == channel)
            let id = try #require(body["challengeId"] as? String)
            #expect(UUID(uuidString: id) != nil)
            // The test clock is at 1 750 000 000 s; codes live 300 s.
            #expect(body["expiresAt"] as? String == "2025-06-15T15:11:40Z")
        }
    }

    @Test func verifiedCodeSignsInTheSameAccountEachTime() async throws {
        try await Harness.run { h in
            func signIn() async throws -> Tokens {
                let challenge = try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"ada@example.com"}"#).object()
                let id = try #require(challenge["challengeId"] as? String)
                let code = try #require(await h.state.challenge(id: id)?.code)
                #expect(code.count == 6 && code.allSatisfy(\.isNumber))
                let verified = try await h.sendJSON(.post, "/auth/internal/verify", #"{"challengeId":"\#(id)","code":"\#(code)"}"#)
                #expect(verified.status == .ok)
                return try Harness.tokens(from: verified)
            }
            let first = try await signIn()
            let second = try await signIn()
            #expect(try await h.uid(first.access) == (try await h.uid(second.access)))
            let me = try await h.sendAuthorized(.get, "/me", token: first.access).object()
            #expect(me["provider"] as? String == "internal")
            #expect(me["providerUID"] as? String == "ada@example.com")
            #expect(me["email"] as? String == "ada@example.com")
        }
    }

    @Test func codesAreSingleUse() async throws {
        try await Harness.run { h in
            let id = try #require(
                try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"ada@example.com"}"#).object()["challengeId"]
                    as? String)
            let code = try #require(await h.state.challenge(id: id)?.code)
            let body = #"{"challengeId":"\#(id)","code":"\#(code)"}"#
            #expect(try await h.sendJSON(.post, "/auth/internal/verify", body).status == .ok)
            let again = try await h.sendJSON(.post, "/auth/internal/verify", body)
            #expect(again.status == .badRequest)
            #expect(try again.errorCode() == "invalid_code")
        }
    }

    @Test func wrongOrExpiredCodeIsInvalidCode() async throws {
        try await Harness.run { h in
            let id = try #require(
                try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"ada@example.com"}"#).object()["challengeId"]
                    as? String)
            let code = try #require(await h.state.challenge(id: id)?.code)
            let wrong = code == "000000" ? "000001" : "000000"
            let wrongResult = try await h.sendJSON(.post, "/auth/internal/verify", #"{"challengeId":"\#(id)","code":"\#(wrong)"}"#)
            #expect(wrongResult.status == .badRequest)
            #expect(try wrongResult.errorCode() == "invalid_code")
            #expect(try wrongResult.object()["error_description"] is String)

            h.clock.advance(by: 301)
            let expired = try await h.sendJSON(.post, "/auth/internal/verify", #"{"challengeId":"\#(id)","code":"\#(code)"}"#)
            #expect(try expired.errorCode() == "invalid_code")
            let unknown = try await h.sendJSON(.post, "/auth/internal/verify", #"{"challengeId":"\#(UUID())","code":"123456"}"#)
            #expect(try unknown.errorCode() == "invalid_code")
        }
    }

    @Test func tooManyWrongCodesBurnTheChallenge() async throws {
        try await Harness.run(configure: { $0.challengeMaxAttempts = 2 }) { h in
            let id = try #require(
                try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"ada@example.com"}"#).object()["challengeId"]
                    as? String)
            let code = try #require(await h.state.challenge(id: id)?.code)
            let wrong = code == "000000" ? "000001" : "000000"
            for _ in 0..<2 {
                _ = try await h.sendJSON(.post, "/auth/internal/verify", #"{"challengeId":"\#(id)","code":"\#(wrong)"}"#)
            }
            let right = try await h.sendJSON(.post, "/auth/internal/verify", #"{"challengeId":"\#(id)","code":"\#(code)"}"#)
            #expect(try right.errorCode() == "invalid_code")
        }
    }

    @Test(arguments: ["{not json", #"{"identifier": 42}"#, "{}", #"{"identifier":"ab"}"#, ""])
    func malformedChallengeIsInvalidRequest(body: String) async throws {
        try await Harness.run { h in
            let result = try await h.sendJSON(.post, "/auth/internal/challenge", body)
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_request")
        }
    }

    /// `identifier`'s `minLength: 3` counts code points, as the schema and the SDK do:
    /// `e`, U+0301 and `x` are two characters but three code points.
    @Test func challengeIdentifierLengthCountsCodePoints() async throws {
        try await Harness.run { h in
            let result = try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"e\u0301x"}"#)
            #expect(result.status == .ok)
        }
    }

    @Test func customTokenSignsInAUserDerivedFromTheToken() async throws {
        try await Harness.run { h in
            let result = try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-zoe","provider":"acme"}"#)
            #expect(result.status == .ok)
            let tokens = try Harness.tokens(from: result)
            let me = try await h.sendAuthorized(.get, "/me", token: tokens.access).object()
            #expect(me["uid"] as? String == "cu-zoe")
            #expect(me["provider"] as? String == "custom")
            #expect(me["providerUID"] as? String == "zoe")
        }
    }

    @Test(arguments: ["zoe", "custom-", "custom-a b"])
    func otherCustomTokensAreInvalidGrant(token: String) async throws {
        try await Harness.run { h in
            let result = try await h.sendJSON(.post, "/auth/custom", #"{"token":"\#(token)","provider":"acme"}"#)
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_grant")
        }
    }

    @Test func devModeLogsCodesButNeverTokensOrSecrets() async throws {
        let recorder = LogCapture()
        try await Harness.run(configure: {
            $0.logsChallengeCodes = true
            $0.logger = recorder.logger()
        }) { h in
            let id = try #require(
                try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"ada@example.com"}"#).object()["challengeId"]
                    as? String)
            let code = try #require(await h.state.challenge(id: id)?.code)
            let tokens = try Harness.tokens(
                from: try await h.sendJSON(.post, "/auth/internal/verify", #"{"challengeId":"\#(id)","code":"\#(code)"}"#))
            let refreshed = try Harness.tokens(from: try await h.refresh(tokens.refresh))
            _ = try await h.sendAuthorized(.get, "/me", token: refreshed.access)
            let log = recorder.lines.joined(separator: "\n")
            #expect(log.contains(code))
            for secret in [tokens.access, tokens.refresh, refreshed.access, refreshed.refresh, "demo-secret", "wonderland"] {
                #expect(!log.contains(secret))
            }
        }
    }

    @Test func codesAreNotLoggedOutsideDevMode() async throws {
        let recorder = LogCapture()
        try await Harness.run(configure: { $0.logger = recorder.logger() }) { h in
            let id = try #require(
                try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"ada@example.com"}"#).object()["challengeId"]
                    as? String)
            let code = try #require(await h.state.challenge(id: id)?.code)
            #expect(!recorder.lines.joined(separator: "\n").contains(code))
            #expect(!recorder.lines.isEmpty)  // the recorder does see the server's logs
        }
    }
}
