import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Opens and migrates the databases of a context.
///
/// A file database is checked before it is opened for writing: a database written by a
/// newer build (a downgrade) throws `StoreError.databaseNewerThanApp` and is not touched.
/// A `recreate` cache at another version, or unreadable, is deleted and created afresh.
/// Otherwise every migration not yet applied runs, each in its own transaction together
/// with its `PRAGMA user_version` update (GRDB's `DatabaseMigrator`), so that a crash
/// leaves the database at the version before or after a migration, never in between.
public enum StoreDatabase {
    /// Opens (creating it, owner-only, if needed) and migrates a file database. Missing
    /// parent directories are created with mode 0700; existing ones are left as they are.
    ///
    /// The file is opened once: its stored version is checked on the pool's own writer
    /// connection as it opens, before GRDB or a migration may write to it.
    /// - Throws: `StoreError.databaseNewerThanApp` (file untouched),
    ///   `StoreError.migrationFailed` (the failed migration rolled back),
    ///   `StoreError.unreadable` or `StoreError.fileSystem`.
    public static func openFile(at url: URL, schema: StoreSchema, configuration: Configuration = Configuration()) throws -> DatabasePool {
        try StoreFiles.makeDirectory(url.deletingLastPathComponent(), restrictExisting: false)
        let (pool, state) = try openChecked(at: url, schema: schema, configuration: configuration)
        do {
            // Checked without opening them: while the pool is open, closing any descriptor
            // of its files would drop this process's POSIX locks on them, and another
            // process could then take the `-shm` for unused and truncate it under this
            // one's mapping (SIGBUS; SQLite's "How To Corrupt", §2.2). SQLite created them
            // with the database's mode, set owner-only above.
            try StoreFiles.refuseLinkedCompanions(of: url)
            try migrate(pool, schema: schema, target: schema.version, state: state)
            try StoreFiles.refuseLinkedCompanions(of: url)
        } catch {
            try? pool.close()
            throw error
        }
        return pool
    }

    /// Opens the pool of a file, checking an existing one as it opens (rebuilding a
    /// `recreate` one that must be), creating a missing one 0600 first. Returns the pool and
    /// the state the file recorded as it opened (empty for a file created now), which
    /// `migrate` uses instead of reading it again.
    private static func openChecked(at url: URL, schema: StoreSchema, configuration: Configuration) throws -> (DatabasePool, StoredState) {
        // `exists` sees a link, even a dangling one, which `restrictDatabaseFile` refuses.
        if StoreFiles.exists(url) {
            // Owner-only before SQLite opens it: the `-wal` and `-shm` files it creates take
            // the database's mode, so they are never created wider and narrowed afterwards.
            try StoreFiles.restrictDatabaseFile(url)
            try StoreFiles.restrictCompanions(of: url)
            do {
                return try openPool(at: url, schema: schema, configuration: configuration, checking: true)
            } catch is RecreateDatabase {
                try StoreFiles.deleteDatabase(url)
            }
        }
        try StoreFiles.prepareDatabaseFile(url)
        return try openPool(at: url, schema: schema, configuration: configuration, checking: false)
    }

    /// Opens a pool whose connections keep the WAL file when they close (see
    /// `keepWALFileOnClose`). With `checking`, the writer connection reads the stored state
    /// as it opens (before GRDB switches the file to WAL or writes to it) and refuses a
    /// database newer than the app, or throws `RecreateDatabase` for a `recreate` database
    /// to rebuild; without, the file is new and its state empty.
    private static func openPool(
        at url: URL, schema: StoreSchema, configuration: Configuration, checking: Bool
    ) throws -> (DatabasePool, StoredState) {
        var configuration = configuration
        // Another process (an app's extension) may write the same file: wait for its write
        // rather than fail at once with SQLITE_BUSY, GRDB's default.
        if case .immediateError = configuration.busyMode { configuration.busyMode = .timeout(10) }
        configuration.prepareDatabase { db in try keepWALFileOnClose(db) }
        let opened = Locked<StoredState?>(nil)
        if checking {
            configuration.prepareDatabase { db in
                // Readers (read-only) open later, on a file already checked and migrated.
                guard !db.configuration.readonly else { return }
                let state = try checkExisting(db, path: url.path, schema: schema)
                opened.withLock { $0 = state }
            }
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: url.path, configuration: configuration)
        } catch let error as StoreError {
            throw error
        } catch let error as RecreateDatabase {
            throw error
        } catch {
            throw StoreError.unreadable(kind: schema.kind, path: url.path, reason: "\(error)")
        }
        return (pool, opened.withLock { $0 } ?? StoredState(empty: schema.kind))
    }

    /// Keeps the `-wal` (and `-shm`) file when the last connection closes
    /// (`SQLITE_FCNTL_PERSIST_WAL`). SQLite still checkpoints every frame into the database
    /// at that close; only the deletion is skipped. GRDB writes a transaction to create a
    /// WAL file when it opens a pool whose WAL is missing or empty, and that write and its
    /// sync were most of a launch's cost; a kept WAL makes the reopening of an up-to-date
    /// file a read-only affair. Crash safety is SQLite's as ever: the WAL header's salts and
    /// every frame's checksum decide which frames count, whether the file was kept or not.
    static func keepWALFileOnClose(_ db: Database) throws {
        var persist: Int32 = 1
        let code = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot keep the WAL file")
        }
    }

    /// Creates an in-memory database at the schema's latest version.
    /// - Throws: `StoreError.migrationFailed` when a migration fails (a bug in the schema).
    public static func openMemory(schema: StoreSchema, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: configuration)
        try migrate(queue, schema: schema)
        return queue
    }

    /// The version a database file is at, read without writing to it: the highest of its
    /// `PRAGMA user_version` and of the versions its applied migration identifiers name.
    /// Nil when there is no file.
    /// - Throws: `StoreError.unreadable` when the file is not a database;
    ///   `StoreError.fileSystem` when it is a symbolic link.
    public static func storedVersion(at url: URL, kind: StoreKind) throws -> Int? {
        guard StoreFiles.exists(url) else { return nil }
        if StoreFiles.kind(of: url.path) == .link {
            throw StoreError.fileSystem(path: url.path, reason: "is a symbolic link; the store follows none (nothing was changed)")
        }
        return try readState(at: url, kind: kind).version
    }

    /// Runs the schema's migrations not yet applied, up to `version` (the latest by default).
    /// - Throws: `StoreError.databaseNewerThanApp` when the database is past `version`
    ///   (nothing runs), `StoreError.migrationFailed` when a migration fails (it is rolled
    ///   back; the ones before it stay applied).
    public static func migrate(_ writer: some DatabaseWriter, schema: StoreSchema, upTo version: Int? = nil) throws {
        // Read on the writer: a pool's reader connection would keep the old schema cached
        // and could prepare its next statement against it.
        let state = try writer.writeWithoutTransaction { db in try StoredState(db, kind: schema.kind) }
        try migrate(writer, schema: schema, target: version ?? schema.version, state: state)
    }

    /// Runs the migrations up to `target` that `state` (read by the caller on the writer,
    /// here as the file opened) does not record. GRDB's migrator reads the applied
    /// identifiers again inside its own transaction before it runs anything.
    static func migrate(_ writer: some DatabaseWriter, schema: StoreSchema, target: Int, state: StoredState) throws {
        if state.version > target {
            throw StoreError.databaseNewerThanApp(kind: schema.kind, path: writer.path, databaseVersion: state.version, appVersion: target)
        }
        try checkIdentifiers(state, schema: schema, path: writer.path)
        guard let last = schema.migrations.last(where: { $0.version <= target }) else { return }
        // Already at `target` (the common launch): GRDB's migrator would take the writer's
        // barrier and create its table only to find nothing to run.
        if schema.migrations.allSatisfy({ $0.version > target || state.identifiers.contains($0.identifier) }) { return }
        var migrator = DatabaseMigrator()
        for migration in schema.migrations {
            let body = migration.body
            let version = migration.version
            migrator.registerMigration(migration.identifier) { db in
                try body(db)
                try db.execute(sql: "PRAGMA user_version = \(version)")
            }
        }
        do {
            try migrator.migrate(writer, upTo: last.identifier)
        } catch {
            let applied = (try? writer.writeWithoutTransaction { db in try migrator.appliedIdentifiers(db) }) ?? []
            let failed = schema.migrations.first { !applied.contains($0.identifier) }?.identifier ?? last.identifier
            throw StoreError.migrationFailed(kind: schema.kind, identifier: failed, reason: "\(error)")
        }
    }

    // MARK: Checks

    /// Checks an existing file on the connection that opens it: a database newer than the
    /// app is refused, a `recreate` one at another version (or unreadable) is to be rebuilt.
    private static func checkExisting(_ db: Database, path: String, schema: StoreSchema) throws -> StoredState {
        let state: StoredState
        do {
            state = try StoredState(db, kind: schema.kind)
        } catch {
            guard schema.policy == .recreate else {
                throw StoreError.unreadable(kind: schema.kind, path: path, reason: "\(error)")
            }
            throw RecreateDatabase()
        }
        if state.version > schema.version {
            throw StoreError.databaseNewerThanApp(
                kind: schema.kind, path: path, databaseVersion: state.version, appVersion: schema.version)
        }
        if schema.policy == .recreate,
            state.version != schema.version || !state.identifiers.isSubset(of: schema.migrations.map(\.identifier))
        {
            throw RecreateDatabase()
        }
        return state
    }

    /// A database whose applied migrations this build does not know was migrated by
    /// migrations whose identifiers changed: running ours again could damage it.
    private static func checkIdentifiers(_ state: StoredState, schema: StoreSchema, path: String) throws {
        let unknown = state.identifiers.subtracting(schema.migrations.map(\.identifier)).sorted()
        guard let first = unknown.first else { return }
        throw StoreError.migrationFailed(
            kind: schema.kind, identifier: first,
            reason: "the database records migration '\(first)', which this build does not declare; migration identifiers must never change")
    }

    private static func readState(at url: URL, kind: StoreKind) throws -> StoredState {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try StoredState(db, kind: kind) }
        } catch {
            throw StoreError.unreadable(kind: kind, path: url.path, reason: "\(error)")
        }
    }
}

/// A `recreate` database to delete and create afresh (thrown while opening it).
private struct RecreateDatabase: Error {}

/// What a database records about its migrations.
struct StoredState {
    var userVersion: Int
    var identifiers: Set<String>

    init(_ db: Database, kind: StoreKind) throws {
        userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if try db.tableExists("grdb_migrations") {
            identifiers = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
        } else {
            identifiers = []
        }
        self.kind = kind
    }

    /// The state of a database just created: no version, no migration.
    init(empty kind: StoreKind) {
        userVersion = 0
        identifiers = []
        self.kind = kind
    }

    private let kind: StoreKind

    /// The highest of `user_version` and the `<kind>.vN` identifiers' N.
    var version: Int {
        let prefix = "\(kind.rawValue).v"
        let named = identifiers.compactMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil }
        return max(userVersion, named.max() ?? 0)
    }
}
