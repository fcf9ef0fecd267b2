import Foundation

/// An open event stream: the buffered events to replay first, then the live ones.
struct EventSubscription: Sendable {
    var id: UUID
    var replay: [ServerSentEvent]
    var events: AsyncStream<ServerSentEvent>
}

extension ReferenceServerState {
    /// Opens an event stream for `uid`. With `lastEventID`, the buffered events after it are
    /// replayed first; events pushed from now on follow, with no gap and no duplicate.
    func subscribe(uid: String, lastEventID: Int?) -> EventSubscription {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self, bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        subscribers[id] = Subscriber(uid: uid, continuation: continuation)
        let replay = lastEventID.map { last in (eventBuffers[uid] ?? []).filter { $0.id > last } } ?? []
        return EventSubscription(id: id, replay: replay, events: stream)
    }

    func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    /// Pushes an event with `name` and `data` to every open stream of `uid` and keeps it for
    /// replay. Works for any uid, even one with no account yet. Throws
    /// ``ControlError/invalidEventName(_:)`` for an empty name or one with a line break.
    @discardableResult
    public func pushEvent(toUser uid: String, name: String, data: String) throws -> ServerSentEvent {
        guard !name.isEmpty, !name.contains(where: \.isNewline) else { throw ControlError.invalidEventName(name) }
        let id = (lastEventIDs[uid] ?? 0) + 1
        lastEventIDs[uid] = id
        let event = ServerSentEvent(id: id, event: name, data: data)
        var buffer = eventBuffers[uid] ?? []
        buffer.append(event)
        if buffer.count > configuration.eventBufferSize {
            buffer.removeFirst(buffer.count - configuration.eventBufferSize)
        }
        eventBuffers[uid] = buffer
        for subscriber in subscribers.values where subscriber.uid == uid {
            subscriber.continuation.yield(event)
        }
        return event
    }

    /// Pushes an event whose data is `payload` written as one line of JSON.
    @discardableResult
    func pushEvent(toUser uid: String, name: String, payload: JSONValue) throws -> ServerSentEvent {
        try pushEvent(toUser: uid, name: name, data: WireCoding.jsonString(payload))
    }

    /// Counts a heartbeat written to an event stream (``heartbeatsWritten``).
    func noteHeartbeatWritten() {
        heartbeatsWritten += 1
    }

    /// The events kept for `uid`'s replay, oldest first.
    public func bufferedEvents(ofUser uid: String) -> [ServerSentEvent] {
        eventBuffers[uid] ?? []
    }

    /// The number of event streams open for `uid`, or for everyone when `uid` is nil.
    public func openEventStreams(ofUser uid: String? = nil) -> Int {
        subscribers.values.filter { uid == nil || $0.uid == uid }.count
    }

    /// Ends the open event streams of `uid` (everyone's when nil), as a dropped connection
    /// would; clients reconnect with `Last-Event-ID`.
    public func disconnectEventStreams(ofUser uid: String? = nil) {
        for (id, subscriber) in subscribers where uid == nil || subscriber.uid == uid {
            subscriber.continuation.finish()
            subscribers[id] = nil
        }
    }
}
