/// One subscriber's events, as ``AuthenticationService/events()`` returns them: an
/// `AsyncSequence` that never throws, iterated with `for await`.
///
/// It behaves as the `AsyncStream` that `events()` returned before, with a buffer of the
/// configuration's `eventBufferCapacity` events:
/// - while its consumer keeps up, it gets every event, in order;
/// - when the consumer falls `eventBufferCapacity` events behind, the OLDEST undelivered
///   events are dropped, so the latest state always arrives (the service logs a warning);
/// - when the service ends it (``AuthenticationService/unsubscribeFromAll()``, or the service
///   going away), the consumer gets what is buffered, then the iteration ends;
/// - when the consumer's task is cancelled, it ends: no new event is buffered and the service
///   forgets the subscriber, but the events already buffered are still delivered, then `nil`
///   (as `AsyncStream`'s iterator does; a cancelled `for await` loop drains at most
///   `eventBufferCapacity` events before it ends);
/// - when the last copy of the stream and of its iterator goes away, it ends, the service
///   forgets the subscriber and what was buffered is released.
///
/// One task at a time may iterate a stream (as with `AsyncStream`, a second task waiting in
/// `next()` at the same time is a fatal error): for several consumers, call `events()` once each. Its buffer is Sesame's own rather than `AsyncStream`'s, whose
/// unspecialized storage cost several microseconds per event and subscriber.
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let consumer: Consumer

    init(_ buffer: EventBuffer<Element>) {
        consumer = Consumer(buffer)
    }

    /// Takes the stream's events one at a time; `nil` once it ended.
    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Failure = Never

        private let consumer: Consumer

        init(_ consumer: Consumer) {
            self.consumer = consumer
        }

        /// The next event, waiting for it if none is buffered; `nil` once the stream ended and
        /// its buffer is empty (and then always). A cancelled calling task ends the stream but
        /// still gets the events already buffered, then `nil`, as with `AsyncStream`.
        public mutating func next() async -> Element? {
            await consumer.buffer.next(isolation: nil)
        }

        /// The next event, as ``next()``, staying on `actor` while it waits.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await consumer.buffer.next(isolation: actor)
        }
    }

    /// An iterator over the stream; every iterator takes from the same buffer.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer)
    }

    /// The consuming side of a buffer: when the last stream or iterator holding it goes
    /// away, nobody can read the buffer any more, so it ends it (`AsyncStream` does the same).
    final class Consumer: Sendable {
        let buffer: EventBuffer<Element>

        init(_ buffer: EventBuffer<Element>) {
            self.buffer = buffer
        }

        deinit {
            buffer.consumerGone()
        }
    }
}
