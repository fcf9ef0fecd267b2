import ArgumentParser
import BenchmarkTargets
import Foundation
import GRDB
import GRDBSQLite
import Logging
import ReferenceSDK
import ReferenceSDKTestSupport
@_spi(Generated) import Sesame
import SesameStore
import SesameTestSupport

/// `sesame-bench launch`: what an app pays at launch to get from a session saved on disk to
/// `presession` with its user's context open, against opening the same SQLite files with
/// GRDB alone.
struct LaunchBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Times a launch from a saved session to presession with the user's context open, against GRDB alone.",
        discussion: """
            An earlier launch signs in (the reference SDK against the in-memory back-end), writes \
            a note into the user's persistence store and closes its files. The three files a \
            launch opens (the standard context's `sesame.sqlite`, the user's `persistence.sqlite` \
            and `cache.sqlite`; the standard context declares no tables, so it opens no \
            `persistence.sqlite` or `cache.sqlite`: the run fails if they exist) are then copied \
            (with their `-wal`) for each GRDB side, so that every side opens and closes only its \
            own files. Each run times, every side once, the first side rotating: (ours) \
            `AppSession(configuration:)` over the directory, `setConnectivity(online: false)` and \
            `restoreSession()`, until the state is `presession` with the user's context open; \
            (GRDB) `DatabasePool(path:)` of the three copies with GRDB's defaults, as a \
            hand-written app would open the same stores, plus a read of the saved session row; \
            (GRDB + migrator) the same with GRDB's `DatabaseMigrator.migrate` on each pool, the \
            migrations the files record registered (none left to run); (GRDB, kept WAL) the GRDB \
            side with `SQLITE_FCNTL_PERSIST_WAL` on every connection, as Sesame's stores do. One \
            run of each side first, untimed; everything is closed after each timing, outside it. \
            Prints {"runs": …, "seconds": …, "grdb_seconds": …, "ratio": …, \
            "grdb_migrator_seconds": …, "ratio_migrator": …, "grdb_kept_wal_seconds": …, \
            "ratio_kept_wal": …} (medians) and exits 1, naming it, when the target is missed: \
            ratio (to GRDB's defaults) ≤ 1.5.
            Example: swift run -c release sesame-bench launch --runs 30
            """
    )

    @Option(help: "How many launches of each kind; the medians are reported.")
    var runs = 30

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() async throws {
        let result = try await Self.measure(runs: runs)
        print(result.jsonLine)
        let verdict = Verdict([result.check])
        FileHandle.standardError.write(Data("\(verdict.report)\n".utf8))
        if !verdict.passed { throw ExitCode(verdict.exitStatus) }
    }

    struct Result: Sendable {
        var runs: Int
        /// Medians, in seconds.
        var seconds: Double
        var grdbSeconds: Double
        var grdbMigratorSeconds: Double
        var grdbKeptWALSeconds: Double

        var ratio: Double { seconds / grdbSeconds }
        var ratioMigrator: Double { seconds / grdbMigratorSeconds }
        var ratioKeptWAL: Double { seconds / grdbKeptWALSeconds }
        var check: TargetCheck { Targets.launch(ratio: ratio) }

        var jsonLine: String {
            func format(_ value: Double) -> String { String(format: "%.6f", value) }
            return "{\"runs\": \(runs), \"seconds\": \(format(seconds)), \"grdb_seconds\": \(format(grdbSeconds)), "
                + "\"ratio\": \(String(format: "%.2f", ratio)), \"grdb_migrator_seconds\": \(format(grdbMigratorSeconds)), "
                + "\"ratio_migrator\": \(String(format: "%.2f", ratioMigrator)), "
                + "\"grdb_kept_wal_seconds\": \(format(grdbKeptWALSeconds)), \"ratio_kept_wal\": \(String(format: "%.2f", ratioKeptWAL))}"
        }
    }

    static let baseURL = URL(string: "https://launch.sesame.test")!
    static let client = ClientCredentials(clientID: "launch", clientSecret: "launch-client-secret")

    static func measure(runs: Int) async throws -> Result {
        let directory = try StoreBench.Directory()
        defer { directory.remove() }
        let backEnd = InMemoryBackEnd(baseURL: baseURL, client: client, now: { Date() }, keepsRequests: false)
        let root = directory.file("sesame")
        let uid = try await earlierLaunch(in: root, backEnd: backEnd)
        let userDirectory = try UserContext.directory(for: uid, root: root)
        let standard = root.appendingPathComponent("standard", isDirectory: true)
        let named = [
            standard.appendingPathComponent("sesame.sqlite"), userDirectory.appendingPathComponent(ContextStores.persistenceFileName),
            userDirectory.appendingPathComponent(ContextStores.cacheFileName),
        ]
        let unused = [
            standard.appendingPathComponent(ContextStores.persistenceFileName),
            standard.appendingPathComponent(ContextStores.cacheFileName),
        ]
        for file in named where !FileManager.default.fileExists(atPath: file.path) {
            throw ValidationError("the launch does not use \(file.path): the benchmark's file list is out of date")
        }
        // Each GRDB side opens its own copies of the three files, so that no side reopens
        // files another side closed (a WAL one side keeps would spare the other its setup).
        let grdbFiles = try copies(of: named, into: directory.file("grdb"))
        let grdbMigratorFiles = try copies(of: named, into: directory.file("grdb-migrator"))
        let grdbKeptWALFiles = try copies(of: named, into: directory.file("grdb-kept-wal"))
        let migrators = handWrittenMigrators()
        var ours: [Double] = []
        var grdb: [Double] = []
        var grdbMigrator: [Double] = []
        var grdbKeptWAL: [Double] = []
        let sides: [() async throws -> Void] = [
            { ours.append(try await launch(in: root, backEnd: backEnd, uid: uid)) },
            { grdb.append(try openWithGRDB(grdbFiles)) },
            { grdbMigrator.append(try openWithGRDB(grdbMigratorFiles, migrators: migrators)) },
            { grdbKeptWAL.append(try openWithGRDB(grdbKeptWALFiles, keepingWAL: true)) },
        ]
        // One of each first, untimed, so that the page cache holds every file (and every
        // side's files are in the state its own close leaves them).
        for side in sides { try await side() }
        (ours, grdb, grdbMigrator, grdbKeptWAL) = ([], [], [], [])
        // Alternating, each side as often as the others, the first side rotating.
        for run in 0..<runs {
            for index in sides.indices { try await sides[(run + index) % sides.count]() }
        }
        // The standard context declares no tables: its files must not have been created.
        for file in unused where FileManager.default.fileExists(atPath: file.path) {
            throw ValidationError("the launch created \(file.path), which no store uses: the comparison is not like with like")
        }
        return Result(
            runs: runs, seconds: median(ours), grdbSeconds: median(grdb), grdbMigratorSeconds: median(grdbMigrator),
            grdbKeptWALSeconds: median(grdbKeptWAL))
    }

    /// Copies `files` (each with its `-wal`, which may hold the last transactions) into
    /// `directory`; the copies' URLs in the same order.
    static func copies(of files: [URL], into directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try files.enumerated().map { index, file in
            let copy = directory.appendingPathComponent("\(index)-\(file.lastPathComponent)")
            try FileManager.default.copyItem(at: file, to: copy)
            let wal = URL(fileURLWithPath: file.path + "-wal")
            if FileManager.default.fileExists(atPath: wal.path) {
                try FileManager.default.copyItem(at: wal, to: URL(fileURLWithPath: copy.path + "-wal"))
            }
            return copy
        }
    }

    /// An app over `root`, its service offline-capable against the in-memory back-end.
    static func makeApp(in root: URL, backEnd: InMemoryBackEnd) throws -> AppSession<ReferenceSDKSchema> {
        try AppSession<ReferenceSDKSchema>(
            configuration: .init(
                service: .init(
                    baseURL: baseURL, client: client, transport: backEnd,
                    logger: Logger(label: "sesame-bench") { _ in SwiftLogNoOpLogHandler() }, receivesServerEvents: false,
                    authorizationServerURL: baseURL),
                stores: ReferenceSDKStore.definition, directory: root))
    }

    /// Signs in as a guest, writes a note and closes every file: the session is saved.
    static func earlierLaunch(in root: URL, backEnd: InMemoryBackEnd) async throws -> String {
        let app = try makeApp(in: root, backEnd: backEnd)
        let details = try await app.auth.authenticate(with: SingleStepMethod.guest)
        guard let context = app.currentContext else { throw ValidationError("the sign-in opened no context") }
        try await context.stores.persistence.write { db in
            try ReferenceSDKStore.Persistence.Note(id: "n-1", text: "written at the earlier launch", createdAt: 0).insert(db)
        }
        try close(app)
        return ReferenceSDKSchema.userID(of: details)
    }

    /// One launch: the app created, offline, its session restored; the seconds until the
    /// state is `presession` with the user's context open. Closes the app afterwards.
    static func launch(in root: URL, backEnd: InMemoryBackEnd, uid: String) async throws -> Double {
        let started = ContinuousClock.now
        let app = try makeApp(in: root, backEnd: backEnd)
        await app.auth.setConnectivity(online: false)
        let state = await app.restoreSession()
        let context = app.currentContext
        let seconds = (ContinuousClock.now - started).seconds
        guard case .presession = state, context?.userID == uid else {
            throw ValidationError("the launch ended \(state) with \(context.map { "the context of \($0.userID)" } ?? "no context")")
        }
        try close(app)
        return seconds
    }

    static func close(_ app: AppSession<ReferenceSDKSchema>) throws {
        try app.contexts.close()
        try app.contexts.standard.close()
    }

    /// Opens `files` with `DatabasePool(path:)` and reads the saved session row from the first
    /// (`sesame.sqlite`), as the launch does; the seconds it took. Closes them afterwards.
    /// With `keepingWAL`, every connection keeps the WAL file at close
    /// (`SQLITE_FCNTL_PERSIST_WAL`, as Sesame's stores do): GRDB then finds a WAL at the next
    /// open and writes nothing.
    static func openWithGRDB(_ files: [URL], migrators: [DatabaseMigrator]? = nil, keepingWAL: Bool = false) throws -> Double {
        var configuration = Configuration()
        if keepingWAL {
            configuration.prepareDatabase { db in
                var persist: Int32 = 1
                guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist) == SQLITE_OK else {
                    throw StoreBench.Failure(description: "cannot keep the WAL of \(db.description)")
                }
            }
        }
        let started = ContinuousClock.now
        let pools = try files.map { try DatabasePool(path: $0.path, configuration: configuration) }
        if let migrators {
            for (migrator, pool) in zip(migrators, pools) { try migrator.migrate(pool) }
        }
        let payload = try pools[0].read { db in
            try Data.fetchOne(db, sql: "SELECT payload FROM sesame_session WHERE slot = 1")
        }
        let seconds = (ContinuousClock.now - started).seconds
        guard payload != nil else { throw ValidationError("sesame.sqlite holds no saved session") }
        for pool in pools { try pool.close() }
        return seconds
    }

    /// The migrators a hand-written app would run on `sesame.sqlite`, `persistence.sqlite`
    /// and `cache.sqlite`: the identifiers the earlier launch recorded. Their bodies throw:
    /// at launch every migration is applied already, and none must run.
    static func handWrittenMigrators() -> [DatabaseMigrator] {
        struct UnexpectedMigration: Error {}
        func migrator(_ identifiers: [String]) -> DatabaseMigrator {
            var migrator = DatabaseMigrator()
            for identifier in identifiers {
                migrator.registerMigration(identifier) { _ in throw UnexpectedMigration() }
            }
            return migrator
        }
        let definition = ReferenceSDKStore.definition
        return [
            migrator(["sesame.v1"]), migrator(definition.persistence.migrations.map(\.identifier)),
            migrator(definition.cache.migrations.map(\.identifier)),
        ]
    }
}
