import Testing
import SesameGenerator

/// Inputs that crashed the generator under the fuzz target (Fuzz/, docs/fuzzing.md), kept in
/// its framing and run down the same read → validate → render path: each must now end in
/// files or diagnostics, and where there is one, in the diagnostic that names the problem.
@Suite struct FuzzRegressionTests {
    /// A duplicate key in a file whose lines end in a lone `\r`: libyaml counts those lines,
    /// and looking up the repeated key split the text on `\n` only, so the mapping's line
    /// lay past the last line found and building the range to search trapped.
    @Test func duplicateKeyAfterCarriageReturnLineBreaks() {
        let generation = FuzzCase.run("=== models.yaml\nA:\r  type: string\r  type: string\r")
        #expect(generation.diagnostics.map(\.description)
            == ["Schema/models.yaml:3:3: error: duplicate key 'type'; a mapping may name each key once"])
    }

    /// The same with Windows line ends, which were counted right already: the key is still
    /// found on its own line.
    @Test func duplicateKeyAfterCRLFLineBreaks() {
        let generation = FuzzCase.run("=== models.yaml\nA:\r\n  type: string\r\n  type: string\r\n")
        #expect(generation.diagnostics.map(\.description)
            == ["Schema/models.yaml:3:3: error: duplicate key 'type'; a mapping may name each key once"])
    }

    /// A store version of `Int.max`: the numbering check computed the next version as
    /// `number + 1` and overflowed. Versions now stop at SQLite's `user_version` bound.
    @Test func storeVersionTooLargeForTheDatabase() {
        let generation = FuzzCase.run("=== sdk.yaml\n=== store.yaml\npersistence:\n  9223372036854775807: {}\n")
        #expect(generation.diagnostics.map(\.description).contains(
            "Schema/store.yaml:2:3: error: version 9223372036854775807 of 'persistence' is too large: a database records at most version 2147483647"))
    }

    /// The largest version a database can record is still a version: past the bound check,
    /// it is reported as a gap like any other.
    @Test func largestStoreVersionIsAGap() {
        let generation = FuzzCase.run("=== sdk.yaml\n=== store.yaml\npersistence:\n  2147483647: {}\n")
        let messages = generation.diagnostics.map(\.message)
        #expect(!messages.contains { $0.contains("too large") })
        #expect(messages.contains { $0.hasPrefix("the first version of 'persistence' is 2147483647") })
    }

    /// Infinity and NaN are YAML numbers but not JSON ones, and Swift has no literal for
    /// them: they rendered as `inf` and `nan`, and the SDK did not compile. Found by reading
    /// the renderer's number formatting while fuzzing; the fuzz target checks crashes only.
    @Test func nonFiniteNumbersAreRejected() {
        #expect(!FuzzCase.run(Self.folder(properties: "")).files.isEmpty, "the folder is valid without them")
        let generation = FuzzCase.run(Self.folder(properties: """
            score: { type: number, minimum: .inf, default: 1e309 }
            other: { type: number, maximum: .nan, const: .NaN }
        """))
        #expect(generation.diagnostics.map(\.description) == [
            "Schema/models.yaml:8:37: error: minimum must be a finite number, found '.inf'",
            "Schema/models.yaml:8:52: error: default does not match the type number",
            "Schema/models.yaml:9:37: error: maximum must be a finite number, found '.nan'",
            "Schema/models.yaml:9:50: error: const does not match the type number",
        ])
    }

    /// "Billion laughs": each list holds ten aliases of the one before, so nine short lines
    /// stand for a billion nodes, and walking the default's literal hung. Aliases may now
    /// add at most `aliasedNodeLimit` nodes to a file, checked once per distinct node.
    @Test func aliasesThatExpandBeyondTheLimitAreAnError() {
        let generation = FuzzCase.run("""
            === models.yaml
            a0: &a0 [x, x, x, x, x, x, x, x, x, x]
            a1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]
            a2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]
            a3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]
            a4: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]
            a5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]
            a6: &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]
            a7: &a7 [*a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6]
            a8: &a8 [*a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7]
            A: { type: object, properties: { p: { type: array, default: *a8 } } }
            """)
        #expect(generation.diagnostics.map(\.description) == [
            "Schema/models.yaml:4:5: error: aliases repeat this node until the file would hold over 100000 more nodes; "
                + "share smaller blocks, or write them out",
        ])
    }

    /// Aliases within the limit still work as docs/format.md says: a shared block of
    /// properties, used twice, renders in both models.
    @Test func aliasesWithinTheLimitStillWork() {
        let generation = FuzzCase.run(Self.folder(properties: """
            shared: &shared { type: object, properties: { note: { type: string, maxLength: 10 } } }
            copy: *shared
        """))
        #expect(generation.diagnostics.isEmpty)
        #expect(Fixture.file("Models/Token.swift", in: generation).components(separatedBy: "max: 10,").count == 3)
    }

    /// A small valid folder (Fixture's) in the fuzz framing, with extra properties on Token.
    static func folder(properties: String) -> String {
        """
        === sdk.yaml
        \(Fixture.sdk)
        === auth.yaml
        \(Fixture.auth)
        === models.yaml
        Token:
          type: object
          required: [access_token]
          properties:
            access_token: { type: string }
            refresh_token: { type: string }
            expires_in: { type: integer }
        \(properties)
        User: { type: object, required: [id], properties: { id: { type: string } } }
        """
    }
}

/// The fuzz target's framing and pipeline (Fuzz/Sources/sesame-fuzz/SesameFuzz.swift): a line
/// `=== <path>` starts each file, text before the first one is `sdk.yaml`, `.json` files
/// under `released/` are store snapshots, and YAML under `released/schema/` the released
/// schema the folder is diffed against.
enum FuzzCase {
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
