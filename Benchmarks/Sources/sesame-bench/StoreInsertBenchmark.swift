import ArgumentParser
import BenchmarkTargets
import Foundation
import GRDB
import GRDBSQLite
import ReferenceSDK
import Sesame
import SesameStore

/// `sesame-bench store-insert`: the generated `insertAll` into a file database at the latest
/// persistence version, against the same inserts through the SQLite C API, in the same run.
struct StoreInsertBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store-insert",
        abstract: "Times Note.insertAll against the SQLite C API and prints one JSON line.",
        discussion: """
            Prints {"rows": N, "seconds": …, "raw_seconds": …, "ratio": raw/ours}. Each side inserts
            the same N prebuilt rows into a fresh file database created by StoreDatabase.openFile at
            the latest persistence version (WAL, synchronous NORMAL), in one transaction, commit
            included. Ours: DatabasePool.write + ReferenceSDKStore.Persistence.Note.insertAll. Raw: a
            connection opened with sqlite3_open_v2, BEGIN IMMEDIATE, one prepared statement,
            sqlite3_bind_*, sqlite3_step, sqlite3_reset, COMMIT. Best of --repetitions each,
            alternated. Target: ratio ≥ 0.6.
            Example: swift run -c release sesame-bench store-insert --rows 100000
            """
    )

    @Option(help: "Rows inserted by each side.")
    var rows = 100_000

    @Option(help: "Repetitions; the best (minimum) of each side is kept.")
    var repetitions = 3

    func validate() throws {
        guard rows >= 1, repetitions >= 1 else { throw ValidationError("--rows and --repetitions must be at least 1") }
    }

    func run() async throws {
        let result = try Self.measure(rows: rows, repetitions: repetitions)
        FileHandle.standardOutput.write(Data((result.jsonLine + "\n").utf8))  // unbuffered, before the verdict on stderr
        FileHandle.standardError.write(Data("\(result.check)\n".utf8))
        if !result.metTarget { throw ExitCode.failure }
    }

    struct Result: Sendable {
        var rows: Int
        var seconds: Double
        var rawSeconds: Double
        var ratio: Double { rawSeconds / seconds }
        var check: TargetCheck { Targets.storeInsert(rows: rows, ratio: ratio) }
        var metTarget: Bool { check.met }

        var jsonLine: String {
            "{\"rows\": \(rows), \"seconds\": \(String(format: "%.4f", seconds)), "
                + "\"raw_seconds\": \(String(format: "%.4f", rawSeconds)), \"ratio\": \(String(format: "%.3f", ratio))}"
        }
    }

    typealias Note = ReferenceSDKStore.Persistence.Note

    static func measure(rows: Int, repetitions: Int) throws -> Result {
        let directory = try StoreBench.Directory()
        defer { directory.remove() }
        let notes = (0..<rows).map {
            Note(id: String(format: "note-%08d", $0), text: "text \($0)", createdAt: 1_700_000_000 + Double($0), pinned: $0 % 7 == 0)
        }
        var best = Result(rows: rows, seconds: .infinity, rawSeconds: .infinity)
        for repetition in 0..<repetitions {
            best.seconds = min(best.seconds, try ours(notes, at: directory.file("ours-\(repetition).sqlite")))
            best.rawSeconds = min(best.rawSeconds, try raw(notes, at: directory.file("raw-\(repetition).sqlite")))
        }
        return best
    }

    /// Sesame's way: a pool opened and migrated by the runtime, one `write`, `insertAll`.
    static func ours(_ notes: [Note], at url: URL) throws -> Double {
        let pool = try StoreDatabase.openFile(at: url, schema: StoreBench.schema)
        defer { try? pool.close() }
        let elapsed = try ContinuousClock().measure {
            try pool.write { db in try Note.insertAll(notes, in: db) }
        }
        let count = try pool.read(StoreBench.count)
        guard count == notes.count else { throw StoreBench.Failure(description: "insertAll left \(count) rows, expected \(notes.count)") }
        return elapsed.seconds
    }

    /// The C API: the same file layout (created by the runtime, then closed), reopened with
    /// `sqlite3_open_v2` and the pragma GRDB sets on its writer (WAL is stored in the file).
    static func raw(_ notes: [Note], at url: URL) throws -> Double {
        try StoreDatabase.openFile(at: url, schema: StoreBench.schema).close()
        let connection = try StoreBench.RawConnection(path: url.path)
        try connection.execute("PRAGMA synchronous = NORMAL")
        let db = connection.handle
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let elapsed = try ContinuousClock().measure {
            try connection.execute("BEGIN IMMEDIATE")
            var statement: OpaquePointer?
            let sql = #"INSERT INTO "Note" ("id", "text", "createdAt", "pinned") VALUES (?, ?, ?, ?)"#
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
                throw StoreBench.Failure(description: connection.errorMessage)
            }
            defer { sqlite3_finalize(statement) }
            for note in notes {
                sqlite3_bind_text(statement, 1, note.id, -1, transient)
                sqlite3_bind_text(statement, 2, note.text, -1, transient)
                sqlite3_bind_double(statement, 3, note.createdAt)
                sqlite3_bind_int64(statement, 4, note.pinned ? 1 : 0)
                guard sqlite3_step(statement) == SQLITE_DONE else { throw StoreBench.Failure(description: connection.errorMessage) }
                sqlite3_reset(statement)
            }
            try connection.execute("COMMIT")
        }
        let count = try connection.integer(#"SELECT count(*) FROM "Note""#)
        guard count == notes.count else { throw StoreBench.Failure(description: "the C API left \(count) rows, expected \(notes.count)") }
        return elapsed.seconds
    }
}
