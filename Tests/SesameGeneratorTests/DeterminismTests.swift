import Foundation
import Testing
@testable import SesameGenerator

/// Same input, same bytes, whatever order the files arrive in.
@Suite struct DeterminismTests {
    @Test func sameInputGivesSameBytes() throws {
        let sources = try ReferenceSchema.sources()
        let first = GeneratorPipeline.generate(sources)
        let second = GeneratorPipeline.generate(sources.reversed())
        #expect(first.diagnostics.isEmpty, "\(first.diagnostics)")
        #expect(first.files == second.files)
        #expect(first.files.map(\.path) == first.files.map(\.path).sorted())
    }

    @Test func everyFileStartsWithTheGeneratedHeader() throws {
        let generation = GeneratorPipeline.generate(try ReferenceSchema.sources())
        #expect(!generation.files.isEmpty)
        for file in generation.files {
            #expect(file.contents.hasPrefix(GeneratedFile.header + "\n"), "\(file.path)")
        }
    }
}

/// The repository's `Schema/` folder, read as the CLI reads it.
enum ReferenceSchema {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func sources() throws -> [SchemaSource] {
        let folder = root.appendingPathComponent("Schema")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        return try names.map { name in
            SchemaSource(
                path: "Schema/\(name)", relativePath: name,
                text: try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
        }
    }
}
