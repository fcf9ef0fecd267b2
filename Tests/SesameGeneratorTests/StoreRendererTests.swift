import Foundation
import Testing
@testable import SesameGenerator

/// The rendered store files: paths, header, determinism, escaping, and the reference
/// output committed in Reference/Sources/ReferenceSDK/Generated/Store.
@Suite struct StoreRendererTests {
    private func referenceFiles() throws -> [GeneratedFile] {
        let (store, diagnostics) = StoreFixture.translate(try StoreFixture.referenceYAML())
        #expect(diagnostics.isEmpty)
        return StoreRenderer(store: try #require(store), namespace: "ReferenceSDKStore", schema: "ReferenceSDKSchema").files()
    }

    @Test func filesHaveStablePathsAndTheHeaderAndAreDeterministic() throws {
        let files = try referenceFiles()
        #expect(files.map(\.path) == ["Store/Store.swift", "Store/Records.swift", "Store/Migrations.swift"])
        for file in files { #expect(file.contents.hasPrefix(GeneratedFile.header + "\n")) }
        #expect(try referenceFiles() == files)
    }

    @Test func recordsAndVersionsAreRenderedForTheLatestVersion() throws {
        let files = try referenceFiles()
        let store = files[0].contents
        let records = files[1].contents
        let migrations = files[2].contents
        #expect(store.contains("public enum ReferenceSDKStore: Sendable {"))
        #expect(store.contains("public static let versions = StoreVersions(cache: 1, persistence: 3)"))
        #expect(records.contains("public struct Note: Codable, Sendable, Hashable, GRDB.FetchableRecord, GRDB.PersistableRecord {"))
        #expect(records.contains("public var createdAt: Swift.Double"))
        #expect(records.contains("public init(id: Swift.String, text: Swift.String, createdAt: Swift.Double, pinned: Swift.Bool = false)"))
        #expect(records.contains("extension ReferenceSDKStore.Cache {"))
        #expect(migrations.contains(#"StoreMigration("persistence.v2", version: 2) { db in"#))
        #expect(migrations.contains(#"try db.execute(sql: "ALTER TABLE \"Note\" ADD COLUMN \"pinned\" BOOLEAN NOT NULL DEFAULT 0")"#))
    }

    @Test func schemaTextCannotEscapeStringsOrComments() throws {
        let (store, diagnostics) = StoreFixture.translate(
            """
            cache:
              1:
                Note:
                  id: { type: text, primaryKey: true }
                  title: { type: text, default: "\\"); exit(1) //\\n*/" }
            """)
        #expect(diagnostics.isEmpty)
        let files = StoreRenderer(store: try #require(store), namespace: "ReferenceSDKStore", schema: "ReferenceSDKSchema").files()
        let records = files[1].contents
        #expect(records.contains(#"title: Swift.String = "\"); exit(1) //\n*/""#))
        #expect(!records.contains("\n*/"))
    }

    /// Compares the reference output with the committed files; with
    /// `SESAME_WRITE_STORE=1` in the environment, writes them instead.
    @Test func committedReferenceOutputIsUpToDate() throws {
        let folder = StoreFixture.root.appendingPathComponent("Reference/Sources/ReferenceSDK/Generated")
        let files = try referenceFiles()
        if ProcessInfo.processInfo.environment["SESAME_WRITE_STORE"] == "1" {
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.contents.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        for file in files {
            let committed = try? String(contentsOf: folder.appendingPathComponent(file.path), encoding: .utf8)
            #expect(committed == file.contents, "\(file.path) is stale: run `make generate`")
        }
    }
}
