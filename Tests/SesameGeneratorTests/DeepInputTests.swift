@testable import SesameGenerator
import SesameTestSupport
import Testing

/// Issue 29: no walk of the generator is bounded only by the call stack. Chains of 100,000
/// references of every kind translate (with a heap stack, `ModelTranslator.translate`) to a
/// result or to positioned diagnostics; nesting deeper than `YAMLReader.maximumNesting` is
/// one positioned error. Before the fix, 300 `allOf` links, 2,000 `default`s through `$ref`
/// and 150 nested arrays each crashed a debug build with SIGSEGV.
///
/// Each input takes seconds of CPU: it is translated on a thread of its own
/// (``onOwnThread(_:)``), never on Swift's cooperative pool, whose two threads on a 2-core
/// machine the other suites' tasks need; and one at a time (`.serialized`), so that the
/// suite holds at most one core. (Run on the pool, two of these stalled every other suite's
/// tasks for over 10 s, and CI failed tests that wait for a refresh or an event.)
@Suite(.serialized) struct DeepInputTests {
    static let links = 100_000

    /// What a test checks of a validation.
    struct Outcome: Sendable {
        var diagnostics: [String]
        var modelCount: Int?
    }

    /// The fixture's models with `lines` appended (they start on line 13).
    static func validate(_ lines: [String]) async throws -> Outcome {
        try await validate(files: ["models.yaml": Fixture.models + "\n" + lines.joined(separator: "\n") + "\n"])
    }

    /// The fixture with `files` replaced, validated off the cooperative pool.
    static func validate(files: [String: String]) async throws -> Outcome {
        try await onOwnThread {
            let validation = Fixture.validate(files)
            return Outcome(diagnostics: validation.diagnostics.map(\.description), modelCount: validation.ir?.models.count)
        }
    }

    @Test func allOfChainOfAHundredThousandLinksIsTranslated() async throws {
        var lines = (0..<Self.links).map { "M\($0): { allOf: [ { $ref: '#/M\($0 + 1)' } ] }" }
        lines.append("M\(Self.links): { type: object, properties: { x: { type: string } } }")
        let outcome = try await Self.validate(lines)
        #expect(outcome.diagnostics.isEmpty)
        #expect(outcome.modelCount == Self.links + 3)
    }

    @Test func allOfCycleThroughAHundredThousandLinksIsAPositionedError() async throws {
        var lines = (0..<Self.links).map { "M\($0): { allOf: [ { $ref: '#/M\($0 + 1)' } ] }" }
        lines.append("M\(Self.links): { allOf: [ { $ref: '#/M0' } ] }")
        let printed = try await Self.validate(lines).diagnostics
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:") == true)
        #expect(printed.first?.contains("error: allOf of 'M") == true)
    }

    @Test func defaultsThroughAHundredThousandReferencesAreCheckedWithoutRecursion() async throws {
        // Each default names the next model; the last is an enum that holds the value, so
        // every default but the last is an error (a default of an object), each at its node.
        var lines = (0..<Self.links).map { "M\($0): { type: object, properties: { p: { $ref: '#/M\($0 + 1)', default: a } } }" }
        lines.append("M\(Self.links): { type: string, enum: [a] }")
        let printed = try await Self.validate(lines).diagnostics
        #expect(printed.count == Self.links - 1)
        #expect(
            printed.first
                == "Schema/models.yaml:13:63: error: default is supported on strings, numbers, booleans, enums and arrays of them")
        // The last link's default names the enum, and fits it.
        #expect(!printed.contains { $0.hasPrefix("Schema/models.yaml:\(12 + Self.links):") })
    }

    @Test func unionVariantsChainedThroughDefaultsAreCheckedWithoutRecursion() async throws {
        let count = Self.links / 2
        var lines: [String] = []
        for index in 0..<count {
            lines.append("U\(index): { oneOf: [ { $ref: '#/V\(index)' } ], discriminator: { propertyName: kind } }")
            lines.append(
                "V\(index): { type: object, required: [kind], properties: { kind: { type: string }, next: { $ref: '#/U\(index + 1)', default: a } } }"
            )
        }
        lines.append("U\(count): { type: string, enum: [a] }")
        let printed = try await Self.validate(lines).diagnostics
        #expect(printed.count == count - 1)
        #expect(printed.allSatisfy { $0.hasPrefix("Schema/models.yaml:") && $0.contains(": error: default is supported on") })
    }

    @Test func allOfCopiesAtMostAHundredThousandPropertiesInAll() async throws {
        // Each link holds the properties of all below: 446 links copy 99,681 in all, 447 would copy 100,128.
        func chain(_ count: Int) -> [String] {
            var lines = (0..<count).map { "M\($0): { allOf: [ { $ref: '#/M\($0 + 1)' }, { properties: { p\($0): { type: string } } } ] }" }
            lines.append("M\(count): { type: object, properties: { x: { type: string } } }")
            return lines
        }
        #expect(try await Self.validate(chain(446)).diagnostics.isEmpty)
        let printed = try await Self.validate(chain(1_000)).diagnostics
        #expect(!printed.isEmpty)
        #expect(
            printed.allSatisfy {
                $0.hasPrefix("Schema/models.yaml:") && $0.contains(": error: allOf would copy more than 100000 properties")
            })
    }

    @Test func requiredPropertyChainIsValidAndItsCycleIsFound() async throws {
        var lines = (0..<Self.links).map { "M\($0): { type: object, required: [p], properties: { p: { $ref: '#/M\($0 + 1)' } } }" }
        lines.append("M\(Self.links): { type: string }")
        #expect(try await Self.validate(lines).diagnostics.isEmpty)
        lines[lines.count - 1] = "M\(Self.links): { $ref: '#/M0' }"
        let printed = try await Self.validate(lines).diagnostics
        #expect(printed.count == 1)
        #expect(printed.first?.contains("error: cycle with no indirection through M0, M1, M10") == true)
    }

    @Test func aliasAndPointerChainsAreValid() async throws {
        var aliases = (0..<Self.links).map { "M\($0): { $ref: '#/M\($0 + 1)' }" }
        aliases.append("M\(Self.links): { type: string }")
        #expect(try await Self.validate(aliases).diagnostics.isEmpty)
        var pointers = (0..<Self.links).map { "M\($0): { type: object, properties: { p: { $ref: '#/M\($0 + 1)/properties/p' } } }" }
        pointers.append("M\(Self.links): { type: object, properties: { p: { type: string } } }")
        #expect(try await Self.validate(pointers).diagnostics.isEmpty)
    }

    @Test func keysRequiredThroughAHundredThousandReferencesAreKept() async throws {
        // Each object gains `b`, which the last model requires, through the chain (issue 27);
        // 100,000 kept keys in all, at `maximumMergedProperties`.
        var lines = (0..<Self.links).map { "M\($0): { type: object, properties: { a: { type: string } }, $ref: '#/M\($0 + 1)' }" }
        lines.append("M\(Self.links): { required: [a, b] }")
        let models = Fixture.models + "\n" + lines.joined(separator: "\n") + "\n"
        let keys = try await onOwnThread {
            let validation = Fixture.validate(["models.yaml": models])
            guard case .object(let object)? = validation.ir?.models.first(where: { $0.name == "M0" })?.kind else {
                return validation.diagnostics.map(\.description)
            }
            return object.properties.map(\.name)
        }
        #expect(keys == ["a", "b"])
        // A cycle through 100,000 references ends too.
        lines[lines.count - 1] = "M\(Self.links): { required: [a, b], $ref: '#/M0' }"
        let printed = try await Self.validate(lines).diagnostics
        #expect(printed.allSatisfy { $0.hasPrefix("Schema/models.yaml:") }, "\(printed.prefix(3))")
    }

    @Test func keysRequiredThroughReferencesPastTheLimitAreAPositionedError() async throws {
        // 1,000 models each gain the 101 keys of the last one: 101,000, past 100,000.
        let required = (0...100).map { "k\($0)" }.joined(separator: ", ")
        var lines = (0..<1_000).map { "M\($0): { type: object, properties: { a: { type: string } }, $ref: '#/N' }" }
        lines.append("N: { required: [\(required)] }")
        let printed = try await Self.validate(lines).diagnostics
        #expect(printed.count == 10)
        #expect(
            printed.allSatisfy {
                $0.hasPrefix("Schema/models.yaml:") && $0.contains(": error: the $refs of this object's checks would add more than 100000")
            }, "\(printed.prefix(3))")
    }

    @Test func aQueryParameterThroughAHundredThousandAliasesIsChecked() async throws {
        // `isSimple` followed aliases by recursion: a long chain overflowed the stack, a cycle never ended.
        let auth = "operations:\n  me: { request: GET /me, response: User, parameters: { q: { in: query, schema: { $ref: '#/M0' } } } }\n"
        var aliases = (0..<Self.links).map { "M\($0): { $ref: '#/M\($0 + 1)' }" }
        aliases.append("M\(Self.links): { type: string, enum: [a] }")
        let models = Fixture.models + "\n" + aliases.joined(separator: "\n") + "\n"
        #expect(try await Self.validate(files: ["models.yaml": models, "auth.yaml": auth]).diagnostics.isEmpty)
        aliases[aliases.count - 1] = "M\(Self.links): { $ref: '#/M0' }"
        let cyclic = Fixture.models + "\n" + aliases.joined(separator: "\n") + "\n"
        let printed = try await Self.validate(files: ["models.yaml": cyclic, "auth.yaml": auth]).diagnostics
        #expect(printed.contains("Schema/auth.yaml:2:81: error: a query parameter must be a string, number, boolean or enum"))
        #expect(printed.contains { $0.contains("error: cycle with no indirection through M0, M1, M10") })
    }

    @Test func nestingPastLibyamlsLimitIsAPositionedError() async throws {
        let deep = String(repeating: "[", count: Self.links) + String(repeating: "]", count: Self.links)
        let printed = try await Self.validate(["Deep: { type: string, default: \(deep) }"]).diagnostics
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:13:") == true)
        #expect(printed.first?.contains("error: invalid YAML:") == true)
    }

    @Test(arguments: ["objects", "arrays", "literals", "checks"])
    func nestingPastSesamesLimitIsOnePositionedError(_ kind: String) async throws {
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
        let printed = try await Self.validate(["Deep: \(schema)"]).diagnostics
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:13:") == true)
        #expect(printed.first?.contains("error: mappings and lists nest more than 64 levels deep here") == true)
    }

    @Test func nestingAtSesamesLimitGenerates() async throws {
        // The root mapping is level 1 and `Deep`'s schema level 2: 62 arrays reach level 64.
        let arrays = (0..<62).reduce("{ type: string }") { inner, _ in "{ type: array, items: \(inner) }" }
        let objects = (0..<31).reduce("{ type: string }") { inner, _ in "{ properties: { p: \(inner) } }" }
        for schema in [arrays, objects] {
            // On a thread of 64 MiB (onOwnThread): on 8 MiB this overflowed the stack in a
            // debug build (SIGSEGV in CI and in 5 of 5 runs of this test alone).
            let (diagnostics, fileCount) = try await onOwnThread {
                let generation = Fixture.generate(["models.yaml": Fixture.models + "\nDeep: \(schema)\n"])
                return (generation.diagnostics.map(\.description), generation.files.count)
            }
            #expect(diagnostics.isEmpty)
            #expect(fileCount > 0)
        }
    }
}
