import Foundation
import GRDB
import ReferenceSDK
import Sesame
import SesameStore
import SesameTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process killed with SIGKILL while it migrates leaves a database that reopens at a
/// declared version (the one before a migration, or the one after), with that version's
/// exact schema and every row; opening it again finishes the migration. Each migration step
/// runs in one transaction (docs/store.md), so a kill can only leave a step undone, never half done.
@Suite(.serialized) struct StoreCrashTests {
    typealias Note = ReferenceSDKStore.Persistence.Note

    /// The `store-migration-child` executable, built beside the test bundle.
    static func childExecutable() -> URL? {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders += Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }.map { $0.deletingLastPathComponent() }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(root.appendingPathComponent(".build/debug"))
        return folders.map { $0.appendingPathComponent("store-migration-child") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// How many times a migrating child is killed.
    static let trials = 100
    /// Rows in the version-1 file each child migrates: enough that the table rebuild of
    /// persistence.v3 takes a good part of a second in a debug build, so that many kills land
    /// inside a migration's transaction rather than before or after it.
    static let rows = 60_000

    /// A child migrates a copy of a version-1 file and is killed with SIGKILL at a random
    /// moment, 100 times. The moments are drawn uniformly from zero to a little past the time
    /// an uninterrupted child takes (measured first), from a seed printed with the results:
    /// `SESAME_CRASH_SEED=<seed> swift test --filter StoreCrashTests` replays a run.
    @Test func killedMigrationReopensAtADeclaredVersionWithEveryRow() async throws {
        let child = try #require(Self.childExecutable(), "build the store-migration-child product (swift build --build-tests)")
        let temporary = try TemporaryDirectory(prefix: "sesame-verify")
        let base = temporary.url.appendingPathComponent("base.sqlite")
        try StoreFixtures.persistenceDatabase(at: base, version: 1, rows: Self.rows)
        let expected = StoreFixtures.persistence[1]!.expected(Self.rows)
        let latest = ReferenceSDKStore.versions.persistence
        var references: [Int: StoreSchemaSnapshot] = [:]
        for version in 1...latest { references[version] = try StoreFixtures.schema(atVersion: version, in: temporary.url) }

        let calibration = temporary.url.appendingPathComponent("calibration.sqlite")
        try FileManager.default.copyItem(at: base, to: calibration)
        let whole = try await runAndKill(child, database: calibration, afterMicroseconds: nil)
        #expect(
            try StoreDatabase.storedVersion(at: calibration, kind: .persistence) == latest,
            "an uninterrupted child migrates to the latest version")
        try StoreFilesForTests.delete(calibration)

        let seed = ProcessInfo.processInfo.environment["SESAME_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        var random = SeededRandom(seed: seed)
        let horizon = max(1, Int(whole * 1.15 * 1_000_000))
        var outcomes: [Int: Int] = [:]
        for trial in 0..<Self.trials {
            let delay = Int(random.next() % UInt64(horizon))
            let context = "trial \(trial) (seed \(seed), kill after \(delay) µs)"
            let url = temporary.url.appendingPathComponent("trial-\(trial).sqlite")
            try FileManager.default.copyItem(at: base, to: url)
            _ = try await runAndKill(child, database: url, afterMicroseconds: delay)

            let version = try #require(try StoreDatabase.storedVersion(at: url, kind: .persistence), "\(context)")
            #expect((1...latest).contains(version), "\(context): version \(version)")
            outcomes[version, default: 0] += 1

            try verify(url, atVersion: version, references: references, expected: expected, context: context)
            try StoreFilesForTests.delete(url)
        }
        // The kills must have landed on both sides of a migration, or the test proved little.
        #expect(outcomes.keys.contains { $0 < latest }, "no kill landed before the migration finished (seed \(seed))")
        #expect(outcomes[latest, default: 0] > 0, "no kill landed after the migration finished (seed \(seed))")
        print(
            "store crash test: \(Self.trials) kills (seed \(seed), uninterrupted migration \(String(format: "%.3f", whole)) s): "
                + "versions found \(outcomes.sorted { $0.key < $1.key })")
    }

    /// Checks a killed child's database: the declared schema of `version`, intact, every row;
    /// then that finishing the migration keeps every row. Synchronous, so GRDB's blocking
    /// reads serve it.
    private func verify(
        _ url: URL, atVersion version: Int, references: [Int: StoreSchemaSnapshot], expected: [Note],
        context: String
    ) throws {
        let queue = try DatabaseQueue(path: url.path)
        #expect(try queue.read(StoreSchemaSnapshot.init) == references[version], "\(context) at version \(version)")
        #expect(try queue.read { db in try db.integrityCheck() }, "\(context)")
        let count = try queue.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Note""#) }
        #expect(count == Self.rows, "\(context) at version \(version)")
        try queue.close()

        let finished = try StoreDatabase.openFile(at: url, schema: ReferenceSDKStore.Persistence.schema)
        let notes = try finished.read { db in try Note.order(Note.Columns.id).fetchAll(db) }
        #expect(notes == expected, "\(context): rows differ after finishing the migration")
        try finished.close()
    }

    /// Starts the child, waits for its "migrating" line, sleeps, then kills it with SIGKILL
    /// (if it has not finished by then); with no delay, lets it finish. Returns the seconds
    /// from the "migrating" line to the child's end. The waiting happens on a thread of its
    /// own, off Swift's cooperative pool, so that the tests running beside this one go on.
    private func runAndKill(_ executable: URL, database: URL, afterMicroseconds delay: Int?) async throws -> Double {
        let (ready, elapsed) = try await onOwnThread { () throws -> (String, Duration) in
            let process = Process()
            process.executableURL = executable
            process.arguments = [database.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let ready = output.fileHandleForReading.availableData
            let start = ContinuousClock.now
            if let delay {
                usleep(useconds_t(delay))
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            return (String(decoding: ready, as: UTF8.self), ContinuousClock.now - start)
        }
        #expect(ready.hasPrefix("migrating"))
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

enum StoreFilesForTests {
    static func delete(_ url: URL) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}
