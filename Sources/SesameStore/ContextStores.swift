import Foundation
import GRDB

/// The three databases of a context: `cache` and `persistence` are owner-only files in the
/// context's directory, `memory` lives in memory. Each is at its schema's latest version.
///
/// A file whose schema declares tables is opened (created and migrated) when the context
/// opens, so that a failure shows then. A file whose schema declares none (version 0, as
/// in the standard context without `standardStores`) is neither created nor opened until
/// its first access: a launch pays only for the files the app uses.
public final class ContextStores: Sendable {
    /// `cache.sqlite`: may be deleted and rebuilt; put nothing there you cannot fetch again.
    ///
    /// Opened when the context opens if the schema declares tables, else at the first
    /// access (created and migrated then).
    /// - Throws: a `StoreError` when a first access cannot open the file, or GRDB's
    ///   "Connection is closed" error when the context was closed before the first access.
    public var cache: DatabasePool {
        get throws { try cacheFile.pool() }
    }
    /// In memory: created afresh when the context starts, gone when it closes.
    public let memory: DatabaseQueue
    /// `persistence.sqlite`: migrated losslessly, never deleted by Sesame.
    ///
    /// Opened when the context opens if the schema declares tables, else at the first
    /// access (created and migrated then).
    /// - Throws: a `StoreError` when a first access cannot open the file, or GRDB's
    ///   "Connection is closed" error when the context was closed before the first access.
    public var persistence: DatabasePool {
        get throws { try persistenceFile.pool() }
    }
    /// The directory holding the files.
    public let directory: URL

    /// The file names in a context's directory.
    public static let cacheFileName = "cache.sqlite"
    public static let persistenceFileName = "persistence.sqlite"

    private let cacheFile: StoreFile
    private let persistenceFile: StoreFile

    /// Opens (creating and migrating as needed) the databases of `definition` in
    /// `directory`, which is created with mode 0700; a file whose schema declares no
    /// tables waits for its first access.
    /// - Throws: a `StoreError`; databases already opened are closed again.
    public init(directory: URL, definition: StoreDefinition) throws {
        try StoreFiles.makeDirectory(directory, restrictExisting: true)
        let persistenceFile = try StoreFile(
            url: directory.appendingPathComponent(Self.persistenceFileName), schema: definition.persistence)
        do {
            cacheFile = try StoreFile(url: directory.appendingPathComponent(Self.cacheFileName), schema: definition.cache)
            memory = try StoreDatabase.openMemory(schema: definition.memory)
        } catch {
            try? persistenceFile.close()
            throw error
        }
        self.persistenceFile = persistenceFile
        self.directory = directory
    }

    /// The database of a kind.
    /// - Throws: as ``ContextStores/cache`` and ``ContextStores/persistence`` do.
    public func database(_ kind: StoreKind) throws -> any DatabaseWriter {
        switch kind {
        case .cache: return try cache
        case .memory: return memory
        case .persistence: return try persistence
        }
    }

    /// Whether the file of `kind` is open (false for a file waiting for its first access,
    /// and for `memory`).
    func isOpen(_ kind: StoreKind) -> Bool {
        switch kind {
        case .cache: return cacheFile.isOpen
        case .memory: return false
        case .persistence: return persistenceFile.isOpen
        }
    }

    /// Closes the databases; later accesses throw, and a file never opened stays unopened.
    /// Closing twice does nothing more.
    /// - Throws: when a database cannot close (a statement is still in use).
    public func close() throws {
        var failure: (any Error)?
        do { try persistenceFile.close() } catch { failure = error }
        do { try cacheFile.close() } catch { failure = failure ?? error }
        do { try memory.close() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }
}

/// One file database of a context: opened at once when its schema declares tables,
/// otherwise at the first `pool()`; never opened after `close()`.
///
/// A first `pool()` that fails leaves the file unopened (no pool is kept, none is left
/// open) and the next call tries again. A `close()` that fails (a statement still in use)
/// keeps the pool, so that closing again closes it.
final class StoreFile: Sendable {
    private enum State: Sendable {
        case unopened
        case open(DatabasePool)
        /// The pool, if it was opened: GRDB's `close()` does nothing on a closed pool, and
        /// closes one whose earlier close failed.
        case closed(DatabasePool?)
    }

    private let url: URL
    private let schema: StoreSchema
    private let state: Locked<State>

    init(url: URL, schema: StoreSchema) throws {
        self.url = url
        self.schema = schema
        if schema.migrations.isEmpty {
            state = Locked(.unopened)
        } else {
            state = Locked(.open(try StoreDatabase.openFile(at: url, schema: schema)))
        }
    }

    var isOpen: Bool {
        state.withLock { state in
            if case .open = state { return true }
            return false
        }
    }

    /// The pool, opening (creating and migrating) the file at the first call. Concurrent
    /// first calls open it once: the lock is held while it opens, and a `close()` meanwhile
    /// waits for the open to finish, then closes the pool.
    func pool() throws -> DatabasePool {
        try state.withLock { state in
            switch state {
            case .open(let pool):
                return pool
            case .closed:
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed")
            case .unopened:
                let pool = try StoreDatabase.openFile(at: url, schema: schema)
                state = .open(pool)
                return pool
            }
        }
    }

    /// Closes the pool if it is open; a file never opened will not open any more. The lock
    /// is not held while the pool closes (GRDB waits for accesses in progress, which may
    /// ask for this store again): accesses from then on throw.
    func close() throws {
        let pool: DatabasePool? = state.withLock { state in
            let pool: DatabasePool?
            switch state {
            case .unopened: pool = nil
            case .open(let open): pool = open
            case .closed(let closed): pool = closed
            }
            state = .closed(pool)
            return pool
        }
        try pool?.close()
    }
}
