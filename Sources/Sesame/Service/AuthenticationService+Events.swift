import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// A stream of this service's events for one subscriber: the current state first, then
    /// every event in order. The stream ends on `unsubscribeFromAll()`, when the service
    /// goes away, or when its consumer's task is cancelled or it drops the stream. A
    /// subscriber more than `eventBufferCapacity` events behind loses its oldest undelivered
    /// events (see docs/runtime.md), so the latest state always arrives. ``EventStream``
    /// says more.
    public func events() -> EventStream<AuthenticationEvent<Schema>> {
        let (id, stream, buffer) = broadcaster.add()
        buffer.yield(.stateChanged(machine.current))
        buffer.setOnTermination { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        return stream
    }

    /// Calls `onEvent` with this service's events, one at a time and in order, starting
    /// with the current state, until the subscription ends; then calls `onCompletion` once.
    ///
    /// The options are Webcom's `subscribe(stores:file:line:queue:onEvent:onCompletion:)`:
    /// - `stores`: when true (the default) the service keeps the subscription, and
    ///   `unsubscribeFromAll()` or the service going away ends it; ignoring the result is
    ///   fine. When false only the caller keeps it: it ends on `cancel()`, when the caller's
    ///   last reference goes away (so ignoring the result ends it at once), or when the
    ///   service goes away, and `unsubscribeFromAll()` leaves it alone.
    /// - `delivery`: where both callbacks run (``EventDelivery``): a task of its own by
    ///   default, or a dispatch queue, the main actor, an actor, a task executor.
    /// - `file`, `line`: where the subscription was made, shown by its `description` to
    ///   find a subscription that was never cancelled.
    ///
    /// Subscribing never fails. A subscriber more than `eventBufferCapacity` events behind
    /// loses its oldest undelivered events, as with ``events()``.
    /// - Returns: the subscription; cancel it to stop the events.
    @discardableResult
    public func subscribe(
        stores: Bool = true,
        delivery: EventDelivery = .task,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ onEvent: @escaping @Sendable (AuthenticationEvent<Schema>) -> Void,
        onCompletion: (@Sendable () -> Void)? = nil
    ) -> Subscription {
        let (id, stream, buffer) = broadcaster.add()
        buffer.yield(.stateChanged(machine.current))
        let flag = CancellationFlag()
        let task = Task {
            await Self.deliver(stream, delivery: delivery, flag: flag, onEvent: onEvent, onCompletion: onCompletion)
        }
        let subscription = Subscription(file: file, line: line, isStored: stores, delivery: delivery, flag: flag) {
            task.cancel()
            buffer.finish()
        }
        subscriptions.add(subscription, id: id, task: task)
        buffer.setOnTermination { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        return subscription
    }

    /// Like ``events()``, but ``unsubscribeFromAll()`` does not end it: only its consumer
    /// (or the service going away) does. For wrappers such as SesameCombine's publishers,
    /// whose subscriptions their caller keeps.
    package func callerOwnedEvents() -> EventStream<AuthenticationEvent<Schema>> {
        let (id, stream, buffer) = broadcaster.add()
        subscriptions.addCallerOwnedStream(id: id)
        buffer.yield(.stateChanged(machine.current))
        buffer.setOnTermination { [weak self] _ in
            Task { await self?.removeSubscriber(id) }
        }
        return stream
    }

    /// Ends every subscription the service stores (``subscribe(stores:delivery:file:line:_:onCompletion:)``
    /// with `stores: true`, the default) and every ``events()`` stream; their
    /// `onCompletion` callbacks are called. Subscriptions made with `stores: false` go on.
    /// Later subscribers are not affected.
    public func unsubscribeFromAll() {
        for subscription in subscriptions.removeStored() { subscription.cancel() }
        broadcaster.finishAll(except: subscriptions.callerOwned)
    }

    /// The number of live subscribers, for tests.
    var subscriberCount: Int { broadcaster.count }

    /// The number of subscriptions the service stores, for tests.
    var storedSubscriptionCount: Int { subscriptions.storedCount }

    func removeSubscriber(_ id: UInt64) {
        broadcaster.remove(id)
        subscriptions.remove(id)
    }

    /// A callback subscription's delivery loop: every event of `stream` to `onEvent`
    /// unless cancelled, then `onCompletion`, each where `delivery` says. Not isolated to
    /// the service, so that no callback runs on the service's actor.
    private nonisolated static func deliver(
        _ stream: EventStream<AuthenticationEvent<Schema>>, delivery: EventDelivery, flag: CancellationFlag,
        onEvent: @escaping @Sendable (AuthenticationEvent<Schema>) -> Void, onCompletion: (@Sendable () -> Void)?
    ) async {
        for await event in stream {
            guard !Task.isCancelled, !flag.isCancelled else { break }
            await delivery.run {
                if !flag.isCancelled { onEvent(event) }
            }
        }
        if let onCompletion { await delivery.run(onCompletion) }
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
            reconnectDelay: configuration.eventStreamReconnectDelay, logger: logger,
            maximumEventSize: configuration.maximumResponseSize)
        eventStreamTask = Task { await reader.run() }
    }

    /// Opens the event stream once.
    /// - Throws: `Schema.ServerError` for an error response, ``SesameError`` otherwise.
    nonisolated func openEventStream(_ description: RequestDescription, lastEventID: String?) async throws -> HTTPBody? {
        var fields = HTTPFields()
        fields[.accept] = "text/event-stream"
        if let lastEventID, let name = HTTPField.Name("Last-Event-ID") { fields[name] = lastEventID }
        let request = HTTPRequest(
            method: HTTPRequest.Method(description.method), scheme: nil, authority: nil,
            path: try OperationRequest(description).resolvedPath(), headerFields: fields)
        let (response, body) = try await transmit(
            request, body: nil, operation: description.name,
            credential: description.authenticated ? .session : .none, streaming: true)
        guard (200..<300).contains(response.status.code) else {
            let data = try await body.collectedErrorBody(upTo: configuration.maximumResponseSize, operation: description.name)
            throw Self.publicError(
                BackEndError(
                    response: ServerErrorParser.parse(
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
