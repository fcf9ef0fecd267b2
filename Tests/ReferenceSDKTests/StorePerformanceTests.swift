import Foundation
import GRDB
import GRDBSQLite
import ReferenceSDK
import Sesame
import SesameStore
import SesameTestSupport
import Testing

/// The migration budgets on a 1 000 000-row table: adding a column with a default is instant
/// (≤ 0.1 s), and the rebuilding migration costs at most twice a raw `INSERT INTO … SELECT`
/// of the same rows (plus the index the version adds). Also prints the insert throughput of `insertAll` against the SQLite C API
/// (meaningful in release builds; the Benchmarks package measures it properly).
@Suite(.serialized) struct StorePerformanceTests {
    static let rows = 1_000_000

    private func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A file at persistence version 1 with `rows` rows, filled inside SQLite.
    private func bigDatabase(_ directory: URL, name: String) throws -> DatabasePool {
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

    @Test func addColumnIsInstantAndRebuildCostsAtMostTwiceARawCopy() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-verify")
        let pool = try bigDatabase(temporary.url, name: "migrated.sqlite")
        defer { try? pool.close() }
        let addColumn = try seconds { try StoreDatabase.migrate(pool, schema: ReferenceSDKStore.Persistence.schema, upTo: 2) }
        let rebuild = try seconds { try StoreDatabase.migrate(pool, schema: ReferenceSDKStore.Persistence.schema, upTo: 3) }
        #expect(try pool.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Note""#) } == Self.rows)

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
        #expect(addColumn <= 0.1)
        #expect(rebuild <= 2 * copy)
    }

    @Test func insertAllThroughput() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-verify")
        let count = 100_000
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
        #expect(try pool.read { db in try ReferenceSDKStore.Persistence.Note.fetchCount(db) } == count)
        #expect(try rawPool.read { db in try ReferenceSDKStore.Persistence.Note.fetchCount(db) } == count)
        print("store performance: insertAll \(api) s, C API \(raw) s for \(count) rows (raw/api ratio \(raw / api))")
    }
}

/// The raw C API reference failed.
struct RawSQLiteFailure: Error {}
