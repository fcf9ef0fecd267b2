import Foundation
import GRDB
import SesameTestSupport
import Testing
@_spi(Generated) import Sesame
@testable import SesameStore

#if canImport(Glibc)
import Glibc
#endif

/// What a launch opens: each existing file once, checked on the connection that is kept and
/// not written to when it is at the latest version; no file for a kind whose schema
/// declares no tables until its first access.
@Suite struct LaunchOpeningTests {
    #if canImport(Glibc)
    @Test func upToDateFileIsOpenedOnceWhenReopened() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2)).close()

        let opens = try FileOpenCounter(path: url.path)
        let pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2))
        // One connection, the pool's writer: no separate read-only open to check the version,
        // and no `open(2)` of Sesame's own to set the file's mode.
        #expect(opens.count() == 1)
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 2)
        try pool.close()
    }

    @Test func newerDatabaseIsRefusedOnItsOnlyConnection() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2)).close()
        let before = try Data(contentsOf: url)
        let walBefore = try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))

        let opens = try FileOpenCounter(path: url.path)
        #expect(throws: StoreError.databaseNewerThanApp(kind: .persistence, path: url.path, databaseVersion: 2, appVersion: 1)) {
            try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 1))
        }
        #expect(opens.count() == 1)
        #expect(try Data(contentsOf: url) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal")) == walBefore)
    }
    #endif

    @Test func upToDateFileRunsNoMigrationStatement() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2)).close()

        let statements = StatementLog()
        let pool = try StoreDatabase.openFile(
            at: url, schema: StoreTestSchema.persistence(upTo: 2), configuration: statements.tracingConfiguration())
        try pool.close()
        let writes = statements.writer.filter { sql in
            let upper = sql.uppercased()
            return upper.contains("GRDB_MIGRATIONS") && !upper.hasPrefix("SELECT")
                || upper.contains("USER_VERSION =") || upper.hasPrefix("INSERT") || upper.contains("\"NOTE\"")
        }
        #expect(writes.isEmpty, "\(writes)")
        // The version was read on the writer, the connection the pool keeps.
        #expect(statements.writer.contains { $0.uppercased().hasPrefix("PRAGMA USER_VERSION") })
        #expect(statements.readers.isEmpty)
    }

    @Test func reopeningAnUpToDateFileWritesNothingAndKeepsItsWALOwnerOnly() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        let created = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2))
        try created.write { db in try db.execute(sql: #"INSERT INTO "Note" ("id", "body") VALUES ('1', 'kept')"#) }
        try created.close()
        // The WAL is kept at close (every frame checkpointed into the database first).
        for suffix in ["-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: url.path + suffix), "\(suffix)")
            #expect(try permissions(url.path + suffix) == 0o600, "\(suffix)")
        }
        #expect(try StoreDatabase.storedVersion(at: url, kind: .persistence) == 2)

        let statements = StatementLog()
        let pool = try StoreDatabase.openFile(
            at: url, schema: StoreTestSchema.persistence(upTo: 2), configuration: statements.tracingConfiguration())
        #expect(try pool.read { db in try String.fetchOne(db, sql: #"SELECT "body" FROM "Note""#) } == "kept")
        try pool.close()
        // GRDB writes a transaction to create a WAL file when there is none: not here.
        let writes = statements.writer.filter { sql in
            let upper = sql.uppercased()
            return ["CREATE", "DROP", "INSERT", "UPDATE", "DELETE", "BEGIN", "SAVEPOINT"].contains { upper.hasPrefix($0) }
        }
        #expect(writes.isEmpty, "\(writes)")
    }

    @Test func existingFileIsOwnerOnlyBeforeSQLiteOpensIt() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2)).close()
        // An older build (or a backup tool) left the files readable by others.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            #expect(chmod(url.path + suffix, 0o644) == 0)
        }
        try? FileManager.default.removeItem(atPath: url.path + "-shm")

        // SQLite gives the `-wal` and `-shm` files it creates the database's mode: the mode
        // must be owner-only when the first connection opens, not set afterwards.
        let modes = Locked<[Int]>([])
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            let mode = (try? permissions(url.path)) ?? -1
            modes.withLock { $0.append(mode) }
        }
        let pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2), configuration: configuration)
        _ = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        try pool.close()
        let seen = modes.withLock { $0 }
        #expect(!seen.isEmpty && seen.allSatisfy { $0 == 0o600 }, "\(seen.map { String($0, radix: 8) })")
        for suffix in ["", "-wal", "-shm"] {
            #expect(try permissions(url.path + suffix) == 0o600, "\(suffix)")
        }
    }

    @Test func failedCloseCanBeRetried() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let stores = try ContextStores(directory: temporary.url, definition: StoreTestSchema.definition)
        let pool = try stores.persistence
        // A statement still alive keeps SQLite from closing the writer: the close fails.
        var statement: Statement? = try pool.writeWithoutTransaction { db in try db.makeStatement(sql: "SELECT 1") }
        #expect(throws: (any Error).self) { try stores.close() }
        #expect(statement != nil)
        statement = nil

        // Closing again closes the pool the failed close kept, and nothing opens any more.
        try stores.close()
        #expect(throws: (any Error).self) { try pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } }
        #expect(throws: DatabaseError.self) { try stores.persistence }
    }

    @Test func concurrentFirstAccessesOpenTheFileOnce() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let definition = StoreDefinition(
            persistence: StoreTestSchema.persistence(upTo: 2), cache: .empty(.cache), memory: StoreTestSchema.memory)
        let stores = try ContextStores(directory: temporary.url, definition: definition)
        let pools = Locked<[ObjectIdentifier]>([])
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                let pool = try stores.cache
                pools.withLock { $0.append(ObjectIdentifier(pool)) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(pools.withLock { $0 }.count == 8)
        #expect(Set(pools.withLock { $0 }).count == 1)
        try stores.close()
    }

    @Test func failedFirstAccessLeavesNothingOpenAndIsRetried() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent(ContextStores.persistenceFileName)
        try Data("not a database, long enough to have a header of sorts".utf8).write(to: url)
        let stores = try ContextStores(directory: temporary.url, definition: .empty)
        #expect(throws: StoreError.self) { try stores.persistence }
        #expect(!stores.isOpen(.persistence))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))

        // Once the file is fixed, the next access opens it.
        try FileManager.default.removeItem(at: url)
        #expect(try stores.persistence.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 0)
        #expect(stores.isOpen(.persistence))
        try stores.close()
    }

    @Test func kindWithoutTablesCreatesNoFileUntilItsFirstAccess() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let definition = StoreDefinition(
            persistence: StoreTestSchema.persistence(upTo: 2), cache: .empty(.cache), memory: StoreTestSchema.memory)
        let stores = try ContextStores(directory: temporary.url, definition: definition)
        let cacheURL = temporary.url.appendingPathComponent(ContextStores.cacheFileName)
        let persistenceURL = temporary.url.appendingPathComponent(ContextStores.persistenceFileName)
        #expect(FileManager.default.fileExists(atPath: persistenceURL.path))
        #expect(stores.isOpen(.persistence))
        #expect(!FileManager.default.fileExists(atPath: cacheURL.path))
        #expect(!stores.isOpen(.cache))

        // The first access creates it, owner-only, through the same checks and migrations.
        try stores.cache.write { db in try db.execute(sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY)") }
        #expect(stores.isOpen(.cache))
        #expect(try permissions(cacheURL.path) == 0o600)
        #expect(try stores.cache === stores.cache)
        try stores.close()
        #expect(try StoreDatabase.storedVersion(at: cacheURL, kind: .cache) == 0)
    }

    @Test func kindWithoutTablesIsStillCheckedAtItsFirstAccess() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent(ContextStores.persistenceFileName)
        // An earlier build declared a persistence table; this one declares none.
        try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 1)).close()
        let before = try Data(contentsOf: url)
        let stores = try ContextStores(directory: temporary.url, definition: .empty)
        #expect(!stores.isOpen(.persistence))
        #expect(throws: StoreError.databaseNewerThanApp(kind: .persistence, path: url.path, databaseVersion: 1, appVersion: 0)) {
            try stores.persistence
        }
        #expect(try Data(contentsOf: url) == before)
        try stores.close()
    }

    @Test func closedStoresNeverOpenAFileNotYetOpened() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let stores = try ContextStores(directory: temporary.url, definition: .empty)
        try stores.close()
        #expect(throws: DatabaseError.self) { try stores.persistence }
        #expect(throws: DatabaseError.self) { try stores.database(.cache) }
        let names = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)
        #expect(names.isEmpty, "\(names)")
        try stores.close()
    }

    @Test func standardContextWithoutStandardStoresOpensOnlySesameFile() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let contexts = try AppContexts(root: temporary.url)
        try contexts.start(userID: "alice", stores: StoreTestSchema.definition)
        try contexts.signOut()
        try contexts.standard.close()
        let standard = temporary.url.appendingPathComponent("standard")
        let names = try FileManager.default.contentsOfDirectory(atPath: standard.path).filter { $0.hasSuffix(".sqlite") }
        #expect(names == ["sesame.sqlite"])

        // Declared standard stores are opened (created and migrated) with the context.
        let declaring = try AppContexts(root: temporary.url, standardStores: StoreTestSchema.definition)
        #expect(declaring.standard.stores.isOpen(.persistence) && declaring.standard.stores.isOpen(.cache))
        #expect(try StoreDatabase.storedVersion(at: standard.appendingPathComponent("persistence.sqlite"), kind: .persistence) == 2)
        try declaring.standard.close()
    }

    @Test func sesameFileWritesAreFullySynchronous() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let contexts = try AppContexts(root: temporary.url)
        // 2 is FULL: GRDB's switch to WAL sets NORMAL (1) on the writer, after `prepareDatabase`.
        #expect(try contexts.standard.database.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2)
        try contexts.standard.close()
    }
}

/// The SQL statements traced on a pool's connections.
private final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var writerStatements: [String] = []
    private var readerStatements: [String] = []

    func append(readonly: Bool, _ sql: String) {
        lock.withLock {
            if readonly { readerStatements.append(sql) } else { writerStatements.append(sql) }
        }
    }

    var writer: [String] { lock.withLock { writerStatements } }

    /// A configuration whose connections log their statements here.
    func tracingConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            let readonly = db.configuration.readonly
            db.trace(options: .statement) { event in self.append(readonly: readonly, event.description) }
        }
        return configuration
    }
    var readers: [String] { lock.withLock { readerStatements } }
}

#if canImport(Glibc)
/// Counts the `open(2)` calls of one file from now on (inotify `IN_OPEN`).
private final class FileOpenCounter {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, path, UInt32(IN_OPEN)) >= 0 else {
            throw StoreError.fileSystem(path: path, reason: "inotify is unavailable")
        }
    }

    /// The opens since the counter was created (or last asked).
    func count() -> Int {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var opens = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard read > 0 else { return opens }
            var offset = 0
            while offset < read {
                let (mask, length) = buffer.withUnsafeBytes { bytes in
                    (
                        bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                        bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
                    )
                }
                if mask & UInt32(IN_OPEN) != 0 { opens += 1 }
                offset += 16 + Int(length)
            }
        }
    }

    deinit { close(descriptor) }
}
#endif
