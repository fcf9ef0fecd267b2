import Foundation
import GRDB
import Sesame

/// A `SessionStore` in the standard context's `sesame.sqlite` (owner-only, WAL,
/// `synchronous = FULL`): a rotation is saved in one statement, durable when `save`
/// returns, and sign-out forgets it in the same transaction as the current user.
///
/// It never hands one user's session to another: starting another user's context deletes
/// any session saved for someone else, and `load()` returns nil when the saved session is
/// not the current user's.
///
/// The payload is the `StoredSession` as JSON, tokens included, protected by the file's
/// 0600 mode (and, on Apple platforms, by the data protection of the directory the app
/// chose). To keep tokens in the Keychain instead, give the service your own
/// `SessionStore` (see docs/store.md).
public final class SQLiteSessionStore<Details: Codable & Hashable & Sendable>: SessionStore, Sendable {
    private let database: StandardDatabase
    private let userID: @Sendable (Details) -> String
    private let now: @Sendable () -> Date

    init(database: StandardDatabase, userID: @escaping @Sendable (Details) -> String, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.userID = userID
        self.now = now
    }

    /// The saved session, or nil when there is none or it belongs to another user than the
    /// saved current one.
    /// - Throws: when the database cannot be read or the payload does not decode.
    public func load() throws -> StoredSession<Details>? {
        guard let (_, payload) = try database.session() else { return nil }
        return try JSONDecoder().decode(StoredSession<Details>.self, from: payload)
    }

    /// Replaces the saved session atomically and durably.
    /// - Throws: when the payload does not encode or the database cannot be written; the
    ///   previous session is then still saved whole.
    public func save(_ session: StoredSession<Details>) throws {
        let payload = try JSONEncoder().encode(session)
        try database.saveSession(userID: userID(session.details), payload: payload, at: now())
    }

    /// Forgets the saved session.
    /// - Throws: when the database cannot be written.
    public func clear() throws {
        try database.clearSession()
    }
}
