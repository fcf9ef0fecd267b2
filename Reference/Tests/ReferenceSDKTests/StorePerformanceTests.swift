import Foundation
import GRDB
import GRDBSQLite
import ReferenceSDK
import Sesame
import SesameStore
import SesameTestSupport
import Testing

/// The migrations on a 1 000 000-row table keep every row, and `insertAll` stores every row
/// it is given. The times are printed beside (add column, rebuild against a raw
/// `INSERT INTO … SELECT` of the same rows and index, `insertAll` against the SQLite C API),
/// never asserted: the budgets are measured by `sesame-bench migrate` and `store-insert` in
/// release (docs/performance.md). The work runs on a thread of its own, off Swift's
/// cooperative pool, so that a minute of SQLite on a loaded machine stalls no other suite.
@Suite(.serialized) struct StorePerformanceTests {
    static let rows = 1_000_000

    private static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A file at persistence version 1 with `rows` rows, filled inside SQLite.
    private static func bigDatabase(_ directory: URL, name: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: directory.appendingPathComponent(name).path)
        try StoreDatabase.migrate(pool, schema: ReferenceSDKStore.Persistence.schema, upTo: 1)
        try pool.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < \(Self.rows - 1))
                    INSERT INTO "Note" ("id", "body", "createdAt") SELECT printf('note-%07d', x), 'body ' || x, 1700000000 + x FROM c
                    """)
        }
        return pool
    }

    @Test func migratingAMillionRowsKeepsEveryRow() async throws {
        let (migratedRows, copiedRows) = try await onOwnThread { try Self.migrateAndCopy() }
        #expect(migratedRows == Self.rows)
        #expect(copiedRows == Self.rows)
    }

    /// Migrates a version-1 file of `rows` rows to version 3, and copies the same rows raw;
    /// prints the times; returns the row counts after each.
    private static func migrateAndCopy() throws -> (migrated: Int?, copied: Int?) {
        let temporary = try TemporaryDirectory(prefix: "sesame-verify")
        let pool = try bigDatabase(temporary.url, name: "migrated.sqlite")
        defer { try? pool.close() }
        let addColumn = try seconds { try StoreDatabase.migrate(pool, schema: ReferenceSDKStore.Persistence.schema, upTo: 2) }
        let rebuild = try seconds { try StoreDatabase.migrate(pool, schema: ReferenceSDKStore.Persistence.schema, upTo: 3) }
        let migrated = try pool.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Note""#) }

        // The raw reference: copy the same rows into a table of the latest shape.
        let raw = try bigDatabase(temporary.url, name: "raw.sqlite")
        defer { try? raw.close() }
        try raw.write { db in
            try db.execute(
                sql:
                    #"CREATE TABLE "Copy" ("id" TEXT NOT NULL, "text" TEXT NOT NULL, "createdAt" REAL NOT NULL, "pinned" BOOLEAN NOT NULL DEFAULT 0, PRIMARY KEY ("id"))"#
            )
        }
        // Version 3 also indexes `pinned`: the raw reference builds the same index.
        let copy = try seconds {
            try raw.write { db in
                try db.execute(
                    sql:
                        #"INSERT INTO "Copy" ("id", "text", "createdAt", "pinned") SELECT "id", "body", CAST("createdAt" AS REAL), 0 FROM "Note""#
                )
                try db.execute(sql: #"CREATE INDEX "Copy_pinned" ON "Copy" ("pinned")"#)
            }
        }
        print("store performance: add column \(addColumn) s, rebuild \(rebuild) s, raw INSERT…SELECT \(copy) s (ratio \(rebuild / copy))")
        let copied = try raw.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Copy""#) }
        return (migrated, copied)
    }

    @Test func insertAllStoresEveryRow() async throws {
        let (api, raw) = try await onOwnThread { try Self.insertBoth(count: 100_000) }
        #expect(api == 100_000)
        #expect(raw == 100_000)
    }

    /// Inserts `count` notes with `insertAll` and with the C API; prints the times; returns
    /// the rows each file holds afterwards.
    private static func insertBoth(count: Int) throws -> (api: Int, raw: Int) {
        let temporary = try TemporaryDirectory(prefix: "sesame-verify")
        let notes = (0..<count).map {
            ReferenceSDKStore.Persistence.Note(id: String(format: "n%07d", $0), text: "text \($0)", createdAt: Double($0))
        }

        let pool = try StoreDatabase.openFile(
            at: temporary.url.appendingPathComponent("api.sqlite"), schema: ReferenceSDKStore.Persistence.schema)
        defer { try? pool.close() }
        let api = try seconds { try pool.write { db in try ReferenceSDKStore.Persistence.Note.insertAll(notes, in: db) } }

        let rawPool = try StoreDatabase.openFile(
            at: temporary.url.appendingPathComponent("raw.sqlite"), schema: ReferenceSDKStore.Persistence.schema)
        defer { try? rawPool.close() }
        let raw = try seconds {
            try rawPool.write { db in
                var statement: OpaquePointer?
                let sql = #"INSERT INTO "Note" ("id", "text", "createdAt", "pinned") VALUES (?, ?, ?, ?)"#
                guard sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil) == SQLITE_OK else { throw RawSQLiteFailure() }
                defer { sqlite3_finalize(statement) }
                let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
                for note in notes {
                    sqlite3_bind_text(statement, 1, note.id, -1, transient)
                    sqlite3_bind_text(statement, 2, note.text, -1, transient)
                    sqlite3_bind_double(statement, 3, note.createdAt)
                    sqlite3_bind_int64(statement, 4, note.pinned ? 1 : 0)
                    guard sqlite3_step(statement) == SQLITE_DONE else { throw RawSQLiteFailure() }
                    sqlite3_reset(statement)
                }
            }
        }
        print("store performance: insertAll \(api) s, C API \(raw) s for \(count) rows (raw/api ratio \(raw / api))")
        return (
            try pool.read { db in try ReferenceSDKStore.Persistence.Note.fetchCount(db) },
            try rawPool.read { db in try ReferenceSDKStore.Persistence.Note.fetchCount(db) }
        )
    }
}

/// The raw C API reference failed.
struct RawSQLiteFailure: Error {}
