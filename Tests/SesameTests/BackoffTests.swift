import Foundation
import HTTPTypes
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// Answers for the refresh request, in order; once they run out the fake back-end answers.
final class RefreshScript: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [RoutingTransport.Answer]

    init(_ answers: [RoutingTransport.Answer]) { self.answers = answers }

    func append(_ answer: RoutingTransport.Answer) { lock.withLock { answers.append(answer) } }

    func next() -> RoutingTransport.Answer? {
        lock.withLock { answers.isEmpty ? nil : answers.removeFirst() }
    }
}

/// After a transient refresh failure, refreshes back off: until the deadline they fail at
/// once with the same error and send nothing. The deadline is `Retry-After` when the
/// response has one, else 1 s doubled per transient failure in a row (at most 60 s); a
/// success resets it. A refresh the app asks for (`restoreSession()`) waits out a
/// `Retry-After` only.
@Suite struct BackoffTests {
    let notes = OperationRequest(TestRequests.notes)

    struct Environment {
        let service: AuthenticationService<TestSchema>
        let transport: RoutingTransport
        let clock: ManualClock
        let script: RefreshScript
    }

    static func unavailable(retryAfter: String? = nil, status: Int = 503, code: String = "unavailable") -> RoutingTransport.Answer {
        var fields: HTTPFields = [.contentType: "application/json"]
        if let retryAfter { fields[HTTPField.Name("Retry-After")!] = retryAfter }
        return RoutingTransport.Answer(status: status, headerFields: fields, body: #"{"error":"\#(code)"}"#)
    }

    func signedIn(failing answers: [RoutingTransport.Answer]) async throws -> Environment {
        let transport = RoutingTransport()
        let clock = ManualClock()
        let script = RefreshScript(answers)
        await transport.setRoute { request in
            request.path == "/oauth/token" && request.body.contains("grant_type=refresh_token") ? script.next() : nil
        }
        let service = makeService(transport: transport, clock: clock)
        _ = try await service.authenticate(with: TestSingleStepMethod.guest)
        return Environment(service: service, transport: transport, clock: clock, script: script)
    }

    /// Sends a request with the credential; returns the status of the server error it got,
    /// or 200.
    func send(_ env: Environment) async throws -> Int {
        do {
            return try await env.service.perform(notes).status
        } catch let error as TestServerError {
            return error.response.status
        }
    }

    @Test func retryAfterInSecondsIsHonoured() async throws {
        let env = try await signedIn(failing: [Self.unavailable(retryAfter: "120")])
        env.clock.advance(by: 4000)  // expired: a refresh is needed
        #expect(try await send(env) == 503)
        #expect(await env.transport.refreshes == 1)
        env.clock.advance(by: 119)
        #expect(try await send(env) == 503)  // the same error, at once
        #expect(await env.transport.refreshes == 1)
        env.clock.advance(by: 1)
        #expect(try await send(env) == 200)
        #expect(await env.transport.refreshes == 2)
    }

    /// `Retry-After: 99999999999` (3,170 years) defers refreshes for `RetryAfter.maximum`
    /// (an hour), not until the next sign-in.
    @Test func aHugeRetryAfterDefersRefreshesForAnHourOnly() async throws {
        let env = try await signedIn(failing: [Self.unavailable(retryAfter: "99999999999")])
        env.clock.advance(by: 4000)
        #expect(try await send(env) == 503)
        env.clock.advance(by: 3599)
        #expect(try await send(env) == 503)  // still deferred
        #expect(await env.transport.refreshes == 1)
        env.clock.advance(by: 1)
        #expect(try await send(env) == 200)
        #expect(await env.transport.refreshes == 2)
    }

    @Test(arguments: ["Tue, 14 Nov 2023 23:20:30 GMT", "Tuesday, 14-Nov-23 23:20:30 GMT", "Tue Nov 14 23:20:30 2023"])
    func retryAfterAsAnHTTPDateIsHonoured(date: String) async throws {
        let env = try await signedIn(failing: [Self.unavailable(retryAfter: date)])
        env.clock.advance(by: 4000)  // 2023-11-14 23:20:00 GMT
        #expect(try await send(env) == 503)
        env.clock.advance(by: 29)
        #expect(try await send(env) == 503)
        #expect(await env.transport.refreshes == 1)
        env.clock.advance(by: 1)
        #expect(try await send(env) == 200)
        #expect(await env.transport.refreshes == 2)
    }

    @Test func withoutRetryAfterTheBackOffDoubles() async throws {
        let env = try await signedIn(failing: [Self.unavailable(), Self.unavailable(), Self.unavailable()])
        env.clock.advance(by: 4000)
        var expected = 1
        #expect(try await send(env) == 503)
        for delay in [1.0, 2.0, 4.0] {
            env.clock.advance(by: delay - 0.1)
            #expect(try await send(env) == 503)
            #expect(await env.transport.refreshes == expected, "nothing sent before \(delay) s")
            env.clock.advance(by: 0.1)
            expected += 1
            #expect(try await send(env) == (expected == 4 ? 200 : 503))
            #expect(await env.transport.refreshes == expected, "a refresh sent after \(delay) s")
        }
    }

    @Test func aSuccessResetsTheBackOff() async throws {
        let env = try await signedIn(failing: [Self.unavailable(), Self.unavailable()])
        env.clock.advance(by: 4000)
        #expect(try await send(env) == 503)  // backs off 1 s
        env.clock.advance(by: 1)
        #expect(try await send(env) == 503)  // backs off 2 s
        env.clock.advance(by: 2)
        #expect(try await send(env) == 200)
        #expect(await env.transport.refreshes == 3)

        env.script.append(Self.unavailable())
        env.clock.advance(by: 4000)  // the new token expired too
        #expect(try await send(env) == 503)
        env.clock.advance(by: 1)  // 1 s again, not 4 s
        #expect(try await send(env) == 200)
        #expect(await env.transport.refreshes == 5)
    }

    @Test func waitersShareTheFailureAndRequestsDuringTheBackOffSendNothing() async throws {
        let env = try await signedIn(failing: [Self.unavailable(retryAfter: "10")])
        env.clock.advance(by: 4000)
        let service = env.service
        let notes = self.notes
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    do { return try await service.perform(notes).status } catch let error as TestServerError {
                        return error.response.status
                    } catch { return -1 }
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 503, count: 40))
        #expect(await env.transport.refreshes == 1)
        #expect(await env.transport.count { $0.path == "/notes" } == 0)
        #expect(await env.service.state.isAuthenticated)
    }

    @Test func withinTheLeewayRequestsGoWithTheCurrentTokenWhileBackingOff() async throws {
        let env = try await signedIn(failing: [Self.unavailable(retryAfter: "60")])
        env.clock.advance(by: 3590)  // within the 60 s leeway, not expired
        #expect(try await send(env) == 200)
        #expect(try await send(env) == 200)
        #expect(await env.transport.refreshes == 1)
        let sent = await env.transport.sent.filter { $0.path == "/notes" }.map(\.authorization)
        #expect(sent == ["Bearer at-1", "Bearer at-1"])
        env.clock.advance(by: 60)  // expired, and the back-off is over
        #expect(try await send(env) == 200)
        #expect(await env.transport.refreshes == 2)
        #expect(await env.transport.sent.last?.authorization == "Bearer at-2")
    }

    @Test func theBackOffEndsWithTheSession() async throws {
        let env = try await signedIn(failing: [Self.unavailable(retryAfter: "600")])
        env.clock.advance(by: 4000)
        #expect(try await send(env) == 503)
        await env.service.unauthenticate()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        env.clock.advance(by: 4000)
        #expect(try await send(env) == 200)
        #expect(await env.transport.refreshes == 2)
    }

    @Test func oneRefreshFailedEventPerFailureNotPerDeferredAttempt() async throws {
        let env = try await signedIn(failing: [Self.unavailable(retryAfter: "30")])
        let events = await env.service.events()
        env.clock.advance(by: 4000)
        for _ in 0..<3 { _ = try await send(env) }
        await env.service.unsubscribeFromAll()
        let failures = await TestEnvironment<TestSchema>.collect(events).filter {
            if case .refreshFailed = $0 { return true } else { return false }
        }
        #expect(failures == [.refreshFailed(RefreshFailure(kind: .transient, reason: "HTTP 503 unavailable"))])
    }

    @Test(arguments: [(500, "oops"), (502, "proxy"), (429, "rate_limited"), (504, "timeout")])
    func serverErrorsAndRateLimitsAreTransient(status: Int, code: String) async throws {
        let env = try await signedIn(failing: [Self.unavailable(status: status, code: code)])
        let events = await env.service.events()
        env.clock.advance(by: 4000)
        #expect(try await send(env) == status)
        #expect(try await send(env) == status)
        #expect(await env.transport.refreshes == 1)
        await env.service.unsubscribeFromAll()
        let kinds = await TestEnvironment<TestSchema>.collect(events).compactMap { event -> RefreshFailure.Kind? in
            if case .refreshFailed(let failure) = event { return failure.kind } else { return nil }
        }
        #expect(kinds == [.transient])
    }

    /// A relaunched service whose restoration refresh fails with `answer`, then succeeds.
    func relaunched(
        failingWith answer: RoutingTransport.Answer
    ) async throws
        -> (AuthenticationService<TestSchema>, RoutingTransport, ManualClock)
    {
        let transport = RoutingTransport()
        let clock = ManualClock()
        let store = InMemorySessionStore<TestDetails>()
        _ = try await makeService(transport: transport, clock: clock, store: store).authenticate(with: TestSingleStepMethod.guest)
        let script = RefreshScript([answer])
        await transport.setRoute { request in
            request.path == "/oauth/token" && request.body.contains("grant_type=refresh_token") ? script.next() : nil
        }
        return (makeService(transport: transport, clock: clock, store: store), transport, clock)
    }

    @Test func restoreSessionRetriesAtOnceAfterAFailureWithoutRetryAfter() async throws {
        let (service, transport, _) = try await relaunched(failingWith: Self.unavailable())
        #expect(await service.restoreSession() == .presession(TestDetails(uid: "u1", provider: "guest")))
        #expect(await service.restoreSession().isAuthenticated)  // the app's retry is not deferred
        #expect(await transport.refreshes == 2)
    }

    @Test func restoreSessionWaitsOutARetryAfter() async throws {
        let (service, transport, clock) = try await relaunched(failingWith: Self.unavailable(retryAfter: "30"))
        let u1 = TestDetails(uid: "u1", provider: "guest")
        #expect(await service.restoreSession() == .presession(u1))
        clock.advance(by: 29)
        #expect(await service.restoreSession() == .presession(u1))
        #expect(await transport.refreshes == 1)
        clock.advance(by: 1)
        #expect(await service.restoreSession().isAuthenticated)
        #expect(await transport.refreshes == 2)
    }

    @Test func aFailureThatIsNotTransientDoesNotBackOff() async throws {
        let malformed = RoutingTransport.Answer(status: 200, headerFields: [.contentType: "application/json"], body: #"{"access_"#)
        let env = try await signedIn(failing: [malformed, malformed])
        env.clock.advance(by: 4000)
        await #expect(throws: SesameError.self) { try await env.service.perform(notes) }
        await #expect(throws: SesameError.self) { try await env.service.perform(notes) }
        #expect(await env.transport.refreshes == 2)
    }
}

@Suite struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_700_004_000)  // Tue, 14 Nov 2023 23:20:00 GMT

    @Test(
        arguments: [
            ("120", 120), (" 5 ", 5), ("0", 0),
            ("Tue, 14 Nov 2023 23:20:30 GMT", 30), ("Tuesday, 14-Nov-23 23:20:30 GMT", 30), ("Tue Nov 14 23:20:30 2023", 30),
            ("Sun Nov  6 08:49:37 1994", 0),  // in the past: no wait
            ("Wed, 15 Nov 2023 00:00:00 GMT", 2400),
            ("Thu, 29 Feb 2024 00:00:00 GMT", 3600),  // 106 days ahead: capped at an hour
            ("3600", 3600), ("3601", 3600), ("99999999999", 3600), (String(repeating: "9", count: 400), 3600),
            ("Fri, 31 Dec 9999 23:59:59 GMT", 3600),
        ] as [(String, Double)])
    func readsSecondsAndHTTPDates(value: String, seconds: Double) {
        #expect(RetryAfter.delay(value, now: now) == seconds)
    }

    @Test(arguments: [
        "", "-5", "1.5", "soon", "Tue, 14 Nov 2023 23:20:30", "Tue, 31 Feb 2023 00:00:00 GMT",
        "Tue, 14 Nov 2023 24:00:00 GMT", "Tue, 14 Foo 2023 23:20:30 GMT", "Fri, 29 Feb 2023 00:00:00 GMT",
    ])
    func rejectsAnythingElse(value: String) {
        #expect(RetryAfter.delay(value, now: now) == nil)
    }

    @Test func aTwoDigitYearMoreThanFiftyYearsAheadIsInThePast() throws {
        let date = try #require(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT", now: now))
        #expect(date == Date(timeIntervalSince1970: 784_111_777))
        let past = try #require(RetryAfter.httpDate("Tuesday, 01-Jan-80 00:00:00 GMT", now: now))
        #expect(past == Date(timeIntervalSince1970: 315_532_800))  // 1980, not 2080
        let ahead = try #require(RetryAfter.httpDate("Sunday, 01-Jan-73 00:00:00 GMT", now: now))
        #expect(ahead == Date(timeIntervalSince1970: 3_250_454_400))  // 2073: exactly 50 years ahead
    }
}
