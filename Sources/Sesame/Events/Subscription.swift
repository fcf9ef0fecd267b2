/// A callback subscription to an ``AuthenticationService``'s events. Keep it for as long
/// as you want the events; ``cancel()`` it to stop them. The service also ends every
/// subscription in `unsubscribeFromAll()` and when it goes away.
public final class Subscription: Sendable, Hashable {
    private let cancellation: @Sendable () -> Void

    init(cancellation: @escaping @Sendable () -> Void) {
        self.cancellation = cancellation
    }

    /// Stops the events: the callback is not called again once this returns, except for a
    /// call already running. Cancelling twice does nothing more.
    public func cancel() {
        cancellation()
    }

    /// Subscriptions are equal when they are the same object.
    public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
