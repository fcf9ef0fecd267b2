import Testing
@testable import SesameGenerator

/// Store versions recorded under `released/` by a release are frozen: editing one is an error
/// at its position, and so is dropping one; a version not recorded yet is in development.
@Suite struct FrozenStoreVersionTests {
    static let store = """
        persistence:
          1:
            Note: { id: { type: text, primaryKey: true }, body: text }
          2:
            Note: { id: { type: text, primaryKey: true }, body: text, pinned: { type: boolean, default: false } }
        """

    func recorded(_ yaml: String) throws -> [String: String] {
        let release = GeneratorPipeline.release(Fixture.sources(["store.yaml": yaml]))
        #expect(release.diagnostics.isEmpty, "\(release.diagnostics)")
        let snapshots = Dictionary(
            uniqueKeysWithValues: release.files.filter { $0.path.hasPrefix("released/store/") }.map { ($0.path, $0.contents) })
        #expect(snapshots.keys.sorted() == ["released/store/persistence/1.json", "released/store/persistence/2.json"])
        return snapshots
    }

    @Test func unchangedVersionsPass() throws {
        let released = try recorded(Self.store)
        #expect(GeneratorPipeline.validate(Fixture.sources(["store.yaml": Self.store]), released: released).diagnostics.isEmpty)
    }

    /// A snapshot is compared as JSON: CRLF line endings (a Windows checkout), no final
    /// newline (an editor, or the fuzz target's framing) or other indentation record the same
    /// version; a changed value in the same layout is still an edit.
    @Test func snapshotsAreComparedAsJSONNotAsText() throws {
        let released = try recorded(Self.store)
        for (name, reformat) in [
            ("CRLF", { (text: String) in text.replacingOccurrences(of: "\n", with: "\r\n") }),
            ("no final newline", { (text: String) in String(text.dropLast()) }),
            ("tabs", { (text: String) in text.replacingOccurrences(of: "  ", with: "\t") }),
        ] as [(String, (String) -> String)] {
            let reformatted = released.mapValues(reformat)
            #expect(reformatted != released, "\(name) changes the text")
            let diagnostics = GeneratorPipeline.validate(Fixture.sources(["store.yaml": Self.store]), released: reformatted)
                .diagnostics
            #expect(diagnostics.isEmpty, "\(name): \(diagnostics)")
        }
        let path = "released/store/persistence/2.json"
        let edited = try #require(released[path]).replacingOccurrences(of: "false", with: "true")
        #expect(edited != released[path])
        var changed = released
        changed[path] = edited.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(
            GeneratorPipeline.validate(Fixture.sources(["store.yaml": Self.store]), released: changed).diagnostics
                .map(\.description).contains { $0.contains("persistence v2 is released") })
    }

    @Test func editingAReleasedVersionIsAnErrorAtItsPosition() throws {
        let released = try recorded(Self.store)
        let edited = Self.store.replacingOccurrences(
            of: "pinned: { type: boolean, default: false }", with: "pinned: { type: boolean, default: true }")
        let diagnostics = GeneratorPipeline.validate(Fixture.sources(["store.yaml": edited]), released: released).diagnostics
        #expect(
            diagnostics.map(\.description) == [
                "Schema/store.yaml:4:3: error: persistence v2 is released (recorded in released/store/persistence/2.json); declare v3 instead of editing it"
            ])
    }

    @Test func addingAVersionIsFine() throws {
        let released = try recorded(Self.store)
        let extended =
            Self.store
            + "\n  3:\n    Note: { id: { type: text, primaryKey: true }, body: text, pinned: { type: boolean, default: false }, tag: { type: text, nullable: true } }\n"
        let validation = GeneratorPipeline.validate(Fixture.sources(["store.yaml": extended]), released: released)
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
    }

    @Test func aReleaseCopiesTheSchemaAndSnapshotsEveryVersion() throws {
        let sources = Fixture.sources(["store.yaml": Self.store])
        let release = GeneratorPipeline.release(sources)
        #expect(
            release.files.map(\.path) == [
                "released/schema/auth.yaml", "released/schema/models.yaml", "released/schema/sdk.yaml",
                "released/schema/store.yaml", "released/store/persistence/1.json",
                "released/store/persistence/2.json",
            ])
        #expect(release.files.first { $0.path == "released/schema/store.yaml" }?.contents == Self.store)
    }

    @Test func aReleaseRefusesAnEditedReleasedVersionAndRecordsNothing() throws {
        let released = try recorded(Self.store)
        let edited = Self.store.replacingOccurrences(of: "body: text, pinned", with: "body: blob, pinned")
        let release = GeneratorPipeline.release(Fixture.sources(["store.yaml": edited]), released: released)
        #expect(release.files.isEmpty)
        #expect(
            release.diagnostics.map(\.description) == [
                "Schema/store.yaml:4:3: error: persistence v2 is released (recorded in released/store/persistence/2.json); declare v3 instead of editing it"
            ])
    }

    @Test func aVersionNotRecordedYetMayChange() throws {
        var released = try recorded(Self.store)
        released.removeValue(forKey: "released/store/persistence/2.json")
        let edited = Self.store.replacingOccurrences(
            of: "pinned: { type: boolean, default: false }", with: "pinned: { type: boolean, default: true }")
        let generation = GeneratorPipeline.generate(Fixture.sources(["store.yaml": edited]), released: released)
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        #expect(!generation.files.isEmpty)
        #expect(generation.files.allSatisfy { !$0.path.hasPrefix("released/") }, "generate writes only its output")
    }

    @Test func droppingAReleasedVersionIsAnError() throws {
        var released = try recorded(Self.store)
        released["released/store/persistence/3.json"] = "{}\n"
        let diagnostics = GeneratorPipeline.validate(Fixture.sources(["store.yaml": Self.store]), released: released).diagnostics
        #expect(diagnostics.count == 1)
        #expect(
            diagnostics.first?.message.hasPrefix(
                "persistence v3 is released (recorded in released/store/persistence/3.json) but no longer declared") == true)
        #expect(diagnostics.first?.location?.file == "Schema/store.yaml")
    }
}
