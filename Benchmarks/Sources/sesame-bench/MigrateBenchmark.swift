import ArgumentParser
import BenchmarkTargets
import Foundation
import GRDB
import ReferenceSDK
import Sesame
import SesameStore

/// `sesame-bench migrate`: a persistence database at version 1 with N rows, migrated step by
/// step to the latest version by the runtime's runner, against a raw `INSERT INTO … SELECT`.
struct MigrateBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Times each persistence migration on N rows and a raw INSERT … SELECT copy; prints JSON lines.",
        discussion: """
            Prints one line per migration step, {"step": "persistence.v2", "seconds": …, "rows_before": N,
            "rows_after": N, "kind": "in-place" | "rebuild"}, then {"baseline": "insert-select", "seconds": …,
            "rows": N}. The database is created at version 1 by StoreDatabase.migrate(upTo: 1) and filled
            inside SQLite (one INSERT … SELECT from a recursive CTE); each step is
            StoreDatabase.migrate(pool, schema:, upTo: version) with the generated migrations. A step is
            a "rebuild" when the table's root page changes (the table was copied), else "in-place".
            The baseline, on a second file with the same rows: create a table of the latest shape,
            INSERT INTO … SELECT every row into it and create the latest version's index, in one
            transaction. Targets: in-place (add column) ≤ 0.1 s, rebuild ≤ 2× the baseline.
            Exits 1 when a step changes the row count.
            Example: swift run -c release sesame-bench migrate --rows 1000000
            """
    )

    @Option(help: "Rows in the version-1 table.")
    var rows = 1_000_000

    func validate() throws {
        guard rows >= 1 else { throw ValidationError("--rows must be at least 1") }
    }

    func run() async throws {
        let result = try Self.measure(rows: rows)
        // Unbuffered, before the verdicts on stderr.
        FileHandle.standardOutput.write(Data(result.jsonLines.map { $0 + "\n" }.joined().utf8))
        for verdict in result.verdicts { FileHandle.standardError.write(Data((verdict + "\n").utf8)) }
        if !result.metTargets { throw ExitCode.failure }
    }

    struct Step: Sendable {
        var identifier: String
        var seconds: Double
        var rowsBefore: Int
        var rowsAfter: Int
        var rebuilt: Bool
    }

    struct Result: Sendable {
        var rows: Int
        var steps: [Step]
        var baseline: Double

        var rowsKept: Bool { steps.allSatisfy { $0.rowsBefore == $0.rowsAfter && $0.rowsAfter == rows } }

        /// Each step against its target.
        func checks(_ step: Step) -> [TargetCheck] {
            Targets.migrateStep(
                step.identifier, rebuilt: step.rebuilt, seconds: step.seconds, baseline: baseline, rows: rows,
                rowsBefore: step.rowsBefore, rowsAfter: step.rowsAfter)
        }
        func met(_ step: Step) -> Bool { checks(step).allSatisfy(\.met) }
        /// Every step against its targets (speed, rows kept).
        var checks: [TargetCheck] { steps.flatMap(checks) }
        var metTargets: Bool { Verdict(checks).passed }

        var jsonLines: [String] {
            steps.map { step in
                "{\"step\": \"\(step.identifier)\", \"seconds\": \(String(format: "%.4f", step.seconds)), "
                    + "\"rows_before\": \(step.rowsBefore), \"rows_after\": \(step.rowsAfter), \"kind\": \"\(step.rebuilt ? "rebuild" : "in-place")\"}"
            } + ["{\"baseline\": \"insert-select\", \"seconds\": \(String(format: "%.4f", baseline)), \"rows\": \(rows)}"]
        }

        var verdicts: [String] {
            steps.map { step in
                let target =
                    step.rebuilt
                    ? "rebuild \(String(format: "%.2f", step.seconds / baseline))× the INSERT…SELECT (≤ 2×)"
                    : "in-place \(String(format: "%.4f", step.seconds)) s (≤ 0.1 s)"
                let rows = step.rowsBefore == step.rowsAfter ? "" : ", ROWS CHANGED \(step.rowsBefore) → \(step.rowsAfter)"
                return "\(step.identifier): \(target)  \(met(step) ? "met" : "MISSED")\(rows)"
            }
        }
    }

    static func measure(rows: Int) throws -> Result {
        let directory = try StoreBench.Directory()
        defer { directory.remove() }
        let schema = StoreBench.schema
        let migrated = try versionOne(at: directory.file("migrated.sqlite"), rows: rows)
        defer { try? migrated.close() }
        let copied = try versionOne(at: directory.file("baseline.sqlite"), rows: rows)
        defer { try? copied.close() }

        let baseline = try ContinuousClock().measure {
            try copied.write { db in
                try db.execute(
                    sql:
                        #"CREATE TABLE "Copy" ("id" TEXT NOT NULL, "text" TEXT NOT NULL, "createdAt" REAL NOT NULL, "pinned" BOOLEAN NOT NULL DEFAULT 0, PRIMARY KEY ("id"))"#
                )
                try db.execute(
                    sql:
                        #"INSERT INTO "Copy" ("id", "text", "createdAt", "pinned") SELECT "id", "body", CAST("createdAt" AS REAL), 0 FROM "Note""#
                )
                try db.execute(sql: #"CREATE INDEX "Copy_pinned" ON "Copy" ("pinned")"#)
            }
        }.seconds
        let copiedRows = try copied.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Copy""#) ?? 0 }
        guard copiedRows == rows else { throw StoreBench.Failure(description: "the baseline copied \(copiedRows) rows, expected \(rows)") }

        var steps: [Step] = []
        for migration in schema.migrations where migration.version > 1 {
            let (before, rootBefore) = try migrated.read { db in (try StoreBench.count(db), try rootPage(db)) }
            let seconds = try ContinuousClock().measure {
                try StoreDatabase.migrate(migrated, schema: schema, upTo: migration.version)
            }.seconds
            let (after, rootAfter) = try migrated.read { db in (try StoreBench.count(db), try rootPage(db)) }
            steps.append(
                Step(
                    identifier: migration.identifier, seconds: seconds, rowsBefore: before, rowsAfter: after,
                    rebuilt: rootBefore != rootAfter))
        }
        return Result(rows: rows, steps: steps, baseline: baseline)
    }

    /// A file at persistence version 1 with `rows` notes, filled inside SQLite.
    static func versionOne(at url: URL, rows: Int) throws -> DatabasePool {
        let pool = try DatabasePool(path: url.path)
        try StoreDatabase.migrate(pool, schema: StoreBench.schema, upTo: 1)
        try pool.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < \(rows - 1))
                    INSERT INTO "Note" ("id", "body", "createdAt") SELECT printf('note-%08d', x), 'body ' || x, 1700000000 + x FROM c
                    """)
        }
        return pool
    }

    /// The `Note` table's first page: it changes when the table is rebuilt.
    static func rootPage(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'Note'") ?? 0
    }
}
