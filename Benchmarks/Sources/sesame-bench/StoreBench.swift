import Foundation
import GRDB
import GRDBSQLite
import ReferenceSDK
import Sesame

/// Helpers shared by `store-insert` and `migrate`: a temporary directory, the SQLite C API.
enum StoreBench {
    static let schema = ReferenceSDKStore.Persistence.schema

    /// A fresh directory under the system's temporary directory, removed by `remove()`.
    struct Directory {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        func file(_ name: String) -> URL { url.appendingPathComponent(name) }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// A raw SQLite failure, with SQLite's message.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A connection opened with the C API only.
    final class RawConnection {
        let handle: OpaquePointer

        init(path: String) throws {
            var db: OpaquePointer?
            guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
                throw Failure(description: "cannot open \(path)")
            }
            handle = db
        }

        deinit { sqlite3_close_v2(handle) }

        func execute(_ sql: String) throws {
            var message: UnsafeMutablePointer<CChar>?
            guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
                defer { sqlite3_free(message) }
                throw Failure(description: message.map { String(cString: $0) } ?? "sqlite3_exec failed: \(sql)")
            }
        }

        /// The first column of the first row of a query, as an integer.
        func integer(_ sql: String) throws -> Int {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw Failure(description: errorMessage) }
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure(description: errorMessage) }
            return Int(sqlite3_column_int64(statement, 0))
        }

        var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }
    }

    /// `SELECT count(*) FROM "Note"`.
    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Note""#) ?? 0
    }
}
