import Testing
import SesameGenerator

/// Issue 29: no walk of the generator is bounded only by the call stack. Chains of 100,000
/// references of every kind translate (with a heap stack, `ModelTranslator.translate`) to a
/// result or to positioned diagnostics; nesting deeper than `YAMLReader.maximumNesting` is
/// one positioned error. Before the fix, 300 `allOf` links, 2,000 `default`s through `$ref`
/// and 150 nested arrays each crashed a debug build with SIGSEGV.
@Suite struct DeepInputTests {
    static let links = 100_000

    /// The fixture's models with `lines` appended (they start on line 13).
    static func validate(_ lines: [String]) -> GeneratorPipeline.Validation {
        Fixture.validate(["models.yaml": Fixture.models + "\n" + lines.joined(separator: "\n") + "\n"])
    }

    @Test func allOfChainOfAHundredThousandLinksIsTranslated() {
        var lines = (0..<Self.links).map { "M\($0): { allOf: [ { $ref: '#/M\($0 + 1)' } ] }" }
        lines.append("M\(Self.links): { type: object, properties: { x: { type: string } } }")
        let validation = Self.validate(lines)
        #expect(validation.diagnostics.isEmpty)
        #expect(validation.ir?.models.count == Self.links + 3)
    }

    @Test func allOfCycleThroughAHundredThousandLinksIsAPositionedError() {
        var lines = (0..<Self.links).map { "M\($0): { allOf: [ { $ref: '#/M\($0 + 1)' } ] }" }
        lines.append("M\(Self.links): { allOf: [ { $ref: '#/M0' } ] }")
        let printed = Self.validate(lines).diagnostics.map(\.description)
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:") == true)
        #expect(printed.first?.contains("error: allOf of 'M") == true)
    }

    @Test func defaultsThroughAHundredThousandReferencesAreCheckedWithoutRecursion() {
        // Each default names the next model; the last is an enum that holds the value, so
        // every default but the last is an error (a default of an object), each at its node.
        var lines = (0..<Self.links).map { "M\($0): { type: object, properties: { p: { $ref: '#/M\($0 + 1)', default: a } } }" }
        lines.append("M\(Self.links): { type: string, enum: [a] }")
        let printed = Self.validate(lines).diagnostics.map(\.description)
        #expect(printed.count == Self.links - 1)
        #expect(
            printed.first
                == "Schema/models.yaml:13:63: error: default is supported on strings, numbers, booleans, enums and arrays of them")
        // The last link's default names the enum, and fits it.
        #expect(!printed.contains { $0.hasPrefix("Schema/models.yaml:\(12 + Self.links):") })
    }

    @Test func unionVariantsChainedThroughDefaultsAreCheckedWithoutRecursion() {
        let count = Self.links / 2
        var lines: [String] = []
        for index in 0..<count {
            lines.append("U\(index): { oneOf: [ { $ref: '#/V\(index)' } ], discriminator: { propertyName: kind } }")
            lines.append(
                "V\(index): { type: object, required: [kind], properties: { kind: { type: string }, next: { $ref: '#/U\(index + 1)', default: a } } }"
            )
        }
        lines.append("U\(count): { type: string, enum: [a] }")
        let printed = Self.validate(lines).diagnostics.map(\.description)
        #expect(printed.count == count - 1)
        #expect(printed.allSatisfy { $0.hasPrefix("Schema/models.yaml:") && $0.contains(": error: default is supported on") })
    }

    @Test func allOfCopiesAtMostAHundredThousandPropertiesInAll() {
        // Each link holds the properties of all below: 446 links copy 99,681 in all, 447 would copy 100,128.
        func chain(_ count: Int) -> [String] {
            var lines = (0..<count).map { "M\($0): { allOf: [ { $ref: '#/M\($0 + 1)' }, { properties: { p\($0): { type: string } } } ] }" }
            lines.append("M\(count): { type: object, properties: { x: { type: string } } }")
            return lines
        }
        #expect(Self.validate(chain(446)).diagnostics.isEmpty)
        let printed = Self.validate(chain(1_000)).diagnostics.map(\.description)
        #expect(!printed.isEmpty)
        #expect(
            printed.allSatisfy {
                $0.hasPrefix("Schema/models.yaml:") && $0.contains(": error: allOf would copy more than 100000 properties")
            })
    }

    @Test func requiredPropertyChainIsValidAndItsCycleIsFound() {
        var lines = (0..<Self.links).map { "M\($0): { type: object, required: [p], properties: { p: { $ref: '#/M\($0 + 1)' } } }" }
        lines.append("M\(Self.links): { type: string }")
        #expect(Self.validate(lines).diagnostics.isEmpty)
        lines[lines.count - 1] = "M\(Self.links): { $ref: '#/M0' }"
        let printed = Self.validate(lines).diagnostics.map(\.description)
        #expect(printed.count == 1)
        #expect(printed.first?.contains("error: cycle with no indirection through M0, M1, M10") == true)
    }

    @Test func aliasAndPointerChainsAreValid() {
        var aliases = (0..<Self.links).map { "M\($0): { $ref: '#/M\($0 + 1)' }" }
        aliases.append("M\(Self.links): { type: string }")
        #expect(Self.validate(aliases).diagnostics.isEmpty)
        var pointers = (0..<Self.links).map { "M\($0): { type: object, properties: { p: { $ref: '#/M\($0 + 1)/properties/p' } } }" }
        pointers.append("M\(Self.links): { type: object, properties: { p: { type: string } } }")
        #expect(Self.validate(pointers).diagnostics.isEmpty)
    }

    @Test func aQueryParameterThroughAHundredThousandAliasesIsChecked() {
        // `isSimple` followed aliases by recursion: a long chain overflowed the stack, a cycle never ended.
        let auth = "operations:\n  me: { request: GET /me, response: User, parameters: { q: { in: query, schema: { $ref: '#/M0' } } } }\n"
        var aliases = (0..<Self.links).map { "M\($0): { $ref: '#/M\($0 + 1)' }" }
        aliases.append("M\(Self.links): { type: string, enum: [a] }")
        let models = Fixture.models + "\n" + aliases.joined(separator: "\n") + "\n"
        #expect(Fixture.validate(["models.yaml": models, "auth.yaml": auth]).diagnostics.isEmpty)
        aliases[aliases.count - 1] = "M\(Self.links): { $ref: '#/M0' }"
        let cyclic = Fixture.models + "\n" + aliases.joined(separator: "\n") + "\n"
        let printed = Fixture.validate(["models.yaml": cyclic, "auth.yaml": auth]).diagnostics.map(\.description)
        #expect(printed.contains("Schema/auth.yaml:2:81: error: a query parameter must be a string, number, boolean or enum"))
        #expect(printed.contains { $0.contains("error: cycle with no indirection through M0, M1, M10") })
    }

    @Test func nestingPastLibyamlsLimitIsAPositionedError() {
        let deep = String(repeating: "[", count: Self.links) + String(repeating: "]", count: Self.links)
        let printed = Self.validate(["Deep: { type: string, default: \(deep) }"]).diagnostics.map(\.description)
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:13:") == true)
        #expect(printed.first?.contains("error: invalid YAML:") == true)
    }

    @Test(arguments: ["objects", "arrays", "literals", "checks"])
    func nestingPastSesamesLimitIsOnePositionedError(_ kind: String) {
        let depth = 900  // under libyaml's 1,000: the translator would walk it
        let schema: String
        switch kind {
        case "objects":
            schema = (0..<depth / 2).reduce("{ type: string }") { inner, _ in "{ properties: { p: \(inner) } }" }
        case "arrays":
            schema = (0..<depth).reduce("{ type: string }") { inner, _ in "{ type: array, items: \(inner) }" }
        case "literals":
            schema = "{ type: array, default: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + " }"
        default:
            // Two levels each (the schema and its list).
            schema = (0..<depth / 2).reduce("true") { inner, _ in "{ type: array, prefixItems: [ \(inner) ] }" }
        }
        let printed = Self.validate(["Deep: \(schema)"]).diagnostics.map(\.description)
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:13:") == true)
        #expect(printed.first?.contains("error: mappings and lists nest more than 64 levels deep here") == true)
    }

    @Test func nestingAtSesamesLimitGenerates() {
        // The root mapping is level 1 and `Deep`'s schema level 2: 62 arrays reach level 64.
        let arrays = (0..<62).reduce("{ type: string }") { inner, _ in "{ type: array, items: \(inner) }" }
        let objects = (0..<31).reduce("{ type: string }") { inner, _ in "{ properties: { p: \(inner) } }" }
        for schema in [arrays, objects] {
            let generation = Fixture.generate(["models.yaml": Fixture.models + "\nDeep: \(schema)\n"])
            #expect(generation.diagnostics.isEmpty)
            #expect(!generation.files.isEmpty)
        }
    }
}
