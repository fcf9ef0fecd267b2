import Testing
import SesameGenerator

/// Store versions recorded under `released/` are frozen: editing one is an error at its
/// position, and so is dropping one.
@Suite struct FrozenStoreVersionTests {
    static let store = """
    persistence:
      1:
        Note: { id: { type: text, primaryKey: true }, body: text }
      2:
        Note: { id: { type: text, primaryKey: true }, body: text, pinned: { type: boolean, default: false } }
    """

    func recorded(_ yaml: String) throws -> [String: String] {
        let generation = Fixture.generate(["store.yaml": yaml])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let snapshots = Dictionary(uniqueKeysWithValues: generation.storeSnapshots.map { ($0.path, $0.contents) })
        #expect(snapshots.keys.sorted() == ["released/store/persistence/1.json", "released/store/persistence/2.json"])
        return snapshots
    }

    @Test func unchangedVersionsPass() throws {
        let released = try recorded(Self.store)
        #expect(GeneratorPipeline.validate(Fixture.sources(["store.yaml": Self.store]), released: released).diagnostics.isEmpty)
    }

    @Test func editingAReleasedVersionIsAnErrorAtItsPosition() throws {
        let released = try recorded(Self.store)
        let edited = Self.store.replacingOccurrences(of: "pinned: { type: boolean, default: false }", with: "pinned: { type: boolean, default: true }")
        let diagnostics = GeneratorPipeline.validate(Fixture.sources(["store.yaml": edited]), released: released).diagnostics
        #expect(diagnostics.map(\.description) ==
            ["Schema/store.yaml:4:3: error: persistence v2 is released (recorded in released/store/persistence/2.json); declare v3 instead of editing it"])
    }

    @Test func addingAVersionIsFine() throws {
        let released = try recorded(Self.store)
        let extended = Self.store + "\n  3:\n    Note: { id: { type: text, primaryKey: true }, body: text, pinned: { type: boolean, default: false }, tag: { type: text, nullable: true } }\n"
        let validation = GeneratorPipeline.validate(Fixture.sources(["store.yaml": extended]), released: released)
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
    }

    @Test func droppingAReleasedVersionIsAnError() throws {
        var released = try recorded(Self.store)
        released["released/store/persistence/3.json"] = "{}\n"
        let diagnostics = GeneratorPipeline.validate(Fixture.sources(["store.yaml": Self.store]), released: released).diagnostics
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.hasPrefix("persistence v3 is released (recorded in released/store/persistence/3.json) but no longer declared") == true)
        #expect(diagnostics.first?.location?.file == "Schema/store.yaml")
    }
}
