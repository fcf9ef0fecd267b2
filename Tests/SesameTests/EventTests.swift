import Foundation
import HTTPTypes
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// Collects callback events under a lock.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [AuthenticationEvent<TestSchema>] = []
    var all: [AuthenticationEvent<TestSchema>] { lock.withLock { events } }
    func append(_ event: AuthenticationEvent<TestSchema>) { lock.withLock { events.append(event) } }
}

@Suite struct EventTests {
    let u1 = TestDetails(uid: "u1", provider: "guest")

    @Test func eachSubscriberGetsTheCurrentStateFirstThenEveryEventInOrder() async throws {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let events = await env.service.events()
        await env.backEnd.revokeAccessTokens()
        _ = try await env.service.perform(OperationRequest(TestRequests.notes))
        await env.service.unauthenticate()
        await env.service.unsubscribeFromAll()
        let received = await TestEnvironment<TestSchema>.collect(events)
        #expect(received.count == 3)
        #expect(received.first == .stateChanged(.authenticated(u1)))
        if case .tokenRefreshed(let expiresAt) = received[1] {
            #expect(expiresAt == env.clock.now.addingTimeInterval(3600))
        } else {
            Issue.record("expected tokenRefreshed, got \(received[1])")
        }
        #expect(received.last == .stateChanged(.unauthenticated))
    }

    @Test func aCancelledSubscriptionGetsNoMoreEvents() async throws {
        let env = TestEnvironment()
        let log = EventLog()
        let subscription = await env.service.subscribe { log.append($0) }
        #expect(await poll { log.all.count == 1 })
        subscription.cancel()
        #expect(await poll { await env.service.subscriberCount == 0 })
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        try await Task.sleep(for: .milliseconds(5))
        #expect(log.all == [.stateChanged(.unauthenticated)])
    }

    @Test func unsubscribeFromAllEndsCallbacksAndStreams() async throws {
        let env = TestEnvironment()
        let log = EventLog()
        _ = await env.service.subscribe { log.append($0) }
        _ = await env.service.subscribe { log.append($0) }
        let stream = await env.service.events()
        #expect(await poll { log.all.count == 2 })
        await env.service.unsubscribeFromAll()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        #expect(await TestEnvironment<TestSchema>.collect(stream) == [.stateChanged(.unauthenticated)])
        try await Task.sleep(for: .milliseconds(5))
        #expect(log.all.count == 2)
    }

    @Test func streamsEndWhenTheServiceGoesAway() async throws {
        var env: TestEnvironment<TestSchema>? = TestEnvironment(receivesServerEvents: true)
        _ = try await env!.service.authenticate(with: TestSingleStepMethod.guest)
        let stream = await env!.service.events()
        weak let service = env!.service
        env = nil
        #expect(await poll { service == nil })
        #expect(await TestEnvironment<TestSchema>.collect(stream).count == 1)
    }

    @Test func aSlowSubscriberLosesItsOldestEventsOnly() async {
        var broadcaster = EventBroadcaster<Int>(capacity: 2)
        let (_, stream, _) = broadcaster.add()
        let logs = LogCapture()
        for value in 1...5 { broadcaster.broadcast(value, logger: logs.logger()) }
        broadcaster.finishAll()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [4, 5])
        #expect(logs.text.contains("fell behind"))
    }

    /// A subscriber that never reads loses events at every broadcast; the warning comes at its
    /// 1st, 2nd, 4th… drop with the count so far, not once per event.
    @Test func dropsAreLoggedAtPowersOfTwoNotPerEvent() async {
        var broadcaster = EventBroadcaster<Int>(capacity: 2)
        let (_, stream, _) = broadcaster.add()
        let logs = LogCapture()
        for value in 1...1002 { broadcaster.broadcast(value, logger: logs.logger()) }
        let warnings = logs.text.split(separator: "\n").filter { $0.contains("fell behind") }
        #expect(warnings.count == 10)  // 1000 drops: 1, 2, 4, …, 512
        #expect(warnings.last?.contains(" dropped=512 ") == true)  // LogCapture prints metadata as key=value
        broadcaster.finishAll()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1001, 1002])
    }

    @Test func serverEventsArriveTypedReconnectWithLastEventIDAndMayInvalidate() async throws {
        let env = TestEnvironment(receivesServerEvents: true)
        await env.backEnd.set {
            $0.eventBodies = [
                "id: 1\nevent: profile.updated\ndata: {\"uid\":\"u1\",\"provider\":\"guest\",\"displayName\":\"Ada\"}\n\n",
                "id: 2\nevent: mystery.happened\ndata: {\"x\":1}\n\n",
                "id: 3\nevent: session.revoked\ndata: {\"reason\":\"adminAction\"}\n\n",
            ]
        }
        let events = await env.service.events()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        #expect(await poll { await env.service.state == .invalid })
        await env.service.unsubscribeFromAll()
        let server = await TestEnvironment<TestSchema>.collect(events).compactMap { event -> TestEvent? in
            if case .server(let server) = event { return server } else { return nil }
        }
        #expect(
            server == [
                .profileUpdated(TestDetails(uid: "u1", provider: "guest", displayName: "Ada")),
                .unknown(wireName: "mystery.happened", data: Data("{\"x\":1}".utf8)),
                .sessionRevoked(reason: "adminAction"),
            ])
        let lastEventIDs = await env.backEnd.requests.filter { $0.path == "/events" }.map {
            $0.headerFields[HTTPField.Name("Last-Event-ID")!]
        }
        #expect(Array(lastEventIDs.prefix(3)) == [nil, "1", "2"])
    }
}
