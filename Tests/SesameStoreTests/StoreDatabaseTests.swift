import Foundation
import GRDB
import SesameTestSupport
import Testing
import Sesame
@testable import SesameStore

/// Opening and migrating store databases on real files.
@Suite struct StoreDatabaseTests {
    @Test func fileIsCreatedOwnerOnlyAndMigratedToTheLatestVersion() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("a/b/persistence.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: temporary.url.path)
        let pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2))
        // The app's existing directory keeps its mode; the ones Sesame created are owner-only.
        #expect(try permissions(temporary.url.path) == 0o755)
        try pool.write { db in try db.execute(sql: #"INSERT INTO "Note" ("id", "body") VALUES ('1', 'x')"#) }
        #expect(try permissions(temporary.url.appendingPathComponent("a/b").path) == 0o700)
        #expect(try permissions(temporary.url.appendingPathComponent("a").path) == 0o700)
        for suffix in ["", "-wal", "-shm"] {
            #expect(try permissions(url.path + suffix) == 0o600, "\(suffix)")
        }
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 2)
        #expect(try pool.read { db in try db.columns(in: "Note").map(\.name) } == ["id", "body", "pinned"])
        try pool.close()
        #expect(try StoreDatabase.storedVersion(at: url, kind: .persistence) == 2)
    }

    @Test func databaseNewerThanTheAppIsRefusedAndLeftUntouched() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        let pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2))
        try pool.write { db in try db.execute(sql: #"INSERT INTO "Note" ("id", "body", "pinned") VALUES ('1', 'x', 1)"#) }
        try pool.close()
        let before = try Data(contentsOf: url)

        #expect(throws: StoreError.databaseNewerThanApp(kind: .persistence, path: url.path, databaseVersion: 2, appVersion: 1)) {
            try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 1))
        }
        #expect(try Data(contentsOf: url) == before)
        let reopened = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 2))
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Note" WHERE "pinned" = 1"#) } == 1)
    }

    @Test func failedMigrationRollsBackAndKeepsEveryRow() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        let pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 1))
        try pool.write { db in
            for index in 0..<100 { try db.execute(sql: #"INSERT INTO "Note" ("id", "body") VALUES (?, 'x')"#, arguments: ["\(index)"]) }
        }
        try pool.close()
        let failing = StoreSchema(
            kind: .persistence, version: 2, policy: .migrate,
            migrations: [
                StoreTestSchema.v1,
                StoreMigration("persistence.v2", version: 2) { db in
                    try db.execute(sql: #"DELETE FROM "Note""#)
                    try db.execute(sql: "THIS IS NOT SQL")
                },
            ], latest: { _ in })
        #expect {
            try StoreDatabase.openFile(at: url, schema: failing)
        } throws: { error in
            guard case StoreError.migrationFailed(.persistence, "persistence.v2", _)? = error as? StoreError else { return false }
            return true
        }
        #expect(try StoreDatabase.storedVersion(at: url, kind: .persistence) == 1)
        let reopened = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 1))
        #expect(try reopened.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Note""#) } == 100)
    }

    @Test func recreatedCacheIsKeptAtItsVersionAndRebuiltOnAChange() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("cache.sqlite")
        var pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.cache(version: 1))
        try pool.write { db in try db.execute(sql: #"INSERT INTO "Avatar" ("userId") VALUES ('u')"#) }
        try pool.close()

        pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.cache(version: 1))
        #expect(try pool.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Avatar""#) } == 1)
        try pool.close()

        pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.cache(version: 2))
        #expect(try pool.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Avatar""#) } == 0)
        #expect(try pool.read { db in try db.columns(in: "Avatar").map(\.name) } == ["userId", "v2"])
        #expect(try permissions(url.path) == 0o600)
        try pool.close()

        #expect(throws: StoreError.self) { try StoreDatabase.openFile(at: url, schema: StoreTestSchema.cache(version: 1)) }
    }

    @Test func corruptCacheIsRebuiltButCorruptPersistenceIsRefusedUntouched() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let garbage = Data(repeating: 0x5A, count: 8192)
        let cacheURL = temporary.url.appendingPathComponent("cache.sqlite")
        try garbage.write(to: cacheURL)
        let cache = try StoreDatabase.openFile(at: cacheURL, schema: StoreTestSchema.cache(version: 1))
        #expect(try cache.read { db in try db.tableExists("Avatar") })

        let persistenceURL = temporary.url.appendingPathComponent("persistence.sqlite")
        try garbage.write(to: persistenceURL)
        #expect {
            try StoreDatabase.openFile(at: persistenceURL, schema: StoreTestSchema.persistence(upTo: 2))
        } throws: { error in
            guard case StoreError.unreadable(.persistence, _, _)? = error as? StoreError else { return false }
            return true
        }
        #expect(try Data(contentsOf: persistenceURL) == garbage)
    }

    @Test func changedMigrationIdentifierIsRefused() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 1)).close()
        let renamed = StoreSchema(
            kind: .persistence, version: 1, policy: .migrate,
            migrations: [
                StoreMigration("persistence.create", version: 1) { _ in }
            ], latest: { _ in })
        #expect {
            try StoreDatabase.openFile(at: url, schema: renamed)
        } throws: { error in
            guard case StoreError.migrationFailed(.persistence, "persistence.v1", _)? = error as? StoreError else { return false }
            return true
        }
    }

    @Test func memoryStoreStartsEmptyAtEachOpen() throws {
        let first = try StoreDatabase.openMemory(schema: StoreTestSchema.memory)
        try first.write { db in try db.execute(sql: #"INSERT INTO "Draft" ("id") VALUES ('d')"#) }
        let second = try StoreDatabase.openMemory(schema: StoreTestSchema.memory)
        #expect(try second.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Draft""#) } == 0)
        #expect(try first.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Draft""#) } == 1)
    }

    @Test func firstFetchAfterARenamingMigrationSeesTheNewColumnNames() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-store")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        let pool = try StoreDatabase.openFile(at: url, schema: StoreTestSchema.persistence(upTo: 1))
        try pool.write { db in try db.execute(sql: #"INSERT INTO "Note" ("id", "body") VALUES ('1', 'x')"#) }
        try pool.close()
        let renaming = StoreSchema(
            kind: .persistence, version: 2, policy: .migrate,
            migrations: [
                StoreTestSchema.v1,
                StoreMigration("persistence.v2", version: 2) { db in
                    try db.execute(sql: #"ALTER TABLE "Note" RENAME COLUMN "body" TO "text""#)
                },
            ], latest: { _ in })
        let migrated = try StoreDatabase.openFile(at: url, schema: renaming)
        // A cursor decodes each row from the statement as SQLite prepared it: a connection
        // with a stale schema would name the column `body`.
        let text = try migrated.read { db -> String? in
            let cursor = try Row.fetchCursor(db, sql: #"SELECT * FROM "Note""#)
            return try cursor.next().map { row in try row.decode(String.self, forColumn: "text") }
        }
        #expect(text == "x")
    }
}
