import Foundation
import Testing

/// The README's Swift example is `ReadmeQuickStart.swift`, which compiles with this target.
@Suite struct ReadmeTests {
    /// The repository's root (this file is Reference/Tests/EndToEndTests/ReadmeTests.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of the README's first ```swift block.
    static func readmeExample() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "```swift"), "the README has no ```swift block")
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"), "the README's ```swift block does not end")
        return Array(lines[(start + 1)..<end])
    }

    /// The imports of ReadmeQuickStart.swift, a blank line, then `readmeQuickStart()`'s body, one level out.
    static func compiledExample() throws -> [String] {
        let file = root.appendingPathComponent("Reference/Tests/EndToEndTests/ReadmeQuickStart.swift")
        let source = try String(contentsOf: file, encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let imports = lines.filter { $0.hasPrefix("import ") }
        let open = try #require(lines.firstIndex(of: "func readmeQuickStart() async throws {"))
        let close = try #require(lines[open...].firstIndex(of: "}"))
        let body = lines[(open + 1)..<close].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
        return imports + [""] + body
    }

    @Test func theReadmeShowsTheExampleThatCompiles() throws {
        let readme = try Self.readmeExample()
        let compiled = try Self.compiledExample()
        #expect(compiled.count > 10)
        #expect(readme == compiled, "README.md's swift block differs from Reference/Tests/EndToEndTests/ReadmeQuickStart.swift")
    }
}
