import Foundation

/// One subscriber's bounded buffer, shared by the service (which yields into it) and the
/// subscriber's ``EventStream`` (which takes from it).
///
/// The semantics are `AsyncStream`'s with `.bufferingNewest(capacity)`, which `events()`
/// returned before: a full buffer drops its OLDEST element to make room; `finish()` lets the
/// consumer take what is buffered, then ends it; cancellation (the consumer's task cancelled
/// or its last reference gone) ends it at once and drops what is buffered; `onTermination`
/// runs once, on whichever comes first. Only one task may wait in `next()` at a time.
///
/// Unlike `AsyncStream`, whose storage lives unspecialized in the concurrency library, it
/// takes one lock per call and allocates nothing per element while the consumer keeps up
/// (docs/performance.md, "Runtime: events").
///
/// `@unchecked Sendable`: every stored property but `capacity` is read and written under `lock`.
final class EventBuffer<Element: Sendable>: @unchecked Sendable {
    /// What became of a yielded element.
    enum YieldResult: Equatable {
        /// Buffered or handed to the waiting consumer.
        case enqueued
        /// Buffered, after dropping the oldest buffered element to make room.
        case dropped
        /// The buffer ended: the element was discarded.
        case terminated
    }

    /// Why the buffer ended, for `onTermination`.
    enum Termination: Equatable {
        /// `finish()`: the producer ended it.
        case finished
        /// The consumer stopped: its task was cancelled or it dropped the stream.
        case cancelled
    }

    let capacity: Int
    private let lock = NSLock()
    /// Buffered elements from `head` on; the slots before `head` were taken already.
    private var elements: [Element] = []
    private var head = 0
    private var waiter: UnsafeContinuation<Element?, Never>?
    /// Set by `finish()` and `cancel()`; no element is accepted afterwards.
    private var ended: Termination?
    private var onTermination: (@Sendable (Termination) -> Void)?

    init(capacity: Int) {
        self.capacity = max(1, capacity)
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
        var result = YieldResult.enqueued
        if elements.count - head == capacity {
            head += 1
            result = .dropped
        }
        elements.append(element)
        compact()
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
        switch poll() {
        case .element(let element): return element
        case .ended: return nil
        case .empty: break
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Element?, Never>) in
                wait(continuation)
            }
        } onCancel: {
            cancel()
        }
    }

    /// What `next()` finds without waiting.
    private enum Poll {
        case element(Element)
        case ended
        case empty
    }

    /// Takes a buffered element, or says the buffer ended or is empty.
    private func poll() -> Poll {
        lock.lock()
        defer { lock.unlock() }
        if let element = take() { return .element(element) }
        return ended == nil ? .empty : .ended
    }

    /// Resumes `continuation` with a buffered element or nil once ended; otherwise keeps it
    /// for the next `yield`, `finish` or `cancel`.
    private func wait(_ continuation: UnsafeContinuation<Element?, Never>) {
        lock.lock()
        if let element = take() {
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

    /// How many elements are buffered, for tests.
    var count: Int { lock.withLock { elements.count - head } }

    /// Whether a consumer waits in `next()`, for tests.
    var hasWaiter: Bool { lock.withLock { waiter != nil } }

    // MARK: Under the lock

    /// Takes the oldest buffered element, if any. Call under `lock`.
    private func take() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        compact()
        return element
    }

    /// Forgets the slots already taken: all of them when the buffer is empty (keeping the
    /// storage), otherwise once they are more than half of it. Call under `lock`.
    private func compact() {
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= elements.count {
            elements.removeSubrange(0..<head)
            head = 0
        }
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

    private func dropBuffered() {
        elements.removeAll()
        head = 0
    }
}
