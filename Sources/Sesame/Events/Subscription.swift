import Foundation

/// A callback subscription to an ``AuthenticationService``'s events.
///
/// Who keeps it depends on `stores:` when subscribing:
/// - stored by the service (the default): it lives until ``cancel()``,
///   `unsubscribeFromAll()` or the service going away; the returned value may be ignored;
/// - returned to the caller only (`stores: false`): the caller keeps it; it ends on
///   ``cancel()``, when the caller's last reference to it goes away, or when the service
///   goes away, but not on `unsubscribeFromAll()`.
///
/// However it ends, its `onCompletion` callback is called once. Its ``description`` names
/// the place it was created (file and line), never an event's content.
public final class Subscription: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The file that subscribed (`#fileID`).
    public let file: StaticString
    /// The line that subscribed.
    public let line: UInt
    /// Whether the service keeps this subscription (`stores:` when subscribing).
    public let isStored: Bool
    let delivery: EventDelivery
    let flag: CancellationFlag
    private let cancellation: @Sendable () -> Void

    init(
        file: StaticString = #fileID, line: UInt = #line, isStored: Bool = true, delivery: EventDelivery = .task,
        flag: CancellationFlag = CancellationFlag(), cancellation: @escaping @Sendable () -> Void
    ) {
        self.flag = flag
        self.file = file
        self.line = line
        self.isStored = isStored
        self.delivery = delivery
        self.cancellation = cancellation
    }

    deinit {
        cancel()
    }

    /// Stops the events: the callback is not called again once this returns, except for a
    /// call already running; then `onCompletion` is called. Cancelling twice does nothing more.
    public func cancel() {
        guard flag.cancel() else { return }
        cancellation()
    }

    /// Whether ``cancel()`` was called: directly, by `unsubscribeFromAll()`, when the caller
    /// released a subscription it kept, or when the service that stored it went away.
    public var isCancelled: Bool { flag.isCancelled }

    /// Where the subscription was made, as `Subscription(File.swift:42)`.
    public var description: String { "Subscription(\(file):\(line))" }

    /// Where it was made, who keeps it, where it delivers and whether it was cancelled.
    public var debugDescription: String {
        let keeper = isStored ? "stored by the service" : "kept by the caller"
        let status = isCancelled ? "cancelled" : "active"
        return "Subscription(\(file):\(line), \(keeper), delivery: \(delivery.description), \(status))"
    }

    /// Subscriptions are equal when they are the same object.
    public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Set once, read from any thread: whether a subscription was cancelled.
///
/// `@unchecked Sendable`: `cancelled` is only read and written under `lock`.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// Whether `cancel()` was called.
    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Marks it cancelled; true the first time only.
    func cancel() -> Bool {
        lock.withLock {
            defer { cancelled = true }
            return !cancelled
        }
    }
}
