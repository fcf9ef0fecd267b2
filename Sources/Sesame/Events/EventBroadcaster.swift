import Logging

/// The subscribers of a service: one bounded `EventBuffer` each, fed in order.
///
/// Policy: each subscriber has a buffer of `capacity` events. While a subscriber keeps up,
/// it gets every event in order. When it falls `capacity` events behind, the OLDEST
/// undelivered events are dropped (as `AsyncStream`'s `bufferingNewest`), so the latest state always arrives.
/// Drops are logged as a warning at a subscriber's 1st, 2nd, 4th, 8th… drop, with the count so
/// far: a subscriber that holds its stream and never reads it cannot flood the log.
struct EventBroadcaster<Event: Sendable>: Sendable {
    private var buffers: [UInt64: EventBuffer<Event>] = [:]
    /// How many events each subscriber has lost so far.
    private var drops: [UInt64: Int] = [:]
    private var nextID: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds a subscriber and returns its identifier, its stream and the buffer behind it.
    mutating func add() -> (id: UInt64, stream: EventStream<Event>, buffer: EventBuffer<Event>) {
        let buffer = EventBuffer<Event>(capacity: capacity)
        nextID += 1
        buffers[nextID] = buffer
        return (nextID, EventStream(buffer), buffer)
    }

    /// Forgets a subscriber whose stream ended.
    mutating func remove(_ id: UInt64) {
        buffers[id] = nil
        drops[id] = nil
    }

    /// Sends an event to every subscriber.
    mutating func broadcast(_ event: Event, logger: Logger) {
        for (id, buffer) in buffers {
            if buffer.yield(event) == .dropped {
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
        let ending = buffers.filter { !kept.contains($0.key) }
        for id in ending.keys {
            buffers[id] = nil
            drops[id] = nil
        }
        for buffer in ending.values { buffer.finish() }
    }

    /// Ends every subscriber's stream without forgetting them (for `deinit`).
    func finishEach() {
        for buffer in buffers.values { buffer.finish() }
    }

    var count: Int { buffers.count }
}
