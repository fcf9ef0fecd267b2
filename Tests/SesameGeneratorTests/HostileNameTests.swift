import Testing

@testable import SesameGenerator

/// Issue 29: names and values an attacker would write. Suggestions, naming and output stay
/// near linear in the input; no name hides a character; a store default SQLite cannot carry
/// is a positioned error; a constant never takes a name the decoder uses.
@Suite struct HostileNameTests {
    // MARK: Suggestions

    @Test func editDistanceInABandMatchesTheFullTable() {
        func full(_ a: [Character], _ b: [Character]) -> Int {
            var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { table[i][0] = i }
            for j in 0...b.count { table[0][j] = j }
            for i in 0...a.count where i > 0 {
                for j in 0...b.count where j > 0 {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                    }
                }
            }
            return table[a.count][b.count]
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "b", "c"]
        for _ in 0..<3_000 {
            let a = (0..<Int.random(in: 0...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let expected = full(a, b)
            for limit in 0...4 {
                let banded = Suggestion.editDistance(a, b, atMost: limit)
                #expect(banded == (expected <= limit ? expected : nil), "\(String(a)) \(String(b)) limit \(limit)")
            }
        }
        #expect(Suggestion.editDistance("nmae", "name") == 1)
    }

    @Test func aLongNameGetsNoSuggestionAndAShortOneStillDoes() {
        let name = String(repeating: "a", count: 20_000)
        let reference = String(name.dropLast()) + "b"
        // An explicit key: libyaml takes no plain key over 1,024 characters.
        let models =
            Fixture.models + "\n? \(name)\n: { type: string }\n"
            + "Holder: { type: object, properties: { p: { $ref: '#/\(reference)' } } }\n"
        let printed = Fixture.printed(["models.yaml": models])
        // Compared by prefix and length: a failure must not print 40 KB.
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:15:50: error: unknown model 'aaa") == true)
        #expect(printed.first?.hasSuffix("ab'") == true)
        #expect(printed.first?.contains("did you mean") == false)
        #expect(Suggestion.closest(to: "Usr", in: ["User", String(repeating: "U", count: 5_000)]) == "User")
        #expect(Suggestion.closest(to: String(repeating: "x", count: Suggestion.maximumLength + 1), in: ["x"]) == nil)
    }

    // MARK: Naming

    @Test func namesThatCollideGrowByANumberNotByOneCharacterEach() {
        var used = UniqueNames()
        let names = (0..<3_000).map { _ in used.claim("a") }
        #expect(names.prefix(5) == ["a", "a_", "a__", "a_4", "a_5"])
        #expect(Set(names).count == 3_000)
        #expect(names.map(\.utf8.count).max() == 6)
    }

    /// Nested types are numbered (`Item`, `Item2`), past the names taken outside the scope
    /// (a declared model's, which the nested type would shadow), each number tried once.
    @Test func nestedTypeNamesAreNumberedPastDeclaredModels() {
        var used = UniqueNames(style: .numbered)
        let declared: Set<String> = ["Item", "Item3"]
        let names = (0..<4).map { _ in used.claim("Item", isTakenElsewhere: declared.contains) }
        #expect(names == ["Item2", "Item4", "Item5", "Item6"])
        var nested = NestedTypeNames()
        let type = nested.claim("Type", in: [], owner: "Pet", isDeclared: { _ in false })
        #expect(type == "TypeModel")
    }

    /// Generated checks spell `SchemaCheck(ModelCheck(…))`: a model of either name would shadow
    /// the runtime's type. A `$ref` in a check names the model by its declared name, and the
    /// generated references table maps it to the renamed type.
    @Test func aModelNamedAfterTheCheckTypesIsRenamedAndStillReferenced() {
        let extra = """
            ModelCheck: { type: object, properties: { a: { type: string } } }
            Guarded: { type: object, properties: { b: { type: string } }, not: { $ref: "#/ModelCheck" } }
            """
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + extra])
        #expect(generation.diagnostics.isEmpty)
        let code = generation.files.map(\.contents).joined()
        #expect(code.contains("public struct ModelCheckModel"))
        #expect(!code.contains("public struct ModelCheck:"))
        #expect(
            code.contains(
                #"SchemaCheck(ModelCheck(not: ModelCheck(reference: "ModelCheck")), references: ["ModelCheck": ModelCoding.reference(ModelCheckModel.self)])"#
            ))
    }

    @Test func threeThousandPropertiesThatAllBecomeAGiveLinearOutput() throws {
        // Every spelling of `a` with `-`, `_` and `.` around it: distinct JSON keys, one Swift name.
        var keys: [String] = []
        var seen: Set<String> = []
        var queue = ["a"]
        while keys.count < 3_000 {
            let key = queue.removeFirst()
            guard seen.insert(key).inserted else { continue }
            keys.append(key)
            for separator in ["-", "_", "."] { queue += [separator + key, key + separator] }
        }
        let properties = keys.map { "    \"\($0)\": { type: string }" }.joined(separator: "\n")
        let models = Fixture.models + "\nWide:\n  type: object\n  properties:\n\(properties)\n"
        #expect(Set(keys).count == 3_000)
        let generation = Fixture.generate(["models.yaml": models])
        #expect(generation.diagnostics.isEmpty)
        let swift = Fixture.model("Wide", in: generation)
        #expect(swift.contains("public var a_3000: String?"))
        // Before: 27.6 MB for 94 KB of YAML. Each property is now a few lines of its own.
        #expect(swift.utf8.count < 3_000 * 400, "\(swift.utf8.count) bytes")
    }

    @Test func invisibleCharactersAreDroppedFromSwiftNamesAndTheCollisionIsReported() {
        #expect(SwiftName.typeName("Note\u{200D}") == "Note")
        #expect(SwiftName.lowerCamel("no\u{200B}te\u{2060}") == "note")
        #expect(SwiftName.lowerCamel("n\u{3164}ote\u{FE0F}\u{E0041}") == "note")
        let models = Fixture.models + "\nNote: { type: string }\n\"Note\\u200D\": { type: string }\n"
        #expect(
            Fixture.printed(["models.yaml": models]) == [
                "Schema/models.yaml:14:1: error: model 'Note\\u{200d}' and model 'Note' would both be the Swift type Note"
            ])
        let properties =
            Fixture.models + "\nNote: { type: object, properties: { note: { type: string }, \"note\\u200D\": { type: string } } }\n"
        let swift = Fixture.model("Note", in: Fixture.generate(["models.yaml": properties]))
        #expect(swift.contains("public var note: String?"))
        #expect(swift.contains("public var note_: String?"))
        #expect(swift.contains("forKey: \"note\\u{200d}\")"))
        #expect(!swift.unicodeScalars.contains("\u{200D}"))
    }

    @Test func constantsNamedLikeTheDecodersLocalsDecodeIntoLocalsOfTheirOwn() {
        let names = ["container", "decoder", "extra", "known", "kept", "value"]
        let properties = names.map { "\($0): { type: string, const: x }" }.joined(separator: ", ")
        let models = Fixture.models + "\nFixed: { type: object, properties: { \(properties) }, additionalProperties: { type: string } }\n"
        let generation = Fixture.generate(["models.yaml": models])
        #expect(generation.diagnostics.isEmpty)
        let swift = Fixture.model("Fixed", in: generation)
        for name in names {
            #expect(swift.contains("public var \(name): String? { \"x\" }"))
            #expect(swift.contains("let \(name)_ = try container.decodeIfPresentNotNull(String.self, forKey: \"\(name)\")"))
            #expect(!swift.contains("let \(name) = try container.decodeIfPresentNotNull"))
        }
        #expect(swift.contains("let container = try decoder.container(keyedBy: PropertyKey.self)"))
    }

    /// Found by the random schemas (scripts/random-schemas.sh, seed 29, schema 81): a path
    /// parameter named `body` beside a request body gave `func put(_ body: User, body: String)`,
    /// "invalid redeclaration of 'body'". The body argument takes the next free name.
    @Test func aParameterNamedBodyLeavesTheBodyAnotherName() {
        let auth = """
            operations:
              me: { request: GET /me, response: User }
              put: { request: "PUT /a/{body}", parameters: { body: { in: path, schema: { type: string } } }, body: User }
            """
        let operations = Fixture.file("Operations.swift", in: Fixture.generate(["auth.yaml": auth]))
        #expect(operations.contains("public func put(_ body_: User, body: String) async throws {\n"), "\(operations)")
        #expect(operations.contains(#"pathParameters: ["body": body], body: try RequestBody.checkedJSON(body_))"#))
        #expect(operations.contains("///   - body_: The request body.\n"))
    }

    // MARK: Store defaults

    @Test func aTextDefaultHoldingNULIsAPositionedError() {
        let errors = StoreFixture.errors(
            """
            persistence:
              1: { Note: { id: { type: text, primaryKey: true }, body: { type: text, default: "a\\0b" } } }
            """)
        #expect(
            errors == [
                "2:83: the default of 'Note.body' holds U+0000 (NUL), which an SQLite text literal cannot carry; remove it"
            ])
    }
}
