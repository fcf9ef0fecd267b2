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
/// returned before: a full buffer drops its OLDEST element to make room; `finish()` lets the
/// consumer take what is buffered, then ends it; cancellation (the consumer's task cancelled
/// or its last reference gone) ends it at once and drops what is buffered; `onTermination`
/// runs once, on whichever comes first. Only one task may wait in `next()` at a time.
///
/// Why not `AsyncStream`: its storage lives unspecialized in the concurrency library, and
/// each yield and `next()` looked up generic metadata and went through its `Deque`
/// (docs/performance.md, "Runtime: events"). This one is a ring of slots in raw memory
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
        let result = append(element)
        lock.unlock()
        return result
    }

    /// Ends the buffer from the producer's side: the consumer takes what is buffered, then nil.
    func finish() {
        end(.finished)
    }

    /// Ends the buffer from the consumer's side: what is buffered is dropped, the consumer gets nil.
    func cancel() {
        end(.cancelled)
    }

    /// The next element: a buffered one at once, otherwise the next one yielded, or nil once
    /// the buffer ended and is empty, or when the calling task is cancelled (which ends it).
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        var isEnded = false
        if let element = poll(ended: &isEnded) { return element }
        if isEnded { return nil }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Element?, Never>) in
                wait(continuation)
            }
        } onCancel: {
            cancel()
        }
    }

    /// How many elements are buffered, for tests.
    var count: Int { lock.withLock { buffered } }

    /// Whether a consumer waits in `next()`, for tests.
    var hasWaiter: Bool { lock.withLock { waiter != nil } }

    /// How many slots are allocated, for tests: at most `capacity`.
    var allocatedSlots: Int { lock.withLock { slots } }

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
            precondition(waiter == nil, "an EventStream is iterated by one task at a time")
            waiter = continuation
            lock.unlock()
        }
    }

    /// Buffers `element`, dropping the oldest when `capacity` are buffered. Call under `lock`.
    private func append(_ element: Element) -> YieldResult {
        var result = YieldResult.enqueued
        if buffered == capacity {
            (storage + head).deinitialize(count: 1)
            head = head + 1 == slots ? 0 : head + 1
            buffered -= 1
            result = .dropped
        } else if buffered == slots {
            grow()
        }
        var tail = head + buffered
        if tail >= slots { tail -= slots }
        (storage + tail).initialize(to: element)
        buffered += 1
        return result
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

    /// Deinitializes every buffered element. Call under `lock` (or from `deinit`).
    private func dropBuffered() {
        while buffered > 0 {
            (storage + head).deinitialize(count: 1)
            head = head + 1 == slots ? 0 : head + 1
            buffered -= 1
        }
        head = 0
    }

    private func end(_ reason: Termination) {
        lock.lock()
        guard ended == nil else {
            if reason == .cancelled { dropBuffered() }
            lock.unlock()
            return
        }
        ended = reason
        if reason == .cancelled { dropBuffered() }
        let waiter = self.waiter
        self.waiter = nil
        let handler = onTermination
        onTermination = nil
        lock.unlock()
        // A waiting consumer has nothing buffered (it would have taken it): it gets nil.
        waiter?.resume(returning: nil)
        handler?(reason)
    }
}
