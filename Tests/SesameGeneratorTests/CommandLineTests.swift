import Foundation
import SesameTestSupport
import Testing
@testable import SesameGenerator

/// The `sesame` executable on real files: exit statuses, diagnostics on standard error,
/// writes only where bytes change, stale generated files removed, hand-written files kept.
@Suite(.serialized) struct CommandLineTests {
    struct Run: Sendable {
        var status: Int32
        var output: String
        var errors: String
    }

    static var executable: URL? {
        if let built = builtProduct(named: "sesame") { return built }
        let fallback = ReferenceSchema.root.appendingPathComponent(".build/debug/sesame")
        return FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil
    }

    func run(_ arguments: [String]) async throws -> Run {
        let executable = try #require(Self.executable, "build the sesame product first (swift build)")
        return try await onOwnThread {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                errors: String(decoding: errorData, as: UTF8.self))
        }
    }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `folder/Schema` (created) and `folder/Generated` (not created).
    func schemaAndOutput(in folder: URL) throws -> (schema: URL, output: URL) {
        let schema = folder.appendingPathComponent("Schema")
        try FileManager.default.createDirectory(at: schema, withIntermediateDirectories: true)
        return (schema, folder.appendingPathComponent("Generated"))
    }

    func writeSchema(_ sources: [SchemaSource], to folder: URL) throws {
        for source in sources {
            try source.text.write(to: folder.appendingPathComponent(source.relativePath), atomically: true, encoding: .utf8)
        }
    }

    @Test func validateExitsNonZeroAndPrintsEveryDiagnostic() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeSchema(
            Fixture.sources(["auth.yaml": "operations:\n  me: { request: GET /me, response: Usr }\n  x: { reqest: GET /x }\n"]), to: folder)
        let result = try await run(["validate", folder.path])
        #expect(result.status == 1)
        let lines = result.errors.split(separator: "\n").map(String.init)
        #expect(lines.contains("\(folder.path)/auth.yaml:2:37: error: unknown model 'Usr'; did you mean 'User'?"))
        #expect(lines.contains { $0.hasPrefix("\(folder.path)/auth.yaml:3:8: error: unknown key 'reqest'") })

        let json = try await run(["validate", folder.path, "--format", "json"])
        #expect(json.status == 1)
        let decoded = try JSONDecoder().decode([Diagnostic].self, from: Data(json.output.utf8))
        #expect(decoded.count >= 2)
        #expect(decoded.first?.location?.line == 2)

        let github = try await run(["validate", folder.path, "--format", "github"])
        #expect(github.output.contains("::error file=\(folder.path)/auth.yaml,line=2,col=37::unknown model 'Usr'"))
    }

    /// The deepest schema the format allows (64 levels: the root mapping, the model, 62
    /// arrays) generates from the CLI. Before the CLI ran on a thread of 64 MiB, a debug
    /// build overflowed the main thread's 8 MiB on it (SIGSEGV, exit status 11).
    @Test func theDeepestSchemaTheFormatAllowsGenerates() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, output) = try schemaAndOutput(in: folder)
        let arrays = (0..<62).reduce("{ type: string }") { inner, _ in "{ type: array, items: \(inner) }" }
        try writeSchema(Fixture.sources(["models.yaml": Fixture.models + "\nDeep: \(arrays)\n"]), to: schema)
        let result = try await run(["generate", schema.path, "--output", output.path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(FileManager.default.fileExists(atPath: output.path))
    }

    @Test func generateWritesOnlyChangedFilesAndRemovesStaleOnes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, output) = try schemaAndOutput(in: folder)
        try writeSchema(Fixture.sources(), to: schema)

        #expect(try await run(["generate", schema.path, "--output", output.path]).status == 0)
        // models.yaml's models, `User` among them.
        let user = output.appendingPathComponent("Models/Models.swift")
        #expect(FileManager.default.fileExists(atPath: user.path))
        #expect(try await run(["generate", schema.path, "--output", output.path, "--check"]).status == 0)

        // A stale generated file and a hand-written one.
        let stale = output.appendingPathComponent("Models/Gone.swift")
        try (GeneratedFile.header + "\nstruct Gone {}\n").write(to: stale, atomically: true, encoding: .utf8)
        let handWritten = output.appendingPathComponent("Extensions.swift")
        try "extension User {}\n".write(to: handWritten, atomically: true, encoding: .utf8)
        // Mark an unchanged file so that a rewrite would be visible.
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: user.path)

        let check = try await run(["generate", schema.path, "--output", output.path, "--check"])
        #expect(check.status == 1)
        #expect(check.errors.contains("\(stale.path): is stale and would be removed"))
        #expect(!check.errors.contains("Extensions.swift"))
        #expect(FileManager.default.fileExists(atPath: stale.path), "--check must write nothing")

        #expect(try await run(["generate", schema.path, "--output", output.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: handWritten.path))
        let modified = try FileManager.default.attributesOfItem(atPath: user.path)[.modificationDate] as? Date
        #expect(modified == past, "an unchanged file must not be rewritten")

        // A changed schema: --check names the file that would change.
        let models = Fixture.models + "\n    name: { type: string }\n"
        try models.write(to: schema.appendingPathComponent("models.yaml"), atomically: true, encoding: .utf8)
        let drift = try await run(["generate", schema.path, "--output", output.path, "--check"])
        #expect(drift.status == 1)
        #expect(drift.errors.contains("\(user.path): would change"))
    }

    /// A link planted at a temporary file's name, a generated file replaced by a link, a
    /// folder of the output or the output itself a link: `generate` writes through none of
    /// them, and what they point to, outside the output, is untouched.
    @Test func generateNeverWritesThroughASymbolicLink() async throws {
        let manager = FileManager.default
        let folder = try temporaryFolder()
        defer { try? manager.removeItem(at: folder) }
        let (schema, output) = try schemaAndOutput(in: folder)
        try writeSchema(Fixture.sources(), to: schema)
        let outside = folder.appendingPathComponent("outside")
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        let victim = outside.appendingPathComponent("victim.txt")
        try "untouched\n".write(to: victim, atomically: true, encoding: .utf8)
        #expect(try await run(["generate", schema.path, "--output", output.path]).status == 0)

        let models = output.appendingPathComponent("Models")
        let temporary = models.appendingPathComponent(".Models.swift.sesame-tmp")
        let user = models.appendingPathComponent("Models.swift")
        try manager.createSymbolicLink(at: temporary, withDestinationURL: victim)
        try manager.removeItem(at: user)
        try manager.createSymbolicLink(at: user, withDestinationURL: victim)
        #expect(try await run(["generate", schema.path, "--output", output.path]).status == 0)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "untouched\n")
        #expect(try manager.attributesOfItem(atPath: user.path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOf: user, encoding: .utf8).hasPrefix(GeneratedFile.header))
        #expect((try? manager.destinationOfSymbolicLink(atPath: temporary.path)) == nil)

        // A folder of the output, then the output itself, a link to `outside`: refused.
        try manager.removeItem(at: models)
        try manager.createSymbolicLink(at: models, withDestinationURL: outside)
        let refused = try await run(["generate", schema.path, "--output", output.path])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("\(models.path): it is a symbolic link"))
        let linked = folder.appendingPathComponent("LinkedOutput")
        try manager.createSymbolicLink(at: linked, withDestinationURL: outside)
        let refusedRoot = try await run(["generate", schema.path, "--output", linked.path])
        #expect(refusedRoot.status != 0)
        #expect(refusedRoot.errors.contains("it is a symbolic link"))
        #expect(try manager.contentsOfDirectory(atPath: outside.path) == ["victim.txt"])
        #expect(try String(contentsOf: victim, encoding: .utf8) == "untouched\n")
    }

    /// Files are written concurrently, each to a temporary file renamed over it: every file
    /// holds exactly what the pipeline generated, and no temporary file is left behind.
    @Test func generateWritesEveryFileWholeAndLeavesNoTemporaryFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, output) = try schemaAndOutput(in: folder)
        let sources = Fixture.sources()
        try writeSchema(sources, to: schema)
        let expected = GeneratorPipeline.generate(sources).files
        #expect(expected.count > 3)
        // Twice: into an empty folder, then over a folder whose files all changed.
        for _ in 0..<2 {
            #expect(try await run(["generate", schema.path, "--output", output.path]).status == 0)
            let written = try FileManager.default.subpathsOfDirectory(atPath: output.path)
                .filter { path in
                    var isFolder: ObjCBool = false
                    FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path, isDirectory: &isFolder)
                    return !isFolder.boolValue
                }.sorted()
            #expect(written == expected.map(\.path).sorted())
            for file in expected {
                let data = FileManager.default.contents(atPath: output.appendingPathComponent(file.path).path)
                #expect(data == Data(file.contents.utf8), "\(file.path)")
                try (GeneratedFile.header + "\n// changed\n").write(
                    to: output.appendingPathComponent(file.path), atomically: true, encoding: .utf8)
            }
        }
    }

    @Test func generateRefusesAnInvalidSchemaAndWritesNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("Generated")
        try writeSchema(Fixture.sources(["models.yaml": "User: { type: object, properties: { id: { $ref: \"#/Nope\" } } }\n"]), to: folder)
        let result = try await run(["generate", folder.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(result.errors.contains("unknown model 'Nope'"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func generateWritesNothingIntoTheSchemaFolderAndReleaseRecordsTheRelease() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, output) = try schemaAndOutput(in: folder)
        let store = "persistence:\n  1:\n    Note: { id: { type: text, primaryKey: true }, body: text }\n"
        try writeSchema(Fixture.sources(["store.yaml": store]), to: schema)
        let released = schema.appendingPathComponent("released")

        #expect(try await run(["generate", schema.path, "--output", output.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: released.path), "generate writes only its output folder")
        #expect(
            try await run(["generate", schema.path, "--output", output.path, "--check"]).status == 0,
            "a store version not recorded yet is in development, not drift")
        let unreleased = try await run(["release", schema.path, "--check"])
        #expect(unreleased.status == 1)
        #expect(unreleased.errors.contains("\(schema.path)/released/store/persistence/1.json: would be created"))

        #expect(try await run(["release", schema.path]).status == 0)
        let snapshot = released.appendingPathComponent("store/persistence/1.json")
        #expect(FileManager.default.fileExists(atPath: snapshot.path))
        #expect(try String(contentsOf: released.appendingPathComponent("schema/store.yaml"), encoding: .utf8) == store)
        #expect(try await run(["release", schema.path, "--check"]).status == 0)

        // Version 1 is frozen now: editing it fails generate --check and release alike, at its position.
        try store.replacingOccurrences(of: "body: text", with: "body: blob").write(
            to: schema.appendingPathComponent("store.yaml"), atomically: true, encoding: .utf8)
        let check = try await run(["generate", schema.path, "--output", output.path, "--check"])
        #expect(check.status == 1)
        #expect(check.errors.contains("\(schema.path)/store.yaml:2:3: error: persistence v1 is released"))
        let refused = try await run(["release", schema.path])
        #expect(refused.status == 1)
        #expect(
            try String(contentsOf: released.appendingPathComponent("schema/store.yaml"), encoding: .utf8) == store,
            "a refused release writes nothing")
    }
}
