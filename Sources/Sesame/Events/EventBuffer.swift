import Foundation

/// What became of an element yielded into an ``EventBuffer``.
enum EventBufferYield: Equatable, Sendable {
    /// Buffered or handed to the waiting consumer.
    case enqueued
    /// Buffered, after dropping the oldest buffered element to make room.
    case dropped
    /// The buffer ended: the element was discarded.
    case terminated
}

/// Why an ``EventBuffer`` ended, for its `onTermination`.
enum EventBufferTermination: Equatable, Sendable {
    /// `finish()`: the producer ended it.
    case finished
    /// The consumer stopped: its task was cancelled or it dropped the stream.
    case cancelled
}

/// One subscriber's bounded buffer, shared by the service (which yields into it) and the
/// subscriber's ``EventStream`` (which takes from it).
///
/// The semantics are `AsyncStream`'s with `.bufferingNewest(capacity)`, which `events()`
/// returned before: a full buffer drops its OLDEST element to make room; `finish()` ends it
/// and the consumer still takes what is buffered, then nil; cancellation (the consumer's task
/// cancelled) ends it the same way: nothing more is accepted, `onTermination(.cancelled)`
/// runs, and what was already buffered is still handed over before nil, as `AsyncStream`'s
/// iterator does. When the consumer's last reference goes away nobody can read the buffer, so
/// it ends and its elements are released with it. `onTermination` runs once, on whichever
/// comes first. Only one task may wait in `next()` at a time (a second is a `fatalError`).
///
/// No element is released under `lock`: an element's `deinit` may run any code, including
/// code that reaches this buffer, and `NSLock` is not recursive.
///
/// Why not `AsyncStream`: its storage lives unspecialized in the concurrency library, and
/// each yield and `next()` looks up generic metadata and goes through its `Deque`
/// (docs/performance.md, "events: server-sent events to many subscribers"). This one is a ring of slots in raw memory
/// (growing by doubling up to `capacity`), one lock per call, and its enums are not generic,
/// so the generic code the service runs for any schema needs no metadata per element.
///
/// `@unchecked Sendable`: every stored property but `capacity` is read and written under `lock`.
final class EventBuffer<Element: Sendable>: @unchecked Sendable {
    typealias YieldResult = EventBufferYield
    typealias Termination = EventBufferTermination

    let capacity: Int
    private let lock = NSLock()
    /// `slots` slots; `count` elements from `head` on, wrapping around.
    private var storage: UnsafeMutablePointer<Element>
    private var slots: Int
    private var head = 0
    private var buffered = 0
    private var waiter: UnsafeContinuation<Element?, Never>?
    /// Set by `finish()` and `cancel()`; no element is accepted afterwards.
    private var ended: Termination?
    private var onTermination: (@Sendable (Termination) -> Void)?

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        slots = min(self.capacity, 16)
        storage = .allocate(capacity: slots)
    }

    deinit {
        dropBuffered()
        storage.deallocate()
    }

    /// Sets what runs once when the buffer ends; at once if it already ended.
    func setOnTermination(_ handler: @escaping @Sendable (Termination) -> Void) {
        let endedAlready: Termination? = lock.withLock {
            if ended == nil { onTermination = handler }
            return ended
        }
        if let endedAlready { handler(endedAlready) }
    }

    /// Hands `element` to the waiting consumer, or buffers it (dropping the oldest when full).
    @discardableResult
    func yield(_ element: Element) -> YieldResult {
        lock.lock()
        if ended != nil {
            lock.unlock()
            return .terminated
        }
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: element)
            return .enqueued
        }
        guard buffered == capacity else {
            if buffered == slots { grow() }
            append(element)
            lock.unlock()
            return .enqueued
        }
        // Full: the oldest element leaves the ring, and is released after the unlock.
        let oldest = take()
        append(element)
        lock.unlock()
        withExtendedLifetime(oldest) {}
        return .dropped
    }

    /// Ends the buffer from the producer's side: the consumer takes what is buffered, then nil.
    func finish() {
        end(.finished)
    }

    /// Ends the buffer from the consumer's side (its task was cancelled): nothing more is
    /// accepted; the consumer still takes what is buffered, then nil (as `AsyncStream`).
    func cancel() {
        end(.cancelled)
    }

    /// Ends the buffer because its consumer is gone (its last stream and iterator went away):
    /// nobody can read what is buffered, so it is released (after the unlock).
    func consumerGone() {
        end(.cancelled, releasingBuffered: true)
    }

    /// The next element: a buffered one at once, otherwise the next one yielded, or nil once
    /// the buffer ended and is empty. A cancelled calling task ends the buffer, but still
    /// gets what was buffered before nil (as `AsyncStream`'s iterator).
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
        if Task.isCancelled { cancel() }
        var isEnded = false
        if let element = poll(ended: &isEnded) { return element }
        if isEnded { return nil }
        let handed = await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Element?, Never>) in
                wait(continuation)
            }
        } onCancel: {
            cancel()
        }
        // The element crossed from the producer's thread in the continuation. When the producer
        // resumes it before this task has finished suspending, the concurrency runtime orders
        // the two with atomics ThreadSanitizer cannot see, and it reports the consumer reading
        // what the producer wrote as a race. Taking the lock the producer released before it
        // resumed makes that order visible to it; it costs one uncontended lock per element a
        // consumer had to wait for, none per buffered one.
        lock.withLock {}
        return handed
    }

    /// How many elements are buffered, for tests.
    var count: Int { lock.withLock { buffered } }

    /// Whether a consumer waits in `next()`, for tests.
    var hasWaiter: Bool { lock.withLock { waiter != nil } }

    /// How many slots are allocated, for tests: at most `capacity`.
    var allocatedSlots: Int { lock.withLock { slots } }

    /// Whether `lock` is held, for tests: an element's `deinit` must never see it held by its own thread.
    var isLocked: Bool {
        guard lock.try() else { return true }
        lock.unlock()
        return false
    }

    // MARK: Under the lock

    /// Takes a buffered element; otherwise nil, with `ended` set when the buffer ended.
    private func poll(ended isEnded: inout Bool) -> Element? {
        lock.lock()
        defer { lock.unlock() }
        if buffered > 0 { return take() }
        isEnded = ended != nil
        return nil
    }

    /// Resumes `continuation` with a buffered element or nil once ended; otherwise keeps it
    /// for the next `yield`, `finish` or `cancel`.
    private func wait(_ continuation: UnsafeContinuation<Element?, Never>) {
        lock.lock()
        if buffered > 0 {
            let element = take()
            lock.unlock()
            continuation.resume(returning: element)
        } else if ended != nil {
            lock.unlock()
            continuation.resume(returning: nil)
        } else {
            if waiter != nil {
                lock.unlock()
                fatalError("attempt to await next() on an EventStream from more than one task")
            }
            waiter = continuation
            lock.unlock()
        }
    }

    /// Buffers `element` in a free slot; there must be one. Call under `lock`.
    private func append(_ element: Element) {
        var tail = head + buffered
        if tail >= slots { tail -= slots }
        (storage + tail).initialize(to: element)
        buffered += 1
    }

    /// Takes the oldest element; there must be one. Call under `lock`.
    private func take() -> Element {
        let element = (storage + head).move()
        head = head + 1 == slots ? 0 : head + 1
        buffered -= 1
        if buffered == 0 { head = 0 }
        return element
    }

    /// Doubles the slots, up to `capacity`, keeping the elements in order from slot 0. Call under `lock`.
    private func grow() {
        let larger = min(capacity, slots * 2)
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        let first = min(buffered, slots - head)
        moved.moveInitialize(from: storage + head, count: first)
        (moved + first).moveInitialize(from: storage, count: buffered - first)
        storage.deallocate()
        storage = moved
        slots = larger
        head = 0
    }

    /// Moves every buffered element, in order, into newly allocated memory the caller
    /// deinitializes and deallocates after the unlock; nil when none is buffered. Call under `lock`.
    private func moveBuffered() -> (UnsafeMutablePointer<Element>, count: Int)? {
        guard buffered > 0 else { return nil }
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: buffered)
        let first = min(buffered, slots - head)
        moved.moveInitialize(from: storage + head, count: first)
        (moved + first).moveInitialize(from: storage, count: buffered - first)
        let count = buffered
        buffered = 0
        head = 0
        return (moved, count)
    }

    /// Deinitializes every buffered element; only from `deinit`, when nothing else can reach the buffer.
    private func dropBuffered() {
        while buffered > 0 {
            (storage + head).deinitialize(count: 1)
            head = head + 1 == slots ? 0 : head + 1
            buffered -= 1
        }
        head = 0
    }

    /// Ends the buffer once (`onTermination` runs on the first call only); with
    /// `releasingBuffered`, also releases what is buffered, after the unlock.
    private func end(_ reason: Termination, releasingBuffered: Bool = false) {
        lock.lock()
        let released = releasingBuffered ? moveBuffered() : nil
        guard ended == nil else {
            lock.unlock()
            Self.release(released)
            return
        }
        ended = reason
        let waiter = self.waiter
        self.waiter = nil
        let handler = onTermination
        onTermination = nil
        lock.unlock()
        Self.release(released)
        // A waiting consumer has nothing buffered (it would have taken it): it gets nil.
        waiter?.resume(returning: nil)
        handler?(reason)
    }

    private static func release(_ elements: (UnsafeMutablePointer<Element>, count: Int)?) {
        guard let (pointer, count) = elements else { return }
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }
}
