#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Foundation
import Sesame

/// A publisher of an ``AuthenticationService``'s events: for each subscriber, the current
/// state first, then every event in order (`service.forCombine.events`).
///
/// It honours demand: events wait for the subscriber to ask for them, in the subscriber's
/// buffer of the service's `eventBufferCapacity` events, which drops its oldest events when
/// full, as for any of the service's subscribers. It never fails; it finishes when the
/// service goes away. Cancelling the subscription stops the events: none is received after
/// `cancel()` returns, except one already being received.
public struct AuthenticationEventPublisher<Schema: SDKSchema>: Publisher, Sendable {
    /// The service's events.
    public typealias Output = AuthenticationEvent<Schema>
    /// It never fails.
    public typealias Failure = Never

    let service: AuthenticationService<Schema>

    /// Subscribes `subscriber` to the service's events; see the type's documentation.
    public func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Never {
        let subscription = EventSubscription<Schema>(downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
        subscription.start(service)
    }
}

/// One subscriber's subscription to the service's events: a task reads the subscriber's
/// stream (one the caller owns, so `unsubscribeFromAll()` does not end it) and hands each
/// event to the subscriber when it has demand.
///
/// `@unchecked Sendable`: its mutable state is read and written under `lock`; the
/// subscriber is called by the reading task only, one call at a time, outside the lock.
final class EventSubscription<Schema: SDKSchema>: CombineSubscription, @unchecked Sendable {
    typealias Downstream = AnySubscriber<AuthenticationEvent<Schema>, Never>

    private let lock = NSLock()
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var waiter: CheckedContinuation<Bool, Never>?
    private var task: Task<Void, Never>?

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Starts reading the service's events, unless the subscriber already cancelled. The
    /// task holds the service only weakly, so that a subscriber never keeps it alive.
    func start(_ service: AuthenticationService<Schema>) {
        let reference = WeakService(service)
        let task = Task { await self.read(reference) }
        let cancelled = lock.withLock {
            guard downstream != nil else { return true }
            self.task = task
            return false
        }
        if cancelled { task.cancel() }
    }

    func request(_ more: Subscribers.Demand) {
        let resumed: CheckedContinuation<Bool, Never>? = lock.withLock {
            demand += more
            guard let waiter, demand > 0 else { return nil }
            demand -= 1
            self.waiter = nil
            return waiter
        }
        resumed?.resume(returning: true)
    }

    func cancel() {
        let (task, waiter) = lock.withLock {
            defer {
                downstream = nil
                self.task = nil
                self.waiter = nil
            }
            return (self.task, self.waiter)
        }
        task?.cancel()
        waiter?.resume(returning: false)
    }

    /// Hands the service's events to the subscriber as it asks for them, then finishes
    /// when the service goes away.
    private func read(_ reference: WeakService<Schema>) async {
        guard let stream = await reference.service?.callerOwnedEvents() else { return finish() }
        for await event in stream {
            guard await takeDemand() else { return }
            send(event)
        }
        finish()
    }

    /// Waits until the subscriber asks for an event and takes one from its demand.
    /// - Returns: false when the subscription was cancelled meanwhile.
    private func takeDemand() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer: Bool? = lock.withLock {
                guard downstream != nil else { return false }
                guard demand > 0 else {
                    waiter = continuation
                    return nil
                }
                demand -= 1
                return true
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    private func send(_ event: AuthenticationEvent<Schema>) {
        guard let downstream = lock.withLock({ downstream }) else { return }
        let more = downstream.receive(event)
        guard more > 0 else { return }
        lock.withLock { demand += more }
    }

    private func finish() {
        let downstream = lock.withLock {
            defer { self.downstream = nil }
            return self.downstream
        }
        downstream?.receive(completion: .finished)
    }
}

/// A weak reference to a service that can cross into a task.
///
/// `@unchecked Sendable`: `service` is set once, in `init`; weak references are safe to
/// read from any thread.
private final class WeakService<Schema: SDKSchema>: @unchecked Sendable {
    weak var service: AuthenticationService<Schema>?

    init(_ service: AuthenticationService<Schema>) {
        self.service = service
    }
}
