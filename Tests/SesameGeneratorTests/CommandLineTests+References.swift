import Foundation
import SesameTestSupport
import Testing
@testable import SesameGenerator

/// `sesame` on schemas whose `$ref`s name many files, read from disk by the CLI as a process.
extension CommandLineTests {
    /// A chain of `allOf` `$ref`s across 1,000 files (the most a schema may read): each round
    /// of reading finds one more. Each file is parsed once (72.6 s when every round parsed
    /// every file read so far; `sesame-bench references` times it).
    @Test func aChainOfRefsAcrossAThousandFilesValidates() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, output) = try schemaAndOutput(in: folder)
        var sources = try ReferenceSchema.sources()
        let models = try #require(sources.firstIndex { $0.relativePath == "models.yaml" })
        sources[models].text += "\nChainHead:\n  type: object\n  properties:\n    link: { $ref: \"chain/0.json\" }\n"
        try writeSchema(sources, to: schema)
        let chain = schema.appendingPathComponent("chain")
        try FileManager.default.createDirectory(at: chain, withIntermediateDirectories: true)
        for index in 0..<1000 {
            let text =
                index < 999 ? #"{"allOf":[{"$ref":"\#(index + 1).json"}]}"# : #"{"type":"object","properties":{"end":{"type":"string"}}}"#
            try Data(text.utf8).write(to: chain.appendingPathComponent("\(index).json"))
        }
        let validated = try await run(["validate", schema.path])
        #expect(validated.status == 0, "\(validated.errors.prefix(2000))")
        #expect(validated.errors.contains("valid (\(sources.count + 1000) files)"), "\(validated.errors.prefix(2000))")
        let generated = try await run(["generate", schema.path, "--output", output.path])
        #expect(generated.status == 0, "\(generated.errors.prefix(2000))")
        // The end of the chain is a property of the head's link.
        let head = try String(contentsOf: output.appendingPathComponent("Models/Models+ChainHead.swift"), encoding: .utf8)
        #expect(head.contains("public var link: _0?"))
    }
}
