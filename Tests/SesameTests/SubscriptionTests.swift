import Foundation
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame

/// What a subscription's callbacks saw: each event, whether it ran where it should, and
/// how many times `onCompletion` ran.
final class SubscriptionProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [AuthenticationEvent<TestSchema>] = []
    private var misplaced = 0
    private var completions = 0
    private let isExpectedPlace: @Sendable () -> Bool

    init(where isExpectedPlace: @escaping @Sendable () -> Bool = { true }) {
        self.isExpectedPlace = isExpectedPlace
    }

    var all: [AuthenticationEvent<TestSchema>] { lock.withLock { events } }
    /// Calls that ran somewhere else than expected.
    var misplacedCalls: Int { lock.withLock { misplaced } }
    var completionCount: Int { lock.withLock { completions } }

    func onEvent(_ event: AuthenticationEvent<TestSchema>) {
        let placed = isExpectedPlace()
        lock.withLock {
            events.append(event)
            if !placed { misplaced += 1 }
        }
    }

    func onCompletion() {
        let placed = isExpectedPlace()
        lock.withLock {
            completions += 1
            if !placed { misplaced += 1 }
        }
    }
}

extension AuthenticationService where Schema == TestSchema {
    /// Subscribes a probe with the given options.
    func subscribe(
        _ probe: SubscriptionProbe, stores: Bool = true, delivery: EventDelivery = .task,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Subscription {
        subscribe(
            stores: stores, delivery: delivery, file: file, line: line,
            { probe.onEvent($0) }, onCompletion: { probe.onCompletion() })
    }
}

/// `subscribe(stores:delivery:file:line:_:onCompletion:)`: who keeps a subscription, how it
/// ends (its completion is called once whichever way), and what its description shows.
@Suite struct SubscriptionTests {
    let u1 = TestDetails(uid: "u1", provider: "guest")

    /// Lets delivery tasks run: a completion called twice would show by then.
    func settle() async throws { try await Task.sleep(for: .milliseconds(20)) }

    @Test func cancellingCallsTheCompletionOnceAndStopsTheEvents() async throws {
        let env = TestEnvironment()
        let probe = SubscriptionProbe()
        let subscription = await env.service.subscribe(probe)
        #expect(await poll { probe.all.count == 1 })
        subscription.cancel()
        #expect(await poll { probe.completionCount == 1 })
        #expect(subscription.isCancelled)
        subscription.cancel()
        await env.service.unsubscribeFromAll()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        try await settle()
        #expect(probe.completionCount == 1)
        #expect(probe.all == [.stateChanged(.unauthenticated)])
    }

    @Test func unsubscribeFromAllEndsStoredSubscriptionsWithOneCompletionEach() async throws {
        let env = TestEnvironment()
        let first = SubscriptionProbe()
        let second = SubscriptionProbe()
        let subscription = await env.service.subscribe(first)
        _ = await env.service.subscribe(second)
        #expect(await env.service.storedSubscriptionCount == 2)
        await env.service.unsubscribeFromAll()
        #expect(await poll { first.completionCount == 1 && second.completionCount == 1 })
        #expect(await env.service.storedSubscriptionCount == 0)
        subscription.cancel()
        await env.service.unsubscribeFromAll()
        try await settle()
        #expect(first.completionCount == 1)
        #expect(second.completionCount == 1)
    }

    @Test func theServiceGoingAwayEndsEverySubscriptionWithOneCompletionEach() async throws {
        var env: TestEnvironment<TestSchema>? = TestEnvironment()
        let stored = SubscriptionProbe()
        let kept = SubscriptionProbe()
        _ = await env!.service.subscribe(stored)
        let keptSubscription = await env!.service.subscribe(kept, stores: false)
        #expect(await poll { stored.all.count == 1 && kept.all.count == 1 })
        weak let service = env!.service
        env = nil
        #expect(await poll { service == nil })
        #expect(await poll { stored.completionCount == 1 && kept.completionCount == 1 })
        keptSubscription.cancel()
        try await settle()
        #expect(stored.completionCount == 1)
        #expect(kept.completionCount == 1)
    }

    @Test func unsubscribeFromAllLeavesSubscriptionsTheCallerKeeps() async throws {
        let env = TestEnvironment()
        let stored = SubscriptionProbe()
        let kept = SubscriptionProbe()
        _ = await env.service.subscribe(stored, stores: true)
        let keptSubscription = await env.service.subscribe(kept, stores: false)
        #expect(await env.service.storedSubscriptionCount == 1)
        #expect(await poll { stored.all.count == 1 && kept.all.count == 1 })
        await env.service.unsubscribeFromAll()
        #expect(await poll { stored.completionCount == 1 })
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        #expect(await poll { kept.all.count == 2 })
        #expect(kept.all == [.stateChanged(.unauthenticated), .stateChanged(.authenticated(u1))])
        #expect(kept.completionCount == 0)
        #expect(stored.all == [.stateChanged(.unauthenticated)])
        keptSubscription.cancel()
        #expect(await poll { kept.completionCount == 1 })
    }

    @Test func aSubscriptionTheCallerKeepsEndsWhenTheCallerLetsGoOfIt() async throws {
        let env = TestEnvironment()
        let probe = SubscriptionProbe()
        var subscription: Subscription? = await env.service.subscribe(probe, stores: false)
        #expect(await poll { probe.all.count == 1 })
        #expect(await env.service.subscriberCount == 1)
        subscription = nil
        #expect(await poll { probe.completionCount == 1 })
        #expect(await poll { await env.service.subscriberCount == 0 })
        _ = subscription
    }

    @Test func aStoredSubscriptionGoesOnWhenTheCallerLetsGoOfIt() async throws {
        let env = TestEnvironment()
        let probe = SubscriptionProbe()
        var subscription: Subscription? = await env.service.subscribe(probe)
        subscription = nil
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        #expect(await poll { probe.all.count == 2 })
        #expect(probe.completionCount == 0)
        _ = subscription
    }

    @Test func theDescriptionShowsWhereTheSubscriptionWasMadeAndNoEventContent() async throws {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let probe = SubscriptionProbe()
        let line: UInt = #line + 1
        let subscription = await env.service.subscribe(probe, stores: false, delivery: .queue(DispatchQueue(label: "ui")))
        #expect(await poll { probe.all.count == 1 })
        #expect(subscription.description == "Subscription(SesameTests/SubscriptionTests.swift:\(line))")
        #expect(
            subscription.debugDescription
                == "Subscription(SesameTests/SubscriptionTests.swift:\(line), kept by the caller, delivery: queue ui, active)")
        subscription.cancel()
        #expect(subscription.debugDescription.hasSuffix(", cancelled)"))
        for text in [subscription.description, subscription.debugDescription] {
            #expect(!text.contains("u1") && !text.contains("at-"))
        }
        let defaultLine: UInt = #line + 1
        let defaulted = await env.service.subscribe { _ in }
        #expect(defaulted.description == "Subscription(SesameTests/SubscriptionTests.swift:\(defaultLine))")
        #expect(defaulted.debugDescription.contains("stored by the service, delivery: task"))
    }
}
