import Foundation
import GRDB
import ReferenceSDK
import Sesame
import SesameStore

/// Rows for the reference store at each declared persistence version, written with raw SQL
/// for that version's tables, and the records they must become at the latest version.
///
/// A new version in Schema/store.yaml needs a fixture here: the verification test fails
/// until every declared version has one.
struct StoreVersionFixture: Sendable {
    /// Inserts `count` rows at this version.
    let insert: @Sendable (Database, Int) throws -> Void
    /// What those rows are at the latest version.
    let expected: @Sendable (Int) -> [ReferenceSDKStore.Persistence.Note]
}

enum StoreFixtures {
    /// Awkward text: quotes, a newline, non-ASCII, the empty string.
    static func body(_ index: Int) -> String {
        ["plain \(index)", "it's \"quoted\" \(index)", "line\nbreak \(index)", "émoji 🗝️ \(index)", ""][index % 5]
    }

    /// Integers up to 2^53, which a REAL holds exactly.
    static func createdAt(_ index: Int) -> Int64 {
        index == 1 ? (1 << 53) - 1 : index == 2 ? -42 : 1_700_000_000 + Int64(index)
    }

    static func id(_ index: Int) -> String { String(format: "note-%07d", index) }

    static let persistence: [Int: StoreVersionFixture] = [
        1: StoreVersionFixture(
            insert: { db, count in
                let statement = try db.makeStatement(sql: #"INSERT INTO "Note" ("id", "body", "createdAt") VALUES (?, ?, ?)"#)
                for index in 0..<count { try statement.execute(arguments: [id(index), body(index), createdAt(index)]) }
            },
            expected: { count in
                (0..<count).map { .init(id: id($0), text: body($0), createdAt: Double(createdAt($0)), pinned: false) }
            }),
        2: StoreVersionFixture(
            insert: { db, count in
                let statement = try db.makeStatement(sql: #"INSERT INTO "Note" ("id", "body", "createdAt", "pinned") VALUES (?, ?, ?, ?)"#)
                for index in 0..<count { try statement.execute(arguments: [id(index), body(index), createdAt(index), index % 2 == 0]) }
            },
            expected: { count in
                (0..<count).map { .init(id: id($0), text: body($0), createdAt: Double(createdAt($0)), pinned: $0 % 2 == 0) }
            }),
        3: StoreVersionFixture(
            insert: { db, count in
                for index in 0..<count {
                    try ReferenceSDKStore.Persistence.Note(
                        id: id(index), text: body(index), createdAt: Double(createdAt(index)) + 0.5,
                        pinned: index % 3 == 0
                    ).insert(db)
                }
            },
            expected: { count in
                (0..<count).map { .init(id: id($0), text: body($0), createdAt: Double(createdAt($0)) + 0.5, pinned: $0 % 3 == 0) }
            }),
    ]

    /// A database file at `version` of the persistence schema, with `rows` rows.
    static func persistenceDatabase(at url: URL, version: Int, rows: Int) throws {
        let pool = try DatabasePool(path: url.path)
        try StoreDatabase.migrate(pool, schema: ReferenceSDKStore.Persistence.schema, upTo: version)
        try pool.write { db in try persistence[version]!.insert(db, rows) }
        try pool.close()
    }

    /// The schema a fresh database has at `version`, by running the migrations up to it.
    static func schema(atVersion version: Int, in directory: URL) throws -> StoreSchemaSnapshot {
        let url = directory.appendingPathComponent("reference-v\(version)-\(UUID().uuidString).sqlite")
        let pool = try DatabasePool(path: url.path)
        defer { try? pool.close() }
        try StoreDatabase.migrate(pool, schema: ReferenceSDKStore.Persistence.schema, upTo: version)
        return try pool.read(StoreSchemaSnapshot.init)
    }

    /// The schema of a database created directly at the latest version.
    static func latestSchema(_ schema: StoreSchema, in directory: URL) throws -> StoreSchemaSnapshot {
        let url = directory.appendingPathComponent("latest-\(schema.kind)-\(UUID().uuidString).sqlite")
        let pool = try DatabasePool(path: url.path)
        defer { try? pool.close() }
        try pool.write { db in try schema.latest(db) }
        return try pool.read(StoreSchemaSnapshot.init)
    }
}
