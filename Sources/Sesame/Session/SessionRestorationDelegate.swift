/// Decides what happens to a session restored at launch, which stays `presession` until
/// the delegate's refresh succeeds (then `authenticated`) or is rejected (then `invalid`).
///
/// Every method has a default: refresh always, with the schema's refresh, and do nothing on
/// deauthentication. ``DefaultSessionRestorationDelegate`` uses only those defaults.
public protocol SessionRestorationDelegate<Details>: Sendable {
    /// The signed-in user's details.
    associatedtype Details: Codable & Hashable & Sendable

    /// Whether to refresh the restored session of `user`. `isStartup` is true at launch
    /// (`restoreSession()`), false when connectivity returns or the app retries. Returning
    /// false vouches for the stored session: the state becomes `authenticated` at once.
    func shouldRefresh(user: Details, isStartup: Bool) async -> Bool

    /// Refreshes the session of `user` and returns the user's current details.
    /// `refresher` runs the schema's refresh and fetches the details.
    ///
    /// A result naming another user (another ``SDKSchema/userID(of:)``) is treated as a
    /// rejection. Throw ``SesameError/notAuthenticated`` to reject the session (the state
    /// becomes `invalid`); any other error keeps it `presession`, to retry later.
    func refresh(user: Details, refresher: SessionRefresher<Details>) async throws -> Details

    /// Called after the restored session was rejected and the state became `invalid`, so
    /// that the app can clean up what belongs to the user. Must not throw.
    func deauthenticate() async
}

extension SessionRestorationDelegate {
    /// Refreshes at launch and whenever asked.
    public func shouldRefresh(user: Details, isStartup: Bool) async -> Bool { true }

    /// Runs the schema's refresh and fetches the details.
    /// - Throws: what `refresher.refresh()` throws.
    public func refresh(user: Details, refresher: SessionRefresher<Details>) async throws -> Details {
        try await refresher.refresh()
    }

    /// Does nothing.
    public func deauthenticate() async {}
}

/// The restoration delegate every service uses unless told otherwise: it always refreshes
/// with the schema's refresh.
public struct DefaultSessionRestorationDelegate<Details: Codable & Hashable & Sendable>: SessionRestorationDelegate {
    /// Creates the delegate.
    public init() {}
}

/// Runs the schema's refresh of the current session for a ``SessionRestorationDelegate``.
public struct SessionRefresher<Details: Codable & Hashable & Sendable>: Sendable {
    private let run: @Sendable () async throws -> Details

    init(_ run: @escaping @Sendable () async throws -> Details) {
        self.run = run
    }

    /// Refreshes the credential when it can be refreshed (sharing any refresh already under
    /// way), then fetches the user's details with it.
    /// - Throws: ``SesameError/notAuthenticated`` when the session ended or was rejected,
    ///   the schema's `ServerError` for an error response, ``SesameError`` for transport
    ///   and decoding failures.
    public func refresh() async throws -> Details {
        try await run()
    }
}
