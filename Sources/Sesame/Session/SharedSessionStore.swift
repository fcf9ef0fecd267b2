/// A ``SessionStore`` that several processes use at the same time: an app and its extensions
/// (widget, share extension, notification service), each its own process, over one file in
/// a shared container (an App Group on Apple platforms).
///
/// When the configuration's `sessionStore` is one, the authentication service of each
/// process:
/// - refreshes under a lock that one process at a time holds (``acquireRefreshLock(timeout:)``),
///   re-reading the saved session under it first: when another process has refreshed
///   meanwhile, it adopts that credential and sends nothing, so no process ever presents a
///   refresh token that another has already rotated. The rotated credential is saved before
///   the lock is released, and before any request uses it;
/// - saves a changed session only if no other process changed it meanwhile
///   (``save(_:replacing:)``), so that a process never brings back a session another one
///   signed out of;
/// - follows the other processes' changes (``changes()``): a sign-in, a sign-out, a
///   refresh, a user switch or an invalidation reaches its state, its events and its
///   user-session observer (the contexts of an `AppSession`).
///
/// `SesameStore`'s `SQLiteSessionStore` is one. docs/runtime.md ("One session across
/// processes") states the guarantees and their limits.
public protocol SharedSessionStore<Details>: SessionStore {
    /// Waits until this process holds the refresh lock, and returns it. The operating system
    /// releases it when the process ends, so a process that dies holding it never blocks the
    /// others.
    /// - Throws: `CancellationError` when the task is cancelled while waiting; an error when
    ///   the lock was not free within `timeout`, or cannot be taken at all.
    func acquireRefreshLock(timeout: Duration) async throws -> any RefreshLock

    /// What the store holds now, as the other processes left it.
    /// - Throws: when the store cannot be read.
    func savedState() throws -> SavedSessionState<Details>

    /// Saves `session` if the saved session still has the credential `expected` (or already
    /// has `session`'s): the session as this process last saw it. Otherwise saves nothing and
    /// returns false: another process changed the session meanwhile.
    /// - Throws: when the store cannot be read or written; nothing was saved then.
    func save(_ session: StoredSession<Details>, replacing expected: Credential) throws -> Bool

    /// Forgets the saved session, and records for the other processes how it ended (nil: no
    /// session was in use).
    /// - Throws: when the store cannot be written.
    func clear(ending: UserSessionEnding?) throws

    /// An element each time another process may have changed what is saved, within the
    /// store's polling interval; the stream ends when its consumer stops iterating.
    func changes() -> AsyncStream<Void>
}

/// The lock a ``SharedSessionStore`` hands to the one process that refreshes.
public protocol RefreshLock: Sendable {
    /// Releases the lock; later calls do nothing.
    func release()
}

/// What a ``SharedSessionStore`` holds, as ``SharedSessionStore/savedState()`` reads it.
public enum SavedSessionState<Details: Codable & Hashable & Sendable>: Sendable, Hashable {
    /// A session is saved.
    case saved(StoredSession<Details>)
    /// None is saved: no one signed in, or the last user signed out.
    case signedOut
    /// The session of `userID` was invalidated (the back-end rejected it), or a sign-in as
    /// another user is being saved (another process's state then changes again shortly).
    case invalidated(userID: String)
}
