import Foundation
import SnapshotTesting
import Testing
@testable import SesameGenerator

/// Whole-file snapshots of the SDK generated from `Schema/`. A change to the generator
/// that changes any file fails here with a diff; re-record deliberately with
/// `SNAPSHOT_TESTING_RECORD=all swift test --filter ReferenceSDKSnapshotTests`.
@Suite struct ReferenceSDKSnapshotTests {
    @Test func generatedFilesMatchTheirSnapshots() throws {
        let generation = GeneratorPipeline.generate(try ReferenceSchema.sources())
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        for file in generation.files {
            let name = file.path.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".swift", with: "")
            assertSnapshot(of: file.contents, as: .lines, named: name)
        }
    }
}
