import Foundation
import GRDB

/// Sesame's own file in the standard context, `sesame.sqlite`: the saved current user and
/// the saved session, side by side so that signing out forgets both in one transaction.
/// Every write is durable when it returns (`synchronous = FULL`).
final class StandardDatabase: Sendable {
    static let fileName = "sesame.sqlite"
    let pool: DatabasePool

    /// Sesame's own schema; its identifiers never change once shipped.
    static let schema = StoreSchema(
        kind: .persistence, version: 1, policy: .migrate,
        migrations: [
            StoreMigration("sesame.v1", version: 1) { db in
                try db.execute(
                    sql: """
                        CREATE TABLE sesame_current_user (
                            slot INTEGER NOT NULL PRIMARY KEY CHECK (slot = 1),
                            userID TEXT NOT NULL,
                            startedAt REAL NOT NULL)
                        """)
                try db.execute(
                    sql: """
                        CREATE TABLE sesame_session (
                            slot INTEGER NOT NULL PRIMARY KEY CHECK (slot = 1),
                            userID TEXT NOT NULL,
                            payload BLOB NOT NULL,
                            savedAt REAL NOT NULL)
                        """)
            }
        ], latest: { _ in })

    init(directory: URL) throws {
        try StoreFiles.makeDirectory(directory, restrictExisting: true)
        pool = try StoreDatabase.openFile(at: directory.appendingPathComponent(Self.fileName), schema: Self.schema)
        do {
            // On the writer, once the pool is open: GRDB sets `synchronous = NORMAL` when it
            // switches a new pool's writer to WAL, after `prepareDatabase` has run. The writer
            // is the only connection that writes; `secure_delete` makes it overwrite what it
            // deletes (a replaced or forgotten session's tokens) instead of leaving it in
            // free space.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: "PRAGMA secure_delete = ON")
            }
        } catch {
            try? pool.close()
            throw error
        }
    }

    // MARK: Current user

    func currentUser() throws -> SavedUser? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT userID, startedAt FROM sesame_current_user WHERE slot = 1").map { row in
                SavedUser(id: try row.decode(atIndex: 0), startedAt: Date(timeIntervalSince1970: try row.decode(atIndex: 1)))
            }
        }
    }

    /// Saves `user` as current and, in the same transaction, forgets a session saved for
    /// anyone else.
    func setCurrentUser(_ user: SavedUser) throws {
        try pool.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO sesame_current_user (slot, userID, startedAt) VALUES (1, ?, ?)",
                arguments: [user.id, user.startedAt.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM sesame_session WHERE userID <> ?", arguments: [user.id])
        }
    }

    /// Forgets the current user and the session, in one transaction.
    ///
    /// Then the log is copied into the database and truncated: the write-ahead log is kept
    /// across closes (`StoreDatabase`), so without this its older frames would keep the
    /// signed-out session's tokens on disk until overwritten. Best effort: a reader still
    /// open makes SQLite refuse to truncate, and the next sign-out or checkpoint does it.
    func signOut() throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM sesame_current_user")
            try db.execute(sql: "DELETE FROM sesame_session")
        }
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    // MARK: Session

    /// The saved session's payload, unless a current user is saved and it is not theirs.
    func session() throws -> (userID: String, payload: Data)? {
        try pool.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT s.userID, s.payload FROM sesame_session s
                    LEFT JOIN sesame_current_user u ON u.slot = 1
                    WHERE s.slot = 1 AND (u.userID IS NULL OR u.userID = s.userID)
                    """)
            return try row.map { (try $0.decode(atIndex: 0), try $0.decode(atIndex: 1)) }
        }
    }

    /// Replaces the saved session in one statement: a rotation is saved whole or not at all.
    func saveSession(userID: String, payload: Data, at date: Date) throws {
        try pool.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO sesame_session (slot, userID, payload, savedAt) VALUES (1, ?, ?, ?)",
                arguments: [userID, payload, date.timeIntervalSince1970])
        }
    }

    func clearSession() throws {
        try pool.write { db in try db.execute(sql: "DELETE FROM sesame_session") }
    }

    // MARK: Shared across processes

    /// The saved session's row (whoever it belongs to) and the saved current user, read in
    /// one transaction.
    func sessionAndCurrentUser() throws -> (session: (userID: String, payload: Data)?, currentUser: String?) {
        try pool.read { db in
            let session = try Row.fetchOne(db, sql: "SELECT userID, payload FROM sesame_session WHERE slot = 1")
                .map { (userID: try $0.decode(atIndex: 0) as String, payload: try $0.decode(atIndex: 1) as Data) }
            let user = try String.fetchOne(db, sql: "SELECT userID FROM sesame_current_user WHERE slot = 1")
            return (session, user)
        }
    }

    /// Replaces the saved session in one transaction if `accepts` says so of the payload
    /// saved now (nil when none is); returns whether it did.
    func saveSession(userID: String, payload: Data, at date: Date, if accepts: (Data?) throws -> Bool) throws -> Bool {
        try pool.write { db in
            let saved = try Data.fetchOne(db, sql: "SELECT payload FROM sesame_session WHERE slot = 1")
            guard try accepts(saved) else { return false }
            try db.execute(
                sql: "INSERT OR REPLACE INTO sesame_session (slot, userID, payload, savedAt) VALUES (1, ?, ?, ?)",
                arguments: [userID, payload, date.timeIntervalSince1970])
            return true
        }
    }

    /// SQLite's `data_version` on the writer connection, through which every write of this
    /// process goes: it changes when another process commits to the file.
    func dataVersion() throws -> Int {
        try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }
}
