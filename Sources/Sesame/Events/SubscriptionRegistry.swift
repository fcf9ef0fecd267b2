/// The callback subscriptions of a service, and which subscribers the caller keeps.
///
/// The streams themselves live in the service's ``EventBroadcaster``; this records what
/// `unsubscribeFromAll()` and `deinit` need: the delivery task of each callback
/// subscription, the subscriptions the service stores (kept alive here), and the
/// subscribers kept by their caller, which `unsubscribeFromAll()` leaves alone.
struct SubscriptionRegistry: Sendable {
    private var tasks: [UInt64: Task<Void, Never>] = [:]
    private var stored: [UInt64: Subscription] = [:]
    /// Subscribers (callback or stream) that only their caller can end.
    private(set) var callerOwned: Set<UInt64> = []

    /// Records a callback subscription and its delivery task.
    mutating func add(_ subscription: Subscription, id: UInt64, task: Task<Void, Never>) {
        tasks[id] = task
        if subscription.isStored {
            stored[id] = subscription
        } else {
            callerOwned.insert(id)
        }
    }

    /// Records a stream subscriber that `unsubscribeFromAll()` must not end.
    mutating func addCallerOwnedStream(id: UInt64) {
        callerOwned.insert(id)
    }

    /// Forgets a subscriber whose stream ended, releasing its subscription if stored.
    mutating func remove(_ id: UInt64) {
        tasks[id] = nil
        callerOwned.remove(id)
        stored[id] = nil
    }

    /// Forgets and returns every stored subscription, for `unsubscribeFromAll()` to cancel.
    mutating func removeStored() -> [Subscription] {
        let ending = Array(stored.values)
        for id in stored.keys { tasks[id] = nil }
        stored = [:]
        return ending
    }

    /// Cancels every delivery task (for `deinit`).
    func cancelTasks() {
        for task in tasks.values { task.cancel() }
    }

    /// The number of subscriptions the service stores.
    var storedCount: Int { stored.count }
}
