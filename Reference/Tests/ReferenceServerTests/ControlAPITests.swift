import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// `/_control` over HTTP: counters, failure injection, latency, clock, challenges, reset.
@Suite struct ControlAPITests {
    @Test func countersCountRequestsByRouteTemplate() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            _ = try await h.sendAuthorized(.get, "/me", token: tokens.access)
            _ = try await h.sendAuthorized(.get, "/me", token: tokens.access)
            _ = try await h.sendAuthorized(.delete, "/identities/password", token: tokens.access)
            _ = try await h.refresh(tokens.refresh)
            let counters = try await h.send(.get, "/_control/counters").object()
            let requests = try #require(counters["requests"] as? [String: Int])
            #expect(requests == ["POST /auth/guest": 1, "GET /me": 2, "DELETE /identities/{provider}": 1, "POST /oauth/token": 1])
            #expect(counters["refreshes"] as? Int == 1)
            #expect(counters["tokenGrants"] as? [String: Int] == ["guest": 1, "refresh_token": 1])
        }
    }

    @Test func injectedFailuresAnswerNTimesThenStop() async throws {
        try await Harness.run { h in
            let rule =
                #"{"path":"/status","count":2,"status":503,"body":{"error":"unavailable","error_description":"down"},"retryAfter":7}"#
            let added = try await h.sendJSON(.post, "/_control/failures", rule)
            #expect(added.status == .created)
            for _ in 0..<2 {
                let failed = try await h.send(.get, "/status")
                #expect(failed.status == .serviceUnavailable)
                #expect(failed.headers[.retryAfter] == "7")
                #expect(try failed.errorCode() == "unavailable")
            }
            #expect(try await h.send(.get, "/status").status == .ok)
            #expect(await h.state.counters().requests("GET /status") == 3)
        }
    }

    @Test func failuresMatchMethodAndRouteTemplate() async throws {
        try await Harness.run { h in
            await h.state.injectFailure(.init(method: "DELETE", path: "/identities/{provider}", status: 429, rawBody: "slow down"))
            let tokens = try await h.guest()
            #expect(try await h.sendAuthorized(.get, "/identities", token: tokens.access).status == .ok)
            let failed = try await h.sendAuthorized(.delete, "/identities/guest", token: tokens.access)
            #expect(failed.status == .tooManyRequests)
            #expect(failed.body == "slow down")
            #expect(failed.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(await h.state.pendingFailures().isEmpty)
        }
    }

    @Test func clearingFailuresDropsTheRules() async throws {
        try await Harness.run { h in
            _ = try await h.sendJSON(.post, "/_control/failures", #"{"path":"*","count":5}"#)
            #expect(try await h.send(.get, "/_control/failures").array().count == 1)
            #expect(try await h.send(.delete, "/_control/failures").status == .noContent)
            #expect(try await h.send(.get, "/status").status == .ok)
        }
    }

    @Test func badFailureRuleIsInvalidRequest() async throws {
        try await Harness.run { h in
            let noPath = try await h.sendJSON(.post, "/_control/failures", #"{"count":1}"#)
            #expect(try noPath.errorCode() == "invalid_request")
            let noCount = try await h.sendJSON(.post, "/_control/failures", #"{"path":"/me","count":0}"#)
            #expect(try noCount.errorCode() == "invalid_request")
        }
    }

    @Test func closeConnectionDropsTheConnectionWithoutAnAnswer() async throws {
        try await Harness.run { h in
            _ = try await h.sendJSON(.post, "/_control/failures", #"{"path":"/oauth/token","closeConnection":true}"#)
            let tokens = try await h.guest()
            await #expect(throws: (any Error).self) { try await h.refresh(tokens.refresh) }
            // The rule is spent and the refresh token was never used.
            #expect(try await h.refresh(tokens.refresh).status == .ok)
        }
    }

    @Test func latencyDelaysProtocolRequests() async throws {
        try await Harness.run { h in
            _ = try await h.sendJSON(.post, "/_control/latency", #"{"milliseconds":200}"#)
            let start = ContinuousClock.now
            #expect(try await h.send(.get, "/status").status == .ok)
            #expect(ContinuousClock.now - start >= .milliseconds(200))
            _ = try await h.sendJSON(.post, "/_control/latency", #"{"milliseconds":0}"#)
        }
    }

    @Test func tokenLifetimeCanBeSetOverHTTP() async throws {
        try await Harness.run { h in
            let set = try await h.sendJSON(.post, "/_control/token-lifetime", #"{"seconds":2}"#)
            #expect(set.status == .ok)
            let tokens = try await h.guest()
            #expect(tokens.expiresIn == 2)
            _ = try await h.sendJSON(.post, "/_control/clock/advance", #"{"seconds":2}"#)
            #expect(try await h.sendAuthorized(.get, "/me", token: tokens.access).errorCode() == "invalid_token")
        }
    }

    @Test func clockCanBeReadAndAdvanced() async throws {
        try await Harness.run { h in
            #expect(try await h.send(.get, "/_control/clock").object()["now"] as? String == "2025-06-15T15:06:40Z")
            let advanced = try await h.sendJSON(.post, "/_control/clock/advance", #"{"seconds":60}"#).object()
            #expect(advanced["now"] as? String == "2025-06-15T15:07:40Z")
            await h.state.advanceClock(by: .seconds(60))
            #expect(WireCodingCheck.rfc3339(await h.state.now()) == "2025-06-15T15:08:40Z")
        }
    }

    @Test func challengeCodeIsReadableByIdAndByIdentifier() async throws {
        try await Harness.run { h in
            let challenge = try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"+15550100"}"#).object()
            let id = try #require(challenge["challengeId"] as? String)
            let byID = try await h.send(.get, "/_control/challenges/\(id)").object()
            let byIdentifier = try await h.send(.get, "/_control/challenges?identifier=%2B15550100").object()
            let code = try #require(byID["code"] as? String)
            #expect(byIdentifier["code"] as? String == code)
            #expect(byID["channel"] as? String == "sms")
            let verified = try await h.sendJSON(.post, "/auth/internal/verify", #"{"challengeId":"\#(id)","code":"\#(code)"}"#)
            #expect(verified.status == .ok)
            #expect(try await h.send(.get, "/_control/challenges/\(UUID())").status == .notFound)
        }
    }

    @Test func pushedEventsGetIncreasingIdsAndAnyName() async throws {
        try await Harness.run { h in
            let first = try await h.sendJSON(.post, "/_control/users/u42/events", #"{"event":"made.up","data":{"a":[1,2]}}"#)
            #expect(first.status == .created)
            #expect(try first.object()["id"] as? Int == 1)
            #expect(try first.object()["data"] as? String == #"{"a":[1,2]}"#)
            let raw = try await h.sendJSON(.post, "/_control/users/u42/events", #"{"event":"notice","rawData":"{broken"}"#).object()
            #expect(raw["id"] as? Int == 2)
            #expect(raw["data"] as? String == "{broken")
            let bad = try await h.sendJSON(.post, "/_control/users/u42/events", #"{"event":"a\nb"}"#)
            #expect(try bad.errorCode() == "invalid_request")
            #expect(try await h.send(.get, "/_control/users/u42/events").array().count == 2)
        }
    }

    @Test func usersCanBeListedAndLookedUp() async throws {
        try await Harness.run { h in
            _ = try await h.password()
            #expect(try await h.send(.get, "/_control/users?provider=password&providerUID=alice").array() as? [String] == ["pw-alice"])
            #expect(try await h.send(.get, "/_control/users").array() as? [String] == ["pw-alice"])
            #expect(try await h.send(.post, "/_control/users/nobody/revoke").status == .notFound)
        }
    }

    @Test func downstream401CarriesNoInvalidTokenChallenge() async throws {
        try await Harness.run { h in
            let result = try await h.send(.get, "/_control/downstream-401", headers: [.authorization: "Bearer abc"])
            #expect(result.status == .unauthorized)
            let challenge = try #require(result.wwwAuthenticate)
            #expect(!challenge.contains("invalid_token"))
            #expect(!challenge.hasPrefix("Bearer"))
            #expect(try result.errorCode() != "invalid_token")
            #expect(await h.state.counters().requests("GET /_control/downstream-401") == 1)
        }
    }

    @Test func unknownRouteIsNotFoundWithAnErrorBody() async throws {
        try await Harness.run { h in
            let result = try await h.send(.get, "/nope")
            #expect(result.status == .notFound)
            #expect(try result.errorCode() == "not_found")
        }
    }

    @Test func resetForgetsEverything() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            await h.state.setAccessTokenLifetime(.seconds(1))
            await h.state.injectFailure(.init(path: "/me", count: 3))
            #expect(try await h.send(.post, "/_control/reset").status == .noContent)
            #expect(await h.state.counters() == .zero)
            #expect(await h.state.pendingFailures().isEmpty)
            #expect(await h.state.currentAccessTokenLifetime() == .seconds(3600))
            #expect(await h.state.userIDs().isEmpty)
            #expect(try await h.sendAuthorized(.get, "/me", token: tokens.access).errorCode() == "invalid_token")
        }
    }
}

/// Formats a date the way the server does, for comparisons.
enum WireCodingCheck {
    static func rfc3339(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }
}
