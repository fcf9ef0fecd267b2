import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// The fast path of the generated `insertAll`: binds each value straight into a cached
/// prepared statement (no per-row argument array), then runs it through GRDB's `execute()`,
/// so transaction observers and `ValueObservation` still see every change.
public struct StoreInsertStatement {
    private let statement: Statement
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Prepares (or reuses from the connection's cache) an INSERT statement.
    /// - Throws: a `DatabaseError` when the SQL does not compile.
    public init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        // Tell GRDB the statement has a valid set of arguments, so that `execute()` keeps
        // the values bound below instead of validating an empty argument list.
        let count = Int(sqlite3_bind_parameter_count(statement.sqliteStatement))
        statement.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: count)))
    }

    /// Binds a string (copied by SQLite) at a 1-based index.
    /// - Throws: a `DatabaseError` when SQLite refuses the binding.
    public func bind(_ value: String, at index: Int32) throws {
        let length = Int32(value.utf8.count)
        try check(value.withCString { text in sqlite3_bind_text(statement.sqliteStatement, index, text, length, Self.transient) })
    }

    /// Binds an integer at a 1-based index.
    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(statement.sqliteStatement, index, value))
    }

    /// Binds a double at a 1-based index.
    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(statement.sqliteStatement, index, value))
    }

    /// Binds a boolean as 0 or 1 at a 1-based index.
    public func bind(_ value: Bool, at index: Int32) throws {
        try check(sqlite3_bind_int64(statement.sqliteStatement, index, value ? 1 : 0))
    }

    /// Binds any other value (`Data`, `Date`, optionals) as GRDB stores it.
    public func bind(_ value: (some DatabaseValueConvertible)?, at index: Int32) throws {
        let sqlite = statement.sqliteStatement
        switch value?.databaseValue.storage ?? .null {
        case .null: try check(sqlite3_bind_null(sqlite, index))
        case .int64(let int): try check(sqlite3_bind_int64(sqlite, index, int))
        case .double(let double): try check(sqlite3_bind_double(sqlite, index, double))
        case .string(let string): try bind(string, at: index)
        case .blob(let data):
            try check(
                data.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(
                        sqlite, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), Self.transient)
                })
        }
    }

    /// Runs the statement with the values bound.
    /// - Throws: a `DatabaseError` (a constraint violation, for instance).
    public func execute() throws {
        try statement.execute()
        // A finished statement must be reset before new values are bound.
        sqlite3_reset(statement.sqliteStatement)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind a value", sql: statement.sql)
        }
    }
}

/// A statement belongs to its connection's queue: never send it elsewhere.
@available(*, unavailable)
extension StoreInsertStatement: Sendable {}
