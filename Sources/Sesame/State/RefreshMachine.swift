import Foundation

/// The refresh engine's rules for one session epoch, as a value: single flight, the back-off
/// after transient failures and the schema's window. Each input is a `mutating func` that
/// returns an action enum of its own, so the caller (the authentication service) handles
/// only what can happen after that input. No I/O, no clock and no `await` happen here.
///
/// `Flight` is what waiters share while a refresh runs: the service's `Task`; tests use any
/// value. The service resets the machine whenever a new epoch starts (sign-in, sign-out,
/// restore, invalidation), which forgets the flight, the back-off and the window.
struct RefreshMachine<Flight: Sendable>: Sendable {
    /// The limits the machine enforces: the schema's window and the configuration's back-off.
    struct Limits: Sendable, Hashable {
        /// At most this many refreshes start within `window` seconds.
        var maxRefreshes: Int
        var window: TimeInterval
        /// The first exponential back-off delay, doubled by each transient failure in a row.
        var firstBackoff: TimeInterval
        var maximumBackoff: TimeInterval
    }

    /// What to do about a credential that needs refreshing.
    enum RequestAction: Sendable {
        /// A refresh is under way: wait for it.
        case join(Flight)
        /// The credential to replace was already replaced: use the current one, send nothing.
        case useCurrentCredential
        /// A refresh was started (the flight the `start` closure made).
        case started(Flight)
        /// Backing off after a transient failure: fail at once with its error, send nothing.
        case deferred(RefreshError, remaining: TimeInterval, failures: Int)
        /// The schema's window is full: fail with `excessiveRefresh`, send nothing.
        case limitReached
    }

    /// What to do with a refresh's outcome.
    enum CompletionAction: Sendable, Equatable {
        /// Install the new credential (memory and store, in one step) and tell subscribers.
        case install
        /// A transient failure: the credential and the state stay; refreshes back off for
        /// `delay` seconds (the response's `Retry-After` when `isRetryAfter`).
        case backOff(delay: TimeInterval, isRetryAfter: Bool)
        /// The back-end rejected the refresh: the session is no good.
        case reject
        /// Any other failure (a malformed response, an encoding error): nothing else changes.
        case fail
        /// The refresh belongs to an earlier epoch, or already completed: ignore it.
        case discard
    }

    /// How a refresh ended, as the machine needs to know it.
    enum Outcome: Sendable {
        case succeeded
        case failed(RefreshError)
    }

    /// After a transient failure: until `until`, refreshes fail at once with `error`.
    struct Backoff: Sendable {
        /// Transient failures in a row: the exponential back-off grows with them.
        var failures: Int
        var until: Date
        /// Whether `until` is the back-end's `Retry-After`, which defers the refreshes the
        /// app asks for too; the exponential back-off defers only automatic ones.
        var isRetryAfter: Bool
        var error: RefreshError
    }

    let limits: Limits
    /// The refresh under way and its id; nil between refreshes.
    private(set) var running: (id: UInt64, flight: Flight)?
    private(set) var backoff: Backoff?
    /// When the refreshes of the current window started.
    private(set) var history: [Date] = []
    /// Refreshes started over the machine's life, which also numbers them.
    private(set) var started: UInt64 = 0

    init(limits: Limits) {
        self.limits = limits
    }

    // MARK: Inputs

    /// A request needs a fresh credential in place of one that is stale or expired.
    /// - Parameters:
    ///   - credentialReplaced: whether the credential to replace is no longer the session's.
    ///   - automatic: the runtime's own refresh for a request (deferred by any back-off),
    ///     or one the app asked for (deferred only by a `Retry-After`).
    ///   - start: makes the flight of a refresh numbered by its argument; called at most once.
    mutating func refreshNeeded(
        credentialReplaced: Bool, automatic: Bool, now: Date,
        start: (UInt64) -> Flight
    ) -> RequestAction {
        if let running { return .join(running.flight) }
        if credentialReplaced { return .useCurrentCredential }
        if let backoff, now < backoff.until, automatic || backoff.isRetryAfter {
            return .deferred(backoff.error, remaining: backoff.until.timeIntervalSince(now), failures: backoff.failures)
        }
        let window = limits.window
        history.removeAll { now.timeIntervalSince($0) >= window }
        guard history.count < limits.maxRefreshes else { return .limitReached }
        history.append(now)
        started += 1
        let flight = start(started)
        running = (started, flight)
        return .started(flight)
    }

    /// The refresh numbered `id` ended.
    mutating func refreshFinished(id: UInt64, outcome: Outcome, now: Date) -> CompletionAction {
        guard running?.id == id else { return .discard }
        running = nil
        switch outcome {
        case .succeeded:
            backoff = nil
            return .install
        case .failed(let error):
            switch error.failure.kind {
            case .transient:
                let failures = (backoff?.failures ?? 0) + 1
                let delay =
                    error.retryAfter
                    ?? Self.backoffDelay(failures: failures, first: limits.firstBackoff, maximum: limits.maximumBackoff)
                backoff = Backoff(
                    failures: failures, until: now.addingTimeInterval(delay),
                    isRetryAfter: error.retryAfter != nil, error: error)
                return .backOff(delay: delay, isRetryAfter: error.retryAfter != nil)
            case .rejected:
                return .reject
            case .failed, .limitReached:
                return .fail
            }
        }
    }

    /// A new epoch started: forget the flight (its outcome will be discarded), the back-off
    /// and the window.
    mutating func reset() {
        running = nil
        backoff = nil
        history = []
    }

    /// `first` × 2^(failures − 1), at most `maximum`.
    static func backoffDelay(failures: Int, first: TimeInterval, maximum: TimeInterval) -> TimeInterval {
        let doublings = Double(min(max(failures - 1, 0), 62))
        return min(first * pow(2, doublings), maximum)
    }
}

/// A failed refresh: what it means, and the error its waiters receive.
struct RefreshError: Error, Sendable {
    let failure: RefreshFailure
    let underlying: any Error
    /// The response's `Retry-After`, as a delay from when it was received.
    var retryAfter: TimeInterval? = nil
}
