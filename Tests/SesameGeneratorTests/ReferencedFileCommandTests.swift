import Foundation
import Testing

@testable import SesameGenerator

/// The CLI reading the files `$ref`s name (docs/format.md, "References"): only under the
/// declared roots, never through a link out of them, and `generate --check`, `release` and
/// `diff` all following them.
@Suite(.serialized) struct ReferencedFileCommandTests {
    let cli = CommandLineTests()

    static let document = """
        openapi: 3.1.0
        info: { title: Accounts, version: "1" }
        components:
          schemas:
            Account:
              type: object
              required: [id]
              properties:
                id: { type: string }
        """

    /// `folder/Schema` with the fixture and an `Account` model from `folder/api/openapi.yaml`.
    func write(in folder: URL, extraModels: String = "") throws -> (schema: URL, api: URL) {
        let (schema, _) = try cli.schemaAndOutput(in: folder)
        let api = folder.appendingPathComponent("api")
        try FileManager.default.createDirectory(at: api, withIntermediateDirectories: true)
        try cli.writeSchema(
            Fixture.sources([
                "sdk.yaml": Fixture.sdk + "\nreferences: { roots: [../api] }\n",
                "models.yaml": Fixture.models + "\nAccount: { $ref: \"../api/openapi.yaml#/components/schemas/Account\" }\n"
                    + extraModels,
            ]), to: schema)
        try Self.document.write(to: api.appendingPathComponent("openapi.yaml"), atomically: true, encoding: .utf8)
        return (schema, api)
    }

    @Test func aFileIsReadUnderTheRootsOnlyAndNeverThroughALinkOutOfThem() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, _) = try write(
            in: folder,
            extraModels: """
                Secret: { $ref: "./linked.json" }
                Other: { $ref: "../elsewhere/x.json" }
                """)
        let secrets = folder.appendingPathComponent("secrets")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        try #"{ "type": "string" }"#.write(to: secrets.appendingPathComponent("x.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: schema.appendingPathComponent("linked.json").path, withDestinationPath: secrets.appendingPathComponent("x.json").path)
        let result = try await cli.run(["validate", schema.path])
        #expect(result.status == 1)
        let lines = result.errors.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "\(schema.path)/models.yaml:14:17: error: $ref './linked.json': cannot read 'linked.json': it is a symbolic link out of the schema folder and the declared roots"
            ), "\(lines)")
        #expect(
            lines.contains(
                "\(schema.path)/models.yaml:15:16: error: $ref '../elsewhere/x.json': '../elsewhere/x.json' is outside the schema folder; declare its folder in sdk.yaml (references: { roots: [../elsewhere] })"
            ), "\(lines)")
        // The account's document, under the declared root, was read.
        #expect(!lines.contains { $0.contains("openapi.yaml") }, "\(lines)")
    }

    @Test func generateCheckReleaseAndDiffFollowAReferencedDocument() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, api) = try write(in: folder)
        let output = folder.appendingPathComponent("Generated")
        let generated = try await cli.run(["generate", schema.path, "--output", output.path])
        #expect(generated.status == 0, "\(generated.errors)")
        let released = try await cli.run(["release", schema.path])
        #expect(released.status == 0, "\(released.errors)")
        let copy = schema.appendingPathComponent("released/schema/.references/%2E%2E/api/openapi.yaml")
        #expect(FileManager.default.contents(atPath: copy.path) == Data(Self.document.utf8))

        // A change of the document alone is a change of the SDK.
        try Self.document.replacingOccurrences(of: "required: [id]", with: "required: [id, owner]")
            .appending("\n        owner: { type: string }\n")
            .write(to: api.appendingPathComponent("openapi.yaml"), atomically: true, encoding: .utf8)
        let check = try await cli.run(["generate", schema.path, "--output", output.path, "--check"])
        #expect(check.status == 1)
        #expect(check.errors.contains("would change"), "\(check.errors)")
        let releaseCheck = try await cli.run(["release", schema.path, "--check"])
        #expect(releaseCheck.status == 1)
        #expect(releaseCheck.errors.contains(".references/%2E%2E/api/openapi.yaml: would change"), "\(releaseCheck.errors)")
        // The released copy reads its own copy of the document, not the changed one.
        let diff = try await cli.run(["diff", schema.appendingPathComponent("released/schema").path, schema.path])
        #expect(diff.output.contains("owner"), "\(diff.output) \(diff.errors)")
    }
}
