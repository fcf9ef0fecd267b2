import Foundation
import SesameTestSupport
import Testing
@testable import SesameGenerator

/// `sesame generate --single-file`, which the SwiftPM build plugin runs: the whole SDK in one
/// Swift file at a path known before the generator runs.
@Suite(.serialized) struct CommandLinePluginSupportTests {
    struct Run: Sendable {
        var status: Int32
        var errors: String
    }

    func run(_ arguments: [String]) async throws -> Run {
        let executable = try #require(CommandLineTests.executable, "build the sesame product first (swift build)")
        return try await onOwnThread {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let errorData = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, errors: String(decoding: errorData, as: UTF8.self))
        }
    }

    /// A schema folder written from `Fixture`, and a scratch folder beside it.
    func schemaFolder(_ overrides: [String: String?] = [:]) throws -> (root: URL, schema: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-single-\(UUID().uuidString)")
        let schema = root.appendingPathComponent("Schema")
        try FileManager.default.createDirectory(at: schema, withIntermediateDirectories: true)
        for source in Fixture.sources(overrides) {
            try source.text.write(to: schema.appendingPathComponent(source.relativePath), atomically: true, encoding: .utf8)
        }
        return (root, schema)
    }

    @Test func singleFileHoldsEveryGeneratedFileWithImportsOnce() async throws {
        let (root, schema) = try schemaFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("Out/Nested/TestSDK.swift")
        #expect(try await run(["generate", schema.path, "--single-file", file.path]).status == 0)
        let text = try String(contentsOf: file, encoding: .utf8)

        let generation = Fixture.generate()
        #expect(!generation.diagnostics.hasErrors)
        #expect(text.hasPrefix(GeneratedFile.header + "\n"), "the header lets tools recognise generated code")
        #expect(text.components(separatedBy: GeneratedFile.header).count == 2, "the header appears once")
        for generated in generation.files {
            #expect(text.contains("// MARK: - \(generated.path)\n"))
            // Every declaration line of every file is there, in order within its file.
            let body = generated.contents.split(separator: "\n").filter {
                !$0.hasPrefix("import ") && !$0.hasPrefix("@_spi(Generated) import ") && $0 != GeneratedFile.header
            }
            #expect(body.allSatisfy { text.contains($0) }, "\(generated.path) is not all in the single file")
        }
        let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("@_spi(Generated) import ") }
        #expect(imports == ["@_spi(Generated) import Sesame", "@_spi(Generated) import SesameDescription", "import Foundation"])
        #expect(Set(imports).count == imports.count, "imports are not repeated")
        // Imports come before every declaration.
        let firstMark = try #require(text.range(of: "// MARK: - "))
        #expect(!text[firstMark.lowerBound...].contains("\nimport "))
    }

    @Test func singleFileIsDeterministicNotRewrittenAndChecked() async throws {
        let (root, schema) = try schemaFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("TestSDK.swift")

        let missing = try await run(["generate", schema.path, "--single-file", file.path, "--check"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("\(file.path): would be created"))
        #expect(!FileManager.default.fileExists(atPath: file.path), "--check must write nothing")

        #expect(try await run(["generate", schema.path, "--single-file", file.path]).status == 0)
        let first = try Data(contentsOf: file)
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
        let again = try await run(["generate", schema.path, "--single-file", file.path])
        #expect(again.status == 0)
        #expect(again.errors.contains("unchanged"))
        #expect(try Data(contentsOf: file) == first)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(modified == past, "an unchanged file must not be rewritten, or the build recompiles the SDK")
        #expect(try await run(["generate", schema.path, "--single-file", file.path, "--check"]).status == 0)

        // A new model changes the file, and --check says so; no new output path is needed.
        let models = Fixture.models + "\nNote:\n  type: object\n  properties:\n    text: { type: string }\n"
        try models.write(to: schema.appendingPathComponent("models.yaml"), atomically: true, encoding: .utf8)
        let drift = try await run(["generate", schema.path, "--single-file", file.path, "--check"])
        #expect(drift.status == 1)
        #expect(drift.errors.contains("\(file.path): would change"))
        #expect(try await run(["generate", schema.path, "--single-file", file.path]).status == 0)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("public struct Note: Codable"))
    }

    @Test func singleFileRefusesAnInvalidSchemaAndWritesNothing() async throws {
        let (root, schema) = try schemaFolder(["models.yaml": "User: { type: object, properties: { id: { $ref: \"#/Nope\" } } }\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("TestSDK.swift")
        let result = try await run(["generate", schema.path, "--single-file", file.path])
        #expect(result.status == 1)
        #expect(result.errors.contains("unknown model 'Nope'"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func outputAndSingleFileAreExclusiveAndOneIsRequired() async throws {
        let (root, schema) = try schemaFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let both = try await run([
            "generate", schema.path, "--output", root.appendingPathComponent("G").path,
            "--single-file", root.appendingPathComponent("S.swift").path,
        ])
        #expect(both.status != 0)
        #expect(both.errors.contains("--output and --single-file cannot be used together"))
        let neither = try await run(["generate", schema.path])
        #expect(neither.status != 0)
        #expect(neither.errors.contains("--output"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("G").path))
    }
}
