import Foundation
import GRDB

/// A database's schema as SQLite reports it: every table (but GRDB's and SQLite's own) with
/// its columns (`PRAGMA table_info`: position, name, declared type, NOT NULL, default,
/// primary-key rank) and its indexes (`PRAGMA index_list` and `index_info`).
struct StoreSchemaSnapshot: Hashable, CustomStringConvertible {
    struct Column: Hashable {
        var position: Int
        var name: String
        var type: String
        var notNull: Bool
        var defaultValue: String?
        var primaryKeyRank: Int
    }

    struct Index: Hashable {
        var name: String
        var unique: Bool
        var origin: String
        var columns: [String]
    }

    struct Table: Hashable {
        var columns: [Column]
        var indexes: [Index]
    }

    var tables: [String: Table]

    init(_ db: Database) throws {
        let names = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM sqlite_master
                WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
                ORDER BY name
                """)
        var tables: [String: Table] = [:]
        for name in names {
            let quoted = name.quotedDatabaseIdentifier
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted))").map { row in
                Column(
                    position: row["cid"], name: row["name"], type: row["type"], notNull: row["notnull"],
                    defaultValue: row["dflt_value"], primaryKeyRank: row["pk"])
            }
            let indexes = try Row.fetchAll(db, sql: "PRAGMA index_list(\(quoted))").map { row in
                let indexName: String = row["name"]
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [indexName])
                return Index(name: indexName, unique: row["unique"], origin: row["origin"], columns: columns)
            }.sorted { $0.name < $1.name }
            tables[name] = Table(columns: columns, indexes: indexes)
        }
        self.tables = tables
    }

    var description: String {
        tables.keys.sorted().map { name in
            let table = tables[name]!
            let columns = table.columns.map {
                "\($0.name) \($0.type)\($0.notNull ? " NOT NULL" : "")\($0.defaultValue.map { " DEFAULT \($0)" } ?? "") pk\($0.primaryKeyRank)"
            }
            let indexes = table.indexes.map { "\($0.name)(\($0.columns.joined(separator: ","))) unique:\($0.unique) \($0.origin)" }
            return "\(name): \(columns.joined(separator: ", ")); indexes: \(indexes.joined(separator: ", "))"
        }.joined(separator: "\n")
    }
}
