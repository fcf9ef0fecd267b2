import Logging

/// The subscribers of a service: one bounded `AsyncStream` each, fed in order.
///
/// Policy: each subscriber has a buffer of `capacity` events. While a subscriber keeps up,
/// it gets every event in order. When it falls `capacity` events behind, the OLDEST
/// undelivered events are dropped (`bufferingNewest`), so the latest state always arrives.
/// Drops are logged as a warning at a subscriber's 1st, 2nd, 4th, 8th… drop, with the count so
/// far: a subscriber that holds its stream and never reads it cannot flood the log.
struct EventBroadcaster<Event: Sendable>: Sendable {
    private var continuations: [UInt64: AsyncStream<Event>.Continuation] = [:]
    /// How many events each subscriber has lost so far.
    private var drops: [UInt64: Int] = [:]
    private var nextID: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds a subscriber and returns its stream and its identifier.
    mutating func add() -> (id: UInt64, stream: AsyncStream<Event>, continuation: AsyncStream<Event>.Continuation) {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(capacity))
        nextID += 1
        continuations[nextID] = continuation
        return (nextID, stream, continuation)
    }

    /// Forgets a subscriber whose stream ended.
    mutating func remove(_ id: UInt64) {
        continuations[id] = nil
        drops[id] = nil
    }

    /// Sends an event to every subscriber.
    mutating func broadcast(_ event: Event, logger: Logger) {
        for (id, continuation) in continuations {
            if case .dropped = continuation.yield(event) {
                let dropped = drops[id, default: 0] + 1
                drops[id] = dropped
                if dropped & (dropped - 1) == 0 {
                    logger.warning(
                        "a subscriber fell behind: dropped its oldest events",
                        metadata: ["subscriber": "\(id)", "dropped": "\(dropped)"])
                }
            }
        }
    }

    /// Ends every subscriber's stream but those in `kept`.
    mutating func finishAll(except kept: Set<UInt64> = []) {
        let ending = continuations.filter { !kept.contains($0.key) }
        for id in ending.keys {
            continuations[id] = nil
            drops[id] = nil
        }
        for continuation in ending.values { continuation.finish() }
    }

    /// Ends every subscriber's stream without forgetting them (for `deinit`).
    func finishEach() {
        for continuation in continuations.values { continuation.finish() }
    }

    var count: Int { continuations.count }
}
