import Foundation
import Sesame

/// The ``SQLiteSessionStore`` of a directory that several processes use at the same time (an
/// app and its extensions, in an App Group container): a `SharedSessionStore`.
///
/// - The refresh lock is an exclusive `flock` on `sesame.refresh-lock` beside
///   `sesame.sqlite`; the kernel releases it when its holder ends, even killed.
/// - A save that replaces a credential is a compare-and-swap in one SQLite transaction.
/// - A sign-out forgets the session and the current user in one transaction, so the other
///   processes read "signed out"; an invalidation forgets only the session, so they read
///   "invalidated" while the current user stays saved.
/// - The other processes' changes are found by polling SQLite's `data_version` on the writer
///   connection every `pollingInterval` (50 ms by default): a read of shared memory, no file
///   I/O, and no wake-up of the other processes. docs/runtime.md gives the figures.
public final class SharedSQLiteSessionStore<Details: Codable & Hashable & Sendable>: SharedSessionStore, Sendable {
    private let database: StandardDatabase
    private let plain: SQLiteSessionStore<Details>
    private let userID: @Sendable (Details) -> String
    private let now: @Sendable () -> Date
    private let lockPath: String
    private let pollingInterval: Duration

    init(
        database: StandardDatabase, directory: URL, pollingInterval: Duration,
        userID: @escaping @Sendable (Details) -> String, now: @escaping @Sendable () -> Date
    ) {
        self.database = database
        self.plain = SQLiteSessionStore(database: database, userID: userID, now: now)
        self.userID = userID
        self.now = now
        self.lockPath = directory.appendingPathComponent(RefreshLockFile.fileName).path
        self.pollingInterval = pollingInterval
    }

    /// The saved session, or nil (see ``SQLiteSessionStore/load()``).
    /// - Throws: when the database cannot be read or the payload does not decode.
    public func load() throws -> StoredSession<Details>? {
        try plain.load()
    }

    /// Replaces the saved session whatever it is (a sign-in).
    /// - Throws: when the payload does not encode or the database cannot be written.
    public func save(_ session: StoredSession<Details>) throws {
        try plain.save(session)
    }

    /// Forgets the saved session, keeping the current user (the other processes read
    /// "invalidated").
    /// - Throws: when the database cannot be written.
    public func clear() throws {
        try plain.clear()
    }

    /// Waits for the `flock` on `sesame.refresh-lock`.
    /// - Throws: `CancellationError`, or `StoreError.fileSystem` when the lock file cannot be
    ///   opened (a symbolic link is refused) or the lock was not free within `timeout`.
    public func acquireRefreshLock(timeout: Duration) async throws -> any RefreshLock {
        try await RefreshLockFile.acquire(at: lockPath, timeout: timeout)
    }

    /// The saved session; else `signedOut` when no current user is saved, `invalidated`
    /// when one is.
    /// - Throws: when the database cannot be read or the payload does not decode.
    public func savedState() throws -> SavedSessionState<Details> {
        let (session, currentUser) = try database.sessionAndCurrentUser()
        if let session, currentUser == nil || currentUser == session.userID {
            return .saved(try JSONDecoder().decode(StoredSession<Details>.self, from: session.payload))
        }
        guard let currentUser else { return .signedOut }
        return .invalidated(userID: currentUser)
    }

    /// Saves `session` if the saved credential is still `expected`, or already `session`'s,
    /// in one transaction.
    /// - Throws: when the database cannot be read or written; nothing was saved then.
    public func save(_ session: StoredSession<Details>, replacing expected: Credential) throws -> Bool {
        let payload = try JSONEncoder().encode(session)
        return try database.saveSession(userID: userID(session.details), payload: payload, at: now()) { saved in
            guard let saved else { return false }
            let token = try JSONDecoder().decode(StoredSession<Details>.self, from: saved).credential.accessToken
            return token == expected.accessToken || token == session.credential.accessToken
        }
    }

    /// Forgets the session: with the current user, in one transaction, after a sign-out;
    /// alone otherwise.
    /// - Throws: when the database cannot be written.
    public func clear(ending: UserSessionEnding?) throws {
        if ending == .signOut {
            try database.signOut()
        } else {
            try database.clearSession()
        }
    }

    /// Polls `data_version` every polling interval, and yields when it changed; the polling
    /// stops when the consumer stops iterating.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let database = database
        let interval = pollingInterval
        let polling = Task {
            var last = try? database.dataVersion()
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    break
                }
                let version = try? database.dataVersion()
                if version != last {
                    last = version
                    continuation.yield()
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in polling.cancel() }
        return stream
    }
}
