import Testing
@testable import SesameGenerator

/// Reading YAML: positions on every kind of line end, duplicate keys, and aliases up to
/// the expansion limit, run in the fuzz target's framing (`FuzzCase`) where the fuzz target
/// found them.
@Suite struct YAMLReadingTests {
    /// A duplicate key in a file whose lines end in a lone `\r`: libyaml counts those lines,
    /// and looking up the repeated key split the text on `\n` only, so the mapping's line
    /// lay past the last line found and building the range to search trapped.
    @Test func duplicateKeyAfterCarriageReturnLineBreaks() {
        let generation = FuzzCase.run("=== models.yaml\nA:\r  type: string\r  type: string\r")
        #expect(
            generation.diagnostics.map(\.description)
                == ["Schema/models.yaml:3:3: error: duplicate key 'type'; a mapping may name each key once"])
    }

    /// The same with Windows line ends, which were counted right already: the key is still
    /// found on its own line.
    @Test func duplicateKeyAfterCRLFLineBreaks() {
        let generation = FuzzCase.run("=== models.yaml\nA:\r\n  type: string\r\n  type: string\r\n")
        #expect(
            generation.diagnostics.map(\.description)
                == ["Schema/models.yaml:3:3: error: duplicate key 'type'; a mapping may name each key once"])
    }

    /// "Billion laughs": each list holds ten aliases of the one before, so nine short lines
    /// stand for a billion nodes, and walking the default's literal hung. Aliases may now
    /// add at most `aliasedNodeLimit` nodes to a file, checked once per distinct node.
    @Test func aliasesThatExpandBeyondTheLimitAreAnError() {
        let generation = FuzzCase.run(
            """
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
        #expect(
            generation.diagnostics.map(\.description) == [
                "Schema/models.yaml:4:5: error: aliases repeat this node until the file would hold over 100000 more nodes; "
                    + "share smaller blocks, or write them out"
            ])
    }

    /// Aliases that add 90,107 nodes: under what one file may add, and over it twice.
    static let ninetyThousandNodes = """
        a0: &a0 [x, x, x, x, x, x, x, x, x, x]
        a1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]
        a2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]
        a3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]
        a4: [*a3, *a3, *a3, *a3, *a3, *a3, *a3]
        """

    /// The limit counts over every file of a schema: forty files each just under it cost forty
    /// times what one may (16.7 s and 571 MB for 40 referenced documents of 17 KB). One file
    /// under it reads; the second that passes it together is one error, at its repeated node,
    /// and a third is not composed either, without an error of its own.
    @Test func aliasesCountOverEveryFileOfTheSchema() {
        let document =
            "$defs:\n  ok: { type: string }\ndata:\n"
            + Self.ninetyThousandNodes.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
        var budget = YAMLReader.aliasedNodeLimit
        let sources = ["a.yaml", "b.yaml", "c.yaml"].map {
            SchemaSource(path: "Schema/\($0)", relativePath: $0, text: document, isReferencedDocument: true)
        }
        let diagnostics = sources.map { YAMLReader.parse($0, aliasBudget: &budget) }
        #expect(diagnostics[0].diagnostics.isEmpty && diagnostics[0].file.root != nil)
        #expect(
            diagnostics[1].diagnostics.map(\.description) == [
                "Schema/b.yaml:6:7: error: aliases repeat this node until the schema's files would hold over 100000 more nodes "
                    + "(aliases in the files read before this one add 90107); share smaller blocks, or write them out"
            ])
        #expect(diagnostics[1].file.root == nil)
        #expect(diagnostics[2].diagnostics.isEmpty && diagnostics[2].file.root == nil)
        // Each file alone is within the limit.
        #expect(YAMLReader.parse(sources[2]).diagnostics.isEmpty)
    }

    /// Found by libFuzzer (a mutation of the input above): a mapping key that is itself a
    /// collection holding the aliases. Yams hashes keys to find duplicates while it composes,
    /// so it walked the billion nodes before the tree reached any check (a 10 s timeout). The
    /// limit is now checked on libyaml's events, before composing.
    @Test func aliasesInsideACollectionKeyAreCountedBeforeComposing() {
        let generation = FuzzCase.run(
            """
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
            A: { type: object,   hosts: {  { p: { type: array, default: *a8 } } }
            """)
        #expect(
            generation.diagnostics.map(\.description) == [
                "Schema/models.yaml:4:5: error: aliases repeat this node until the file would hold over 100000 more nodes; "
                    + "share smaller blocks, or write them out"
            ])
    }

    /// An anchor on a scalar, and an anchor named again (its later aliases name the new node),
    /// are counted as what they name at that point: a small file that uses them reads as before.
    @Test func anchorsOnScalarsAndRedefinedAreCountedAsTheyStand() {
        let generation = FuzzCase.run(
            FuzzCase.folder(
                properties: """
                        first: &note { type: string, maxLength: &max 10 }
                        second: { type: string, maxLength: *max }
                        third: &note { type: integer }
                        fourth: *note
                    """))
        #expect(generation.diagnostics.isEmpty)
        let token = Fixture.model("Token", in: generation)
        #expect(token.contains("public var fourth: Int?"))
        // Two properties, each checked by init(from:) and by encode(to:).
        #expect(token.components(separatedBy: "max: 10,").count == 5)
    }

    /// Aliases within the limit still work as docs/format.md says: a shared block of
    /// properties, used twice, renders in both models.
    @Test func aliasesWithinTheLimitStillWork() {
        let generation = FuzzCase.run(
            FuzzCase.folder(
                properties: """
                        shared: &shared { type: object, properties: { note: { type: string, maxLength: 10 } } }
                        copy: *shared
                    """))
        #expect(generation.diagnostics.isEmpty)
        // Two properties, each checked by init(from:) and by encode(to:).
        #expect(Fixture.model("Token", in: generation).components(separatedBy: "max: 10,").count == 5)
    }
}
