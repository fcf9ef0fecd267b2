import Foundation
import SesameTestSupport
import Testing
@testable import Sesame

/// `EventDelivery`: each callback, `onCompletion` included, runs where the subscriber said.
@Suite struct SubscriptionDeliveryTests {
    let u1 = TestDetails(uid: "u1", provider: "guest")

    /// Signs in and out, cancels the subscription, and checks that the probe saw the three
    /// states in order, then one completion, with every call in its expected place.
    func signInAndOut(_ env: TestEnvironment<TestSchema>, _ probe: SubscriptionProbe, _ subscription: Subscription) async throws {
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        await env.service.unauthenticate()
        #expect(await poll { probe.all.count == 3 })
        subscription.cancel()
        #expect(await poll { probe.completionCount == 1 })
        #expect(probe.all == [.stateChanged(.unauthenticated), .stateChanged(.authenticated(u1)), .stateChanged(.unauthenticated)])
        #expect(probe.misplacedCalls == 0)
    }

    @Test func onADispatchQueue() async throws {
        let env = TestEnvironment()
        let marked = MarkedQueue("sesame.test.delivery")
        let probe = SubscriptionProbe(where: { marked.isCurrent })
        let subscription = await env.service.subscribe(probe, delivery: .queue(marked.queue))
        try await signInAndOut(env, probe, subscription)
    }

    /// On a concurrent queue each call is awaited before the next: the order holds.
    @Test func onAConcurrentQueueInOrder() async throws {
        let env = TestEnvironment()
        let marked = MarkedQueue("sesame.test.concurrent", attributes: .concurrent)
        let probe = SubscriptionProbe(where: { marked.isCurrent })
        let subscription = await env.service.subscribe(probe, delivery: .queue(marked.queue))
        for _ in 0..<20 {
            _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
            await env.service.unauthenticate()
        }
        #expect(await poll { probe.all.count == 41 })
        let expected =
            [AuthenticationEvent<TestSchema>.stateChanged(.unauthenticated)]
            + Array(repeating: [.stateChanged(.authenticated(u1)), .stateChanged(.unauthenticated)], count: 20).joined()
        #expect(probe.all == expected)
        #expect(probe.misplacedCalls == 0)
        subscription.cancel()
    }

    @Test func isolatedToAnActorWithACustomExecutor() async throws {
        let env = TestEnvironment()
        let marked = MarkedQueue("sesame.test.actor")
        let actor = QueueActor(marked)
        let probe = SubscriptionProbe(where: { marked.isCurrent })
        let subscription = await env.service.subscribe(probe, delivery: .isolated(to: actor))
        try await signInAndOut(env, probe, subscription)
    }

    @Test func onTheMainActor() async throws {
        let env = TestEnvironment()
        let main = MarkedQueue.main
        let probe = SubscriptionProbe(where: { main.isCurrent })
        let subscription = await env.service.subscribe(probe, delivery: .mainActor)
        try await signInAndOut(env, probe, subscription)
    }

    @Test func onATaskExecutor() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
        let env = TestEnvironment()
        let marked = MarkedQueue("sesame.test.executor")
        let probe = SubscriptionProbe(where: { marked.isCurrent })
        let subscription = await env.service.subscribe(probe, delivery: .executor(QueueTaskExecutor(marked)))
        try await signInAndOut(env, probe, subscription)
    }

    /// The default: a task of its own, so never the main queue.
    @Test func byDefaultInATaskOfItsOwnOffTheMainQueue() async throws {
        let env = TestEnvironment()
        let main = MarkedQueue.main
        let probe = SubscriptionProbe(where: { !main.isCurrent })
        let subscription = await env.service.subscribe(probe)
        try await signInAndOut(env, probe, subscription)
    }

    /// A completion delivered on a queue: `dispatchPrecondition` holds there.
    @Test func theCompletionRunsOnTheQueueToo() async throws {
        let env = TestEnvironment()
        let marked = MarkedQueue("sesame.test.completion")
        let probe = SubscriptionProbe()
        let subscription = await env.service.subscribe(stores: false, delivery: .queue(marked.queue), { _ in }) {
            dispatchPrecondition(condition: .onQueue(marked.queue))
            probe.onCompletion()
        }
        await env.service.unsubscribeFromAll()
        try await Task.sleep(for: .milliseconds(5))
        #expect(probe.completionCount == 0)
        subscription.cancel()
        #expect(await poll { probe.completionCount == 1 })
    }
}
