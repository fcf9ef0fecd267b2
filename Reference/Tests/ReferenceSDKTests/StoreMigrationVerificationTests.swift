import Foundation
import GRDB
import ReferenceSDK
import Sesame
import SesameStore
import SesameTestSupport
import Testing

/// Every declared version of the reference store migrates to the latest one on a file, ends
/// with exactly the schema of a database created at the latest version, and keeps every row
/// with its values.
@Suite struct StoreMigrationVerificationTests {
    typealias Note = ReferenceSDKStore.Persistence.Note
    static let versions = Array(1...ReferenceSDKStore.versions.persistence)

    @Test func everyDeclaredVersionHasAFixture() {
        #expect(Set(StoreFixtures.persistence.keys) == Set(Self.versions))
        #expect(ReferenceSDKStore.definition.versions == ReferenceSDKStore.versions)
    }

    @Test(arguments: versions)
    func versionMigratesToTheLatestLosingNothing(from version: Int) throws {
        let fixture = try #require(StoreFixtures.persistence[version])
        let temporary = try TemporaryDirectory(prefix: "sesame-verify")
        let url = temporary.url.appendingPathComponent("persistence.sqlite")
        let rows = 257
        try StoreFixtures.persistenceDatabase(at: url, version: version, rows: rows)
        #expect(try StoreDatabase.storedVersion(at: url, kind: .persistence) == version)

        let pool = try StoreDatabase.openFile(at: url, schema: ReferenceSDKStore.Persistence.schema)
        defer { try? pool.close() }
        let migrated = try pool.read(StoreSchemaSnapshot.init)
        let latest = try StoreFixtures.latestSchema(ReferenceSDKStore.Persistence.schema, in: temporary.url)
        #expect(migrated == latest, "migrated:\n\(migrated)\nlatest:\n\(latest)")
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == ReferenceSDKStore.versions.persistence)

        let notes = try pool.read { db in try Note.order(Note.Columns.id).fetchAll(db) }
        #expect(notes == fixture.expected(rows))
        #expect(try pool.read { db in try db.integrityCheck() })
    }

    @Test func latestCacheAndMemoryMatchTheirDeclaration() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-verify")
        let stores = try ContextStores(directory: temporary.url.appendingPathComponent("user"), definition: ReferenceSDKStore.definition)
        defer { try? stores.close() }
        let cache = try stores.cache.read(StoreSchemaSnapshot.init)
        #expect(cache == (try StoreFixtures.latestSchema(ReferenceSDKStore.Cache.schema, in: temporary.url)))
        #expect(!cache.tables.isEmpty)
        let avatars = [
            ReferenceSDKStore.Cache.Avatar(userId: "u", png: Data([0, 1, 2]), fetchedAt: 12.5),
            ReferenceSDKStore.Cache.Avatar(userId: "empty", png: Data(), fetchedAt: -1),
        ]
        try stores.cache.write { db in try ReferenceSDKStore.Cache.Avatar.insertAll(avatars, in: db) }
        #expect(
            try stores.cache.read { db in
                try ReferenceSDKStore.Cache.Avatar.order(ReferenceSDKStore.Cache.Avatar.Columns.userId).fetchAll(db)
            }
                == avatars.sorted { $0.userId < $1.userId })
    }

    @Test func insertAllKeepsValuesAndReportsConstraintViolations() throws {
        let temporary = try TemporaryDirectory(prefix: "sesame-verify")
        let pool = try StoreDatabase.openFile(
            at: temporary.url.appendingPathComponent("p.sqlite"), schema: ReferenceSDKStore.Persistence.schema)
        defer { try? pool.close() }
        let notes = [Note(id: "quotes", text: "a\"b\n\tc'd", createdAt: 1), Note(id: "emoji", text: "🗝️ it's", createdAt: 2, pinned: true)]
        try pool.write { db in try Note.insertAll(notes, in: db) }
        #expect(try pool.read { db in try Note.order(Note.Columns.createdAt).fetchAll(db) } == notes)
        #expect(throws: DatabaseError.self) {
            try pool.write { db in try Note.insertAll([Note(id: "quotes", text: "again", createdAt: 3)], in: db) }
        }
        #expect(try pool.read { db in try Note.fetchCount(db) } == 2)
    }
}

extension Database {
    /// Whether `PRAGMA integrity_check` finds nothing wrong.
    func integrityCheck() throws -> Bool {
        try String.fetchAll(self, sql: "PRAGMA integrity_check") == ["ok"]
    }
}
