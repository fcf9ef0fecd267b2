#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
import Testing
@testable import Sesame
import SesameCombine

/// Collects what a Combine sink receives, under a lock.
final class Received<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    private var finished = false
    var all: [Value] { lock.withLock { values } }
    var isFinished: Bool { lock.withLock { finished } }
    func append(_ value: Value) { lock.withLock { values.append(value) } }
    func finish() { lock.withLock { finished = true } }
}

/// The wrapper over OpenCombine on Linux (Apple's Combine on Apple platforms).
@Suite struct CombineAuthenticationServiceTests {
    let u1 = StubDetails(uid: "u1")

    @Test func theStatePublisherSendsTheCurrentStateFirstThenTheChangesOfASignInAndSignOut() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        let states = Received<AuthenticationState<StubDetails>>()
        let cancellable = service.forCombine.state.sink { states.append($0) }
        #expect(await eventually { states.all.count == 1 })
        _ = try await service.authenticate(with: StubMethod.guest)
        await service.unauthenticate()
        #expect(await eventually { states.all.count == 3 })
        #expect(states.all == [.unauthenticated, .authenticated(u1), .unauthenticated])
        cancellable.cancel()
    }

    @Test func theEventPublisherStartsWithTheCurrentStateOfAServiceAlreadySignedIn() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        _ = try await service.authenticate(with: StubMethod.guest)
        let events = Received<AuthenticationEvent<StubSchema>>()
        let cancellable = service.forCombine.events.sink { events.append($0) }
        #expect(await eventually { events.all.count == 1 })
        #expect(events.all == [.stateChanged(.authenticated(u1))])
        cancellable.cancel()
    }

    @Test func aFutureResolvesWithTheSignInResult() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        let results = Received<Result<StubDetails, any Error>>()
        let cancellable = service.forCombine.authenticate(with: StubMethod.password("secret")).sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { results.append(.failure(error)) }
            },
            receiveValue: { results.append(.success($0)) })
        #expect(await eventually { results.all.count == 1 })
        #expect(try results.all.first?.get() == StubDetails(uid: "u2"))
        #expect(await service.state == .authenticated(StubDetails(uid: "u2")))
        cancellable.cancel()
    }

    @Test func aFutureFailsWithTheSchemasTypedErrorWhenTheSignInIsRefused() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        let failures = Received<any Error>()
        let values = Received<StubDetails>()
        let cancellable = service.forCombine.authenticate(with: StubMethod.password("wrong")).sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { failures.append(error) }
            },
            receiveValue: { values.append($0) })
        #expect(await eventually { failures.all.count == 1 })
        let error = try #require(failures.all.first as? StubServerError)
        #expect(error.response.code == "invalid_grant")
        #expect(error.response.status == 400)
        #expect(values.all.isEmpty)
        #expect(await service.state == .unauthenticated)
        cancellable.cancel()
    }

    @Test func unauthenticateAndRestoreSessionAreFuturesThatNeverFail() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        _ = try await service.authenticate(with: StubMethod.guest)
        let results = Received<UnauthenticationResult>()
        let signOut = service.forCombine.unauthenticate().sink { results.append($0) }
        #expect(await eventually { results.all.count == 1 })
        #expect(results.all == [.revoked])
        let restored = Received<AuthenticationState<StubDetails>>()
        let restore = service.forCombine.restoreSession().sink { restored.append($0) }
        #expect(await eventually { restored.all.count == 1 })
        #expect(restored.all == [.unauthenticated])
        signOut.cancel()
        restore.cancel()
    }

    @Test func cancellingTheCancellableStopsDeliveryAndEndsTheServicesSubscriber() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        let cancelled = Received<AuthenticationState<StubDetails>>()
        let witness = Received<AuthenticationState<StubDetails>>()
        let cancellable = service.forCombine.state.sink { cancelled.append($0) }
        let kept = service.forCombine.state.sink { witness.append($0) }
        #expect(await eventually { cancelled.all.count == 1 && witness.all.count == 1 })
        #expect(await service.subscriberCount == 2)
        cancellable.cancel()
        #expect(await eventually { await service.subscriberCount == 1 })
        _ = try await service.authenticate(with: StubMethod.guest)
        await service.unauthenticate()
        // The subscriber still attached saw both changes go by; the cancelled one saw neither.
        #expect(await eventually { witness.all.count == 3 })
        #expect(cancelled.all == [.unauthenticated])
        kept.cancel()
    }

    @Test func unsubscribeFromAllLeavesCombineSubscribersAlone() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        let states = Received<AuthenticationState<StubDetails>>()
        let cancellable = service.forCombine.state.sink(
            receiveCompletion: { _ in states.finish() }, receiveValue: { states.append($0) })
        #expect(await eventually { states.all.count == 1 })
        await service.unsubscribeFromAll()
        _ = try await service.authenticate(with: StubMethod.guest)
        #expect(await eventually { states.all.count == 2 })
        #expect(!states.isFinished)
        cancellable.cancel()
    }

    @Test func thePublisherFinishesWhenTheServiceGoesAway() async throws {
        var service: AuthenticationService<StubSchema>? = .stub()
        let states = Received<AuthenticationState<StubDetails>>()
        let cancellable = service!.forCombine.state.sink(
            receiveCompletion: { _ in states.finish() }, receiveValue: { states.append($0) })
        #expect(await eventually { states.all.count == 1 })
        weak let gone = service
        service = nil
        #expect(await eventually { gone == nil })
        #expect(await eventually { states.isFinished })
        cancellable.cancel()
    }

    @Test func aSubscriberGetsOnlyWhatItDemands() async throws {
        let service = AuthenticationService<StubSchema>.stub()
        let subscriber = DemandingSubscriber()
        service.forCombine.events.subscribe(subscriber)
        #expect(await eventually { subscriber.received.all.count == 1 })
        _ = try await service.authenticate(with: StubMethod.guest)
        try await Task.sleep(for: .milliseconds(20))
        #expect(subscriber.received.all == [.stateChanged(.unauthenticated)])
        subscriber.request(.max(1))
        #expect(await eventually { subscriber.received.all.count == 2 })
        #expect(subscriber.received.all.last == .stateChanged(.authenticated(u1)))
        subscriber.cancel()
    }
}

/// A subscriber that asks for one event at first and more only when told.
final class DemandingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = AuthenticationEvent<StubSchema>
    typealias Failure = Never
    let received = Received<AuthenticationEvent<StubSchema>>()
    private let lock = NSLock()
    private var subscription: (any CombineSubscriptionProtocol)?

    func receive(subscription: any CombineSubscriptionProtocol) {
        lock.withLock { self.subscription = subscription }
        subscription.request(.max(1))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        received.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func request(_ demand: Subscribers.Demand) { lock.withLock { subscription }?.request(demand) }
    func cancel() { lock.withLock { subscription }?.cancel() }
}

#if canImport(Combine)
typealias CombineSubscriptionProtocol = Combine.Subscription
#else
typealias CombineSubscriptionProtocol = OpenCombine.Subscription
#endif
