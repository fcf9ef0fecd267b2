import Dispatch

/// Where a callback subscription's `onEvent` and `onCompletion` run (see
/// ``AuthenticationService/subscribe(stores:delivery:file:line:_:onCompletion:)``).
///
/// Whatever the choice, a subscription's calls happen one at a time and in order: the next
/// event is handed over only once the previous call has returned, so a slow callback makes
/// its own buffer fill (and lose its oldest events) rather than queue work without bound.
/// Delivery never fails; a queue or actor that never runs its work only stops that
/// subscription's events.
public struct EventDelivery: Sendable, CustomStringConvertible {
    /// Runs `body` where this delivery says; returns once it has run.
    let run: @Sendable (_ body: @escaping @Sendable () -> Void) async -> Void
    /// Says where, for ``Subscription``'s debug description.
    public let description: String

    private init(description: String, run: @escaping @Sendable (_ body: @escaping @Sendable () -> Void) async -> Void) {
        self.description = description
        self.run = run
    }

    /// In a task of the subscription's own, on Swift's global concurrent executor: any
    /// thread, never the caller's actor. The default, and what `subscribe(_:)` always did.
    public static let task = EventDelivery(description: "task") { body in body() }

    /// On the main actor (the main thread): for callbacks that update the UI.
    public static let mainActor = EventDelivery(description: "main actor") { body in
        await MainActor.run { body() }
    }

    /// On a dispatch queue, as Webcom's `queue:` parameter. Each call is submitted with
    /// `async` and awaited before the next, so the order holds on a concurrent queue too.
    public static func queue(_ queue: DispatchQueue) -> EventDelivery {
        EventDelivery(description: "queue \(queue.label)") { body in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                queue.async {
                    body()
                    continuation.resume()
                }
            }
        }
    }

    /// Isolated to an actor: each call runs on the actor's executor, so it may use the
    /// actor's state through `assumeIsolated`. This is how to deliver on a custom
    /// `SerialExecutor`: give an actor whose `unownedExecutor` is that executor.
    public static func isolated(to actor: any Actor) -> EventDelivery {
        EventDelivery(description: "actor \(type(of: actor))") { body in
            await runIsolated(to: actor, body)
        }
    }

    /// On a task executor (`TaskExecutor`): each call runs with that executor preferred, as
    /// inside `withTaskExecutorPreference(_:operation:)`.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    public static func executor(_ executor: any TaskExecutor) -> EventDelivery {
        EventDelivery(description: "task executor \(type(of: executor))") { body in
            await withTaskExecutorPreference(executor) { body() }
        }
    }

    private static func runIsolated(to actor: isolated any Actor, _ body: @Sendable () -> Void) {
        body()
    }
}
