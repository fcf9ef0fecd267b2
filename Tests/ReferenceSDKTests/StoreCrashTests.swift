import Foundation
import GRDB
import ReferenceSDK
import Sesame
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process killed with SIGKILL while it migrates leaves a database that reopens at a
/// declared version (the one before a migration, or the one after), with that version's
/// exact schema and every row; opening it again finishes the migration.
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

    /// Delays after the child says it starts migrating, in milliseconds: from before the
    /// database is opened to after the migration is done.
    static let delays = [0, 2, 10, 30, 60, 100, 150, 220, 300, 450, 700, 1200]

    @Test func killedMigrationReopensAtADeclaredVersionWithEveryRow() throws {
        let child = try #require(Self.childExecutable(), "build the store-migration-child product (swift build --build-tests)")
        let temporary = try StoreTemporaryDirectory()
        let rows = 150_000
        let base = temporary.url.appendingPathComponent("base.sqlite")
        try StoreFixtures.persistenceDatabase(at: base, version: 1, rows: rows)
        let expected = StoreFixtures.persistence[1]!.expected(rows)
        let latest = ReferenceSDKStore.versions.persistence
        var references: [Int: StoreSchemaSnapshot] = [:]
        for version in 1...latest { references[version] = try StoreFixtures.schema(atVersion: version, in: temporary.url) }

        var outcomes: [Int: Int] = [:]
        for (trial, delay) in Self.delays.enumerated() {
            let url = temporary.url.appendingPathComponent("trial-\(trial).sqlite")
            try FileManager.default.copyItem(at: base, to: url)
            try runAndKill(child, database: url, afterMilliseconds: delay)

            let version = try #require(try StoreDatabase.storedVersion(at: url, kind: .persistence))
            #expect((1...latest).contains(version), "trial \(trial): version \(version)")
            outcomes[version, default: 0] += 1

            let queue = try DatabaseQueue(path: url.path)
            #expect(try queue.read(StoreSchemaSnapshot.init) == references[version], "trial \(trial) at version \(version)")
            #expect(try queue.read { db in try db.integrityCheck() })
            let count = try queue.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Note""#) }
            #expect(count == rows, "trial \(trial) at version \(version)")
            try queue.close()

            let finished = try StoreDatabase.openFile(at: url, schema: ReferenceSDKStore.Persistence.schema)
            let notes = try finished.read { db in try Note.order(Note.Columns.id).fetchAll(db) }
            #expect(notes == expected, "trial \(trial): rows differ after finishing the migration")
            try finished.close()
            try StoreFilesForTests.delete(url)
        }
        print("store crash test: versions found after SIGKILL: \(outcomes.sorted { $0.key < $1.key })")
    }

    /// Starts the child, waits for its "migrating" line, sleeps, then kills it with SIGKILL
    /// (if it has not finished by then).
    private func runAndKill(_ executable: URL, database: URL, afterMilliseconds delay: Int) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = [database.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ready = output.fileHandleForReading.availableData
        #expect(String(decoding: ready, as: UTF8.self).hasPrefix("migrating"))
        usleep(useconds_t(delay * 1000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

enum StoreFilesForTests {
    static func delete(_ url: URL) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}
