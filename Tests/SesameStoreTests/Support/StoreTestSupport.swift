import Foundation
import GRDB
import Sesame
@testable import SesameStore

/// A hand-written two-version schema, as the generator would write it.
enum StoreTestSchema {
    static let v1 = StoreMigration("persistence.v1", version: 1) { db in
        try db.execute(sql: #"CREATE TABLE "Note" ("id" TEXT NOT NULL, "body" TEXT NOT NULL, PRIMARY KEY ("id"))"#)
    }
    static let v2 = StoreMigration("persistence.v2", version: 2) { db in
        try db.execute(sql: #"ALTER TABLE "Note" ADD COLUMN "pinned" BOOLEAN NOT NULL DEFAULT 0"#)
    }

    static func persistence(upTo version: Int) -> StoreSchema {
        StoreSchema(kind: .persistence, version: version, policy: .migrate, migrations: Array([v1, v2].prefix(version)), latest: { _ in })
    }

    static func cache(version: Int) -> StoreSchema {
        StoreSchema(
            kind: .cache, version: version, policy: .recreate,
            migrations: [
                StoreMigration("cache.v\(version)", version: version) { db in
                    try db.execute(sql: #"CREATE TABLE "Avatar" ("userId" TEXT NOT NULL, "v\#(version)" BLOB, PRIMARY KEY ("userId"))"#)
                }
            ], latest: { _ in })
    }

    static let memory = StoreSchema(
        kind: .memory, version: 1, policy: .recreate,
        migrations: [
            StoreMigration("memory.v1", version: 1) { db in
                try db.execute(sql: #"CREATE TABLE "Draft" ("id" TEXT NOT NULL PRIMARY KEY)"#)
            }
        ], latest: { _ in })

    static let definition = StoreDefinition(persistence: persistence(upTo: 2), cache: cache(version: 1), memory: memory)
}

/// POSIX permission bits of a path.
func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// The user details the session-store tests save.
struct TestDetails: Codable, Hashable, Sendable {
    var uid: String
    var provider: String
}
