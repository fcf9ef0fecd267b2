import Foundation
import HTTPTypes
import OpenAPIRuntime

extension AuthenticationService {
    /// A stream of this service's events for one subscriber: the current state first, then
    /// every event in order. The stream ends on `unsubscribeFromAll()`, when the service
    /// goes away, or when its consumer stops iterating. A subscriber more than
    /// `eventBufferCapacity` events behind loses its oldest undelivered events (see
    /// docs/runtime.md), so the latest state always arrives.
    public func events() -> AsyncStream<AuthenticationEvent<Schema>> {
        let (id, stream, continuation) = broadcaster.add()
        continuation.yield(.stateChanged(machine.current))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        return stream
    }

    /// Calls `onEvent` with this service's events, one at a time and in order, starting
    /// with the current state, until the subscription is cancelled, `unsubscribeFromAll()`
    /// is called, or the service goes away.
    /// - Returns: the subscription; cancel it to stop the events.
    public func subscribe(_ onEvent: @escaping @Sendable (AuthenticationEvent<Schema>) -> Void) -> Subscription {
        let (id, stream, continuation) = broadcaster.add()
        continuation.yield(.stateChanged(machine.current))
        let task = Task {
            for await event in stream {
                guard !Task.isCancelled else { break }
                onEvent(event)
            }
        }
        callbackTasks[id] = task
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        return Subscription {
            task.cancel()
            continuation.finish()
        }
    }

    /// Ends every subscription and every event stream of this service. Later subscribers
    /// are not affected.
    public func unsubscribeFromAll() {
        for task in callbackTasks.values { task.cancel() }
        callbackTasks = [:]
        broadcaster.finishAll()
    }

    /// The number of live subscribers, for tests.
    var subscriberCount: Int { broadcaster.count }

    func removeSubscriber(_ id: UInt64) {
        broadcaster.remove(id)
        callbackTasks[id] = nil
    }

    // MARK: Server-sent events

    /// Starts the event stream while a session is in use, if the schema has one and the
    /// configuration wants it; stops it otherwise.
    func updateEventStream() {
        let inUse = machine.current.details != nil
        guard inUse, configuration.receivesServerEvents, let request = sdk.events.stream else {
            eventStreamTask?.cancel()
            eventStreamTask = nil
            return
        }
        guard eventStreamTask == nil else { return }
        let reference = WeakReference(self)
        let epoch = self.epoch
        let reader = EventStreamReader(
            connect: { lastEventID in
                guard let service = reference.value else { throw CancellationError() }
                return try await service.openEventStream(request, lastEventID: lastEventID)
            },
            deliver: { event in
                guard let service = reference.value else { return false }
                await service.receive(event, epoch: epoch)
                return true
            },
            reconnectDelay: configuration.eventStreamReconnectDelay, logger: logger)
        eventStreamTask = Task { await reader.run() }
    }

    /// Opens the event stream once.
    /// - Throws: `Schema.ServerError` for an error response, ``SesameError`` otherwise.
    nonisolated func openEventStream(_ description: RequestDescription, lastEventID: String?) async throws -> HTTPBody? {
        var fields = HTTPFields()
        fields[.accept] = "text/event-stream"
        if let lastEventID, let name = HTTPField.Name("Last-Event-ID") { fields[name] = lastEventID }
        let request = HTTPRequest(method: description.method, scheme: nil, authority: nil,
                                  path: try OperationRequest(description).resolvedPath(), headerFields: fields)
        let (response, body) = try await transmit(request, body: nil, operation: description.name,
                                                  credential: description.authenticated ? .session : .none, streaming: true)
        guard (200..<300).contains(response.status.code) else {
            let data = try await body.collectedErrorBody(upTo: configuration.maximumResponseSize, operation: description.name)
            throw Self.publicError(BackEndError(response: ServerErrorParser.parse(
                status: response.status.code, headerFields: response.headerFields, body: data,
                catalogue: sdk.errors)))
        }
        return body
    }

    /// Delivers a server-sent event to subscribers; one whose wire name the schema marks
    /// as invalidating then makes the state `invalid`. Events for an older epoch are dropped.
    func receive(_ event: ServerSentEvent, epoch: UInt64) {
        guard epoch == self.epoch else { return }
        let wireName = event.event ?? "message"
        broadcaster.broadcast(.server(Schema.Event(wireName: wireName, data: Data((event.data ?? "").utf8))), logger: logger)
        if sdk.events.invalidating.contains(wireName) {
            logger.info("the back-end invalidated the session (\(wireName))")
            run(machine.credentialRejected())
        }
    }
}
