import Foundation
import SesameTestSupport
import Testing
@testable import Sesame

/// Records the reasons an `EventBuffer` reported to its `onTermination`.
final class TerminationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reasons: [EventBuffer<Int>.Termination] = []
    var all: [EventBuffer<Int>.Termination] { lock.withLock { reasons } }
    func append(_ reason: EventBuffer<Int>.Termination) { lock.withLock { reasons.append(reason) } }
}

/// `EventStream` and the `EventBuffer` behind it: the semantics `events()` had with
/// `AsyncStream` (`bufferingNewest`, finish, cancellation), one subscriber at a time.
@Suite struct EventStreamTests {
    /// A buffer of `capacity`, its stream, and a log of its terminations.
    func make(capacity: Int) -> (EventBuffer<Int>, EventStream<Int>, TerminationLog) {
        let buffer = EventBuffer<Int>(capacity: capacity)
        let log = TerminationLog()
        buffer.setOnTermination { log.append($0) }
        return (buffer, EventStream(buffer), log)
    }

    @Test func finishHandsOverWhatIsBufferedThenEnds() async {
        let (buffer, stream, log) = make(capacity: 8)
        for value in 1...3 { #expect(buffer.yield(value) == .enqueued) }
        buffer.finish()
        #expect(log.all == [.finished])
        #expect(buffer.yield(4) == .terminated)
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1, 2, 3])
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)  // and stays ended
        buffer.finish()
        buffer.cancel()
        #expect(log.all == [.finished])  // once, whatever ends it afterwards
    }

    @Test func aFullBufferDropsItsOldestElements() async {
        let (buffer, stream, _) = make(capacity: 3)
        let results = (1...5).map { buffer.yield($0) }
        #expect(results == [.enqueued, .enqueued, .enqueued, .dropped, .dropped])
        #expect(buffer.count == 3)
        buffer.finish()
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [3, 4, 5])
    }

    /// Over many rounds of the buffer filling and draining, the ring wraps around its slots
    /// again and again, and the order holds.
    @Test func orderHoldsAcrossManyFillsAndDrains() async {
        let (buffer, stream, _) = make(capacity: 100)
        var iterator = stream.makeAsyncIterator()
        var expected = 0
        var next = 0
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 60) {
                buffer.yield(next)
                next += 1
            }
            // All but up to 4: the buffer never holds more than 4 + 66 elements, below its capacity.
            for _ in 0..<(next - expected - round % 5) {
                let value = await iterator.next()
                #expect(value == expected)
                expected += 1
            }
        }
        #expect(buffer.count == next - expected)
        #expect(buffer.allocatedSlots == 100)  // grown by doubling from 16, never beyond the capacity
    }

    /// The ring grows while its elements wrap around the end of its slots, keeping their order.
    @Test func growingAWrappedRingKeepsTheOrder() async {
        let (buffer, stream, _) = make(capacity: 40)
        var iterator = stream.makeAsyncIterator()
        for value in 0..<12 { buffer.yield(value) }
        for value in 0..<10 { #expect(await iterator.next() == value) }
        for value in 12..<50 { buffer.yield(value) }  // wraps at 16, grows to 32 then 40: full, nothing dropped
        #expect(buffer.allocatedSlots == 40)
        buffer.finish()
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        #expect(received == Array(10..<50))
    }

    /// A task taking one element from `stream`, returned once it waits for it in `next()`.
    func waitingConsumer(of buffer: EventBuffer<Int>, _ stream: EventStream<Int>) async -> Task<Int?, Never> {
        let consumer = Task {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await poll { buffer.hasWaiter })
        return consumer
    }

    @Test func aWaitingConsumerGetsTheNextElement() async {
        let (buffer, stream, _) = make(capacity: 4)
        let consumer = await waitingConsumer(of: buffer, stream)
        #expect(buffer.yield(42) == .enqueued)
        #expect(await consumer.value == 42)
        #expect(!buffer.hasWaiter)
    }

    @Test func finishWakesAWaitingConsumerWithNil() async {
        let (buffer, stream, log) = make(capacity: 4)
        let consumer = Task {
            var received: [Int] = []
            for await value in stream { received.append(value) }
            return received
        }
        #expect(await poll { buffer.hasWaiter })
        buffer.finish()
        #expect(await consumer.value == [])
        #expect(log.all == [.finished])
    }

    @Test func cancellingTheWaitingTaskEndsTheStream() async {
        let (buffer, stream, log) = make(capacity: 4)
        let consumer = await waitingConsumer(of: buffer, stream)
        consumer.cancel()
        #expect(await consumer.value == nil)
        #expect(log.all == [.cancelled])
        #expect(buffer.yield(1) == .terminated)
    }

    /// A task cancelled before it asks ends the stream, but still gets what was buffered,
    /// then nil, as `AsyncStream`'s iterator does.
    @Test func aCancelledTaskStillGetsWhatIsBuffered() async {
        let (buffer, stream, log) = make(capacity: 4)
        buffer.yield(1)
        buffer.yield(2)
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var received: [Int] = []
            for await value in stream { received.append(value) }
            return received
        }
        #expect(await consumer.value == [1, 2])
        #expect(log.all == [.cancelled])
        #expect(buffer.yield(3) == .terminated)
    }

    /// Cancelled while it reads: nothing new is accepted, what was buffered still arrives.
    @Test func cancellingWhileReadingDeliversWhatWasBuffered() async {
        let (buffer, stream, log) = make(capacity: 8)
        for value in 1...5 { buffer.yield(value) }
        let consumer = Task {
            var received: [Int] = []
            for await value in stream {
                received.append(value)
                if value == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return received
        }
        #expect(await consumer.value == [1, 2, 3, 4, 5])
        #expect(log.all == [.cancelled])
        #expect(buffer.yield(6) == .terminated)
    }

    @Test func droppingTheStreamAndItsIteratorsEndsIt() async {
        let buffer = EventBuffer<Int>(capacity: 4)
        let log = TerminationLog()
        buffer.setOnTermination { log.append($0) }
        var stream: EventStream<Int>? = EventStream(buffer)
        var iterator = stream?.makeAsyncIterator()
        stream = nil
        #expect(log.all.isEmpty)  // the iterator still reads it
        buffer.yield(7)
        #expect(await iterator?.next() == 7)
        iterator = nil
        #expect(log.all == [.cancelled])
        #expect(buffer.yield(8) == .terminated)
    }

    @Test func aHandlerSetAfterTheEndIsToldAtOnce() {
        let buffer = EventBuffer<Int>(capacity: 1)
        buffer.cancel()
        let log = TerminationLog()
        buffer.setOnTermination { log.append($0) }
        #expect(log.all == [.cancelled])
    }

    /// The stream read from an actor's method gets every element, in order.
    @Test func anActorReadsEveryElementInOrder() async {
        actor Reader {
            var received: [Int] = []
            func read(_ stream: EventStream<Int>) async {
                for await value in stream { received.append(value) }
            }
        }
        let (buffer, stream, _) = make(capacity: 64)
        let reader = Reader()
        let reading = Task { await reader.read(stream) }
        for value in 0..<50 {
            buffer.yield(value)
            if value % 10 == 0 { await Task.yield() }
        }
        buffer.finish()
        await reading.value
        #expect(await reader.received == Array(0..<50))
    }

    /// A producer and several consumers at once, each with a buffer large enough to lose
    /// nothing: every consumer gets every element, in order (run under ThreadSanitizer too).
    @Test func concurrentSubscribersEachGetEverything() async {
        var broadcaster = EventBroadcaster<Int>(capacity: 2_000)
        let streams = (0..<8).map { _ in broadcaster.add().stream }
        let consumers = streams.map { stream in
            Task {
                var received: [Int] = []
                for await value in stream { received.append(value) }
                return received
            }
        }
        let logs = LogCapture()
        for value in 0..<2_000 {
            broadcaster.broadcast(value, logger: logs.logger())
            if value % 100 == 0 { await Task.yield() }
        }
        broadcaster.finishAll()
        for consumer in consumers { #expect(await consumer.value == Array(0..<2_000)) }
    }

    /// Small buffers dropping their oldest elements while their consumers read them at the
    /// same time: each consumer gets an increasing run ending with the last element, what it
    /// got and what was dropped add up to everything yielded, and no element leaks.
    @Test func dropOldestWhileConsumersRead() async {
        let counter = LiveCounter()
        let total = 20_000
        let buffers = (0..<4).map { _ in EventBuffer<Tracked>(capacity: 16) }
        var dropped = [Int](repeating: 0, count: buffers.count)
        func yieldToAll(_ value: Int) {
            for (index, buffer) in buffers.enumerated() where buffer.yield(Tracked(value, counter)) == .dropped {
                dropped[index] += 1
            }
        }
        for value in 0..<100 { yieldToAll(value) }  // nobody reads yet: 84 dropped each
        #expect(dropped == [Int](repeating: 84, count: buffers.count))
        let consumers = buffers.map { buffer in
            let stream = EventStream(buffer)
            return Task {
                var received: [Int] = []
                for await element in stream { received.append(element.value) }
                return received
            }
        }
        for value in 100..<total {
            yieldToAll(value)
            if value % 64 == 0 { await Task.yield() }
        }
        for buffer in buffers { buffer.finish() }
        for (index, consumer) in consumers.enumerated() {
            let received = await consumer.value
            #expect(received.first.map { $0 >= 84 } == true)
            #expect(received.last == total - 1)
            #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 })
            #expect(received.count + dropped[index] == total)
        }
        #expect(counter.alive == 0)
        #expect(counter.releasedUnderLock == 0)
    }

    /// One subscriber dropping its stream ends only its own buffer.
    @Test func oneSubscriberLeavingLeavesTheOthers() async {
        var broadcaster = EventBroadcaster<Int>(capacity: 8)
        let (_, kept, _) = broadcaster.add()
        let leavingBuffer: EventBuffer<Int>
        do {
            let (_, _, buffer) = broadcaster.add()  // its stream is dropped at once
            leavingBuffer = buffer
        }
        let log = TerminationLog()
        leavingBuffer.setOnTermination { log.append($0) }
        #expect(log.all == [.cancelled])
        let logs = LogCapture()
        broadcaster.broadcast(1, logger: logs.logger())
        #expect(leavingBuffer.yield(2) == .terminated)
        broadcaster.finishAll()
        var received: [Int] = []
        for await value in kept { received.append(value) }
        #expect(received == [1])
    }

    /// The service forgets a subscriber whose stream was dropped, and one whose task was cancelled.
    @Test func theServiceForgetsSubscribersThatLeave() async throws {
        let env = TestEnvironment()
        var dropped: EventStream<AuthenticationEvent<TestSchema>>? = await env.service.events()
        #expect(await env.service.subscriberCount == 1)
        dropped = nil
        #expect(await poll { await env.service.subscriberCount == 0 })
        let cancelled = await env.service.events()
        let received = LiveCounter()  // counts the events the reader got
        let reading = Task {
            var count = 0
            for await _ in cancelled {
                count += 1
                received.created()
            }
            return count
        }
        #expect(await env.service.subscriberCount == 1)
        #expect(await poll { received.alive == 1 })  // the current state, then it waits
        reading.cancel()
        #expect(await poll { await env.service.subscriberCount == 0 })
        #expect(await reading.value == 1)
        _ = dropped
    }
}
