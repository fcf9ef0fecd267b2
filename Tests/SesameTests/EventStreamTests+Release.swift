import Foundation
import SesameTestSupport
import Testing
@testable import Sesame

// What becomes of the elements: none leaks, none is freed twice, none under the lock.

/// Counts the `Tracked` instances alive, and those released while their buffer's lock was held.
final class LiveCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var live = 0
    private var underLock = 0
    /// Whether the buffer's lock is held, asked as each instance is released.
    var lockProbe: (@Sendable () -> Bool)?
    var alive: Int { lock.withLock { live } }
    var releasedUnderLock: Int { lock.withLock { underLock } }
    func created() { lock.withLock { live += 1 } }
    func released() {
        let locked = lockProbe?() ?? false
        lock.withLock {
            live -= 1
            if locked { underLock += 1 }
        }
    }
    /// Asks `buffer` (weakly held) whether its lock is held, as each instance is released.
    func watch<Element>(_ buffer: EventBuffer<Element>) {
        lockProbe = { [weak buffer] in buffer?.isLocked ?? false }
    }
}

/// An element whose live instances are counted: a leak leaves one alive, a double free crashes
/// or leaves the count below zero.
final class Tracked: Sendable {
    let value: Int
    let counter: LiveCounter
    init(_ value: Int, _ counter: LiveCounter) {
        self.value = value
        self.counter = counter
        counter.created()
    }
    deinit { counter.released() }
}

extension EventStreamTests {

    /// A buffer of `Tracked` whose releases the counter watches.
    func makeTracked(capacity: Int, _ counter: LiveCounter) -> EventBuffer<Tracked> {
        let buffer = EventBuffer<Tracked>(capacity: capacity)
        counter.watch(buffer)
        return buffer
    }

    @Test func droppingTheOldestOfAWrappedRingReleasesItOutsideTheLock() async {
        let counter = LiveCounter()
        do {
            let buffer = makeTracked(capacity: 4, counter)
            var iterator = EventStream(buffer).makeAsyncIterator()
            for value in 0..<4 { buffer.yield(Tracked(value, counter)) }
            #expect(await iterator.next()?.value == 0)
            #expect(await iterator.next()?.value == 1)
            for value in 4..<6 { buffer.yield(Tracked(value, counter)) }  // wraps: slots 0 and 1
            #expect(buffer.yield(Tracked(6, counter)) == .dropped)  // drops 2, the oldest
            #expect(buffer.yield(Tracked(7, counter)) == .dropped)  // drops 3
            #expect(counter.alive == 4)
            #expect(counter.releasedUnderLock == 0)
            buffer.finish()
            var received: [Int] = []
            while let element = await iterator.next() { received.append(element.value) }
            #expect(received == [4, 5, 6, 7])
        }
        #expect(counter.alive == 0)
    }

    @Test func growingAWrappedRingNeitherLeaksNorFreesTwice() async {
        let counter = LiveCounter()
        do {
            let buffer = makeTracked(capacity: 40, counter)
            var iterator = EventStream(buffer).makeAsyncIterator()
            for value in 0..<12 { buffer.yield(Tracked(value, counter)) }
            for value in 0..<10 { #expect(await iterator.next()?.value == value) }
            for value in 12..<50 { buffer.yield(Tracked(value, counter)) }  // grows twice while wrapped
            #expect(buffer.yield(Tracked(50, counter)) == .dropped)
            #expect(counter.alive == 40)
            #expect(await iterator.next()?.value == 11)
            #expect(counter.alive == 39)
        }
        #expect(counter.alive == 0)
        #expect(counter.releasedUnderLock == 0)
    }

    /// Cancelled with elements buffered: they stay deliverable; the consumer dropping its
    /// stream releases them at once, outside the lock, while the service still holds the buffer.
    @Test func cancellingThenDroppingTheStreamReleasesWhatIsBuffered() async {
        let counter = LiveCounter()
        let buffer = makeTracked(capacity: 8, counter)
        var stream: EventStream<Tracked>? = EventStream(buffer)
        for value in 0..<5 { buffer.yield(Tracked(value, counter)) }
        buffer.cancel()
        #expect(counter.alive == 5)
        var iterator = stream?.makeAsyncIterator()
        #expect(await iterator?.next()?.value == 0)
        #expect(counter.alive == 4)
        stream = nil
        iterator = nil
        #expect(counter.alive == 0)
        #expect(counter.releasedUnderLock == 0)
        #expect(buffer.count == 0)
    }

    @Test func finishingThenDroppingTheStreamReleasesWhatIsBuffered() {
        let counter = LiveCounter()
        let buffer = makeTracked(capacity: 64, counter)
        var stream: EventStream<Tracked>? = EventStream(buffer)
        for value in 0..<40 { buffer.yield(Tracked(value, counter)) }  // grown to 64 slots
        buffer.finish()
        #expect(counter.alive == 40)
        stream = nil
        #expect(counter.alive == 0)
        #expect(counter.releasedUnderLock == 0)
        _ = stream
    }

    @Test func aBufferGoingAwayReleasesWhatIsBuffered() {
        let counter = LiveCounter()
        do {
            let buffer = makeTracked(capacity: 8, counter)
            for value in 0..<8 { buffer.yield(Tracked(value, counter)) }
            #expect(counter.alive == 8)
        }
        #expect(counter.alive == 0)
    }
}
