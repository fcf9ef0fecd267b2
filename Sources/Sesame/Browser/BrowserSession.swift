import Foundation

/// One opening of the app's ``Browser`` for a browser step: the sign-in awaits the redirect
/// through it, and ``close()`` (the app cancelled: `cancelAuthentication()`, a sign-out,
/// another sign-in, or the cancellation of the sign-in's task) ends that wait at once with
/// ``BrowserSignInError/cancelled``, cancels the task running the browser and dismisses it,
/// whether or not the browser itself honours the dismissal. Whatever the browser returns
/// after that is dropped. Internal.
final class BrowserSession: @unchecked Sendable {
    private let browser: any Browser
    private let lock = NSLock()
    /// The sign-in waiting for the redirect; nil before it waits and once it was answered.
    private var waiting: CheckedContinuation<any Sendable, any Error>?
    /// The task that runs the browser's `authorize`.
    private var running: Task<Void, Never>?
    private var closed = false

    init(browser: any Browser) {
        self.browser = browser
    }

    /// Runs `body` with the browser (it prepares the redirect, then opens the authorization
    /// request and waits for the redirect) in a task of its own.
    /// - Returns: what `body` returned.
    /// - Throws: ``BrowserSignInError/cancelled`` when the session is closed or the task is
    ///   cancelled before `body` returns, at once; `body`'s error otherwise.
    func run<Value: Sendable>(_ body: @escaping @Sendable (any Browser) async throws -> Value) async throws -> Value {
        let browser = self.browser
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
                let opened = lock.withLock {
                    guard !closed else { return false }
                    waiting = continuation
                    return true
                }
                guard opened else {
                    continuation.resume(throwing: BrowserSignInError.cancelled)
                    return
                }
                let task = Task {
                    let result: Result<any Sendable, any Error>
                    do {
                        result = .success(try await body(browser))
                    } catch {
                        result = .failure(error is CancellationError ? BrowserSignInError.cancelled : error)
                    }
                    self.answer(result)
                }
                let closedMeanwhile = lock.withLock {
                    if !closed { running = task }
                    return closed
                }
                if closedMeanwhile { task.cancel() }
            }
        } onCancel: {
            close()
        }
        guard let value = value as? Value else { throw BrowserSignInError.cancelled }
        return value
    }

    /// Ends the wait with ``BrowserSignInError/cancelled``, cancels the browser's task and
    /// dismisses the browser; does nothing once the browser answered or the session closed.
    func close() {
        let (continuation, task) = lock.withLock {
            closed = true
            defer {
                waiting = nil
                running = nil
            }
            return (waiting, running)
        }
        guard let continuation else { return }
        task?.cancel()
        browser.dismiss()
        continuation.resume(throwing: BrowserSignInError.cancelled)
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { lock.withLock { closed } }

    private func answer(_ result: Result<any Sendable, any Error>) {
        let continuation = lock.withLock {
            defer {
                waiting = nil
                running = nil
            }
            return waiting
        }
        continuation?.resume(with: result)
    }
}
