import Testing
@testable import SesameGenerator

/// The fuzz target's framing and pipeline (Fuzz/Sources/sesame-fuzz/SesameFuzz.swift): a line
/// `=== <path>` starts each file, text before the first one is `sdk.yaml`, `.json` files
/// under `released/` are store snapshots, and YAML under `released/schema/` the released
/// schema the folder is diffed against.
enum FuzzCase {
    /// A small valid folder (Fixture's) in the fuzz framing, with extra properties on Token.
    static func folder(properties: String) -> String {
        """
        === sdk.yaml
        \(Fixture.sdk)
        === auth.yaml
        \(Fixture.auth)
        === models.yaml
        \(Fixture.tokenModel)
        \(properties)
        User: { type: object, required: [id], properties: { id: { type: string } } }
        """
    }

    static func run(_ input: String) -> GeneratorPipeline.Generation {
        var files: [String: String] = [:]
        var path = "sdk.yaml"
        var lines: [String] = []
        var named = false
        for scalars in input.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(scalars)
            if line.hasPrefix("=== ") {
                if named || !lines.isEmpty { files[path] = lines.joined(separator: "\n") }
                path = String(line.dropFirst(4))
                lines = []
                named = true
            } else {
                lines.append(line)
            }
        }
        if named || !lines.isEmpty { files[path] = lines.joined(separator: "\n") }
        func sources(under folder: String) -> [SchemaSource] {
            files.keys.sorted().filter { $0.hasPrefix(folder) && !$0.dropFirst(folder.count).hasPrefix("released/") }
                .map { SchemaSource(path: "Schema/\($0)", relativePath: String($0.dropFirst(folder.count)), text: files[$0]!) }
        }
        let released = files.filter { $0.key.hasPrefix("released/store/") }
        let generation = GeneratorPipeline.generate(sources(under: ""), released: released)
        // The fuzz target's own check: a schema yields files or at least one error.
        #expect(!generation.files.isEmpty || generation.diagnostics.hasErrors)
        let previous = sources(under: "released/schema/")
        if !previous.isEmpty, let new = generation.ir, let old = GeneratorPipeline.validate(previous).ir {
            _ = SchemaDiff.compare(old: old, new: new)
        }
        return generation
    }
}
