@testable import SesameGenerator
import Testing

/// The JSON Schema 2020-12 keywords of issue 13 in the generator: what it accepts, and what
/// it refuses at its position (a `default` that breaks its own schema, keywords Sesame does
/// not support, remote references, malformed counts).
@Suite struct KeywordDiagnosticTests {
    // Bug 4.
    @Test func defaultBreakingItsOwnSchemaIsAnErrorAtTheDefault() {
        #expect(
            Fixture.printed(models: "Name: { type: object, properties: { name: { type: string, minLength: 4, default: bad } } }") == [
                "Schema/models.yaml:13:82: error: default breaks its own schema (minLength 4); every value that leaves it out would fail to decode"
            ])
        #expect(
            Fixture.printed(models: "Step: { type: object, properties: { n: { type: integer, maximum: 3, default: 5 } } }") == [
                "Schema/models.yaml:13:78: error: default breaks its own schema (maximum); every value that leaves it out would fail to decode"
            ])
        #expect(
            Fixture.printed(models: "Code: { type: object, properties: { c: { type: string, pattern: \"^[a-z]+$\", default: A1 } } }").count
                == 1)
        #expect(Fixture.printed(models: "Tags: { type: array, items: { type: string }, minItems: 2, default: [a] }").count == 1)
        #expect(
            Fixture.printed(models: "Fine: { type: object, properties: { name: { type: string, minLength: 2, default: good } } }").isEmpty)
    }

    /// 0.3 is a multiple of 0.1 as written, although 0.3 / 0.1 is 2.9999999999999996 in a Double.
    @Test func defaultIsAMultipleAsTheYAMLWritesIt() {
        #expect(
            Fixture.printed(models: "Price: { type: object, properties: { p: { type: number, multipleOf: 0.1, default: 0.3 } } }").isEmpty)
        #expect(
            Fixture.printed(models: "Price: { type: object, properties: { p: { type: number, multipleOf: 0.1, default: 0.35 } } }")
                .count == 1)
    }

    /// A default is checked as the runtime checks values: lengths in code points, patterns
    /// with ECMA-262's semantics (JSON Schema's), so a default the SDK would refuse on
    /// decode is refused here, and one it accepts is not.
    @Test func defaultIsCheckedAsTheRuntimeChecksValues() {
        // `e` and a combining acute accent: one character, two code points.
        #expect(
            Fixture.printed(models: "A: { type: object, properties: { a: { type: string, maxLength: 1, default: \"e\u{301}\" } } }")
                .count == 1)
        // A flag: one character, two code points (regional indicators).
        #expect(
            Fixture.printed(models: "B: { type: object, properties: { b: { type: string, minLength: 2, default: \"🇫🇷\" } } }")
                .isEmpty)
        // ARABIC-INDIC DIGIT THREE is no ECMA-262 `\d`.
        #expect(
            Fixture.printed(models: #"C: { type: object, properties: { c: { type: string, pattern: "^\\d$", default: "٣" } } }"#)
                .count == 1)
        #expect(
            Fixture.printed(models: #"D: { type: object, properties: { d: { type: string, pattern: "^\\d$", default: "3" } } }"#)
                .isEmpty)
    }

    /// Swift's `Regex` accepts syntax that ECMA-262 does not have, or reads otherwise: such
    /// a pattern would check something other than what it means to any other validator.
    @Test func patternsOutsideECMA262AreRefused() {
        let refused = [
            #"(?i)^abc$"#, #"^a++$"#, #"\Aabc\z"#, #"^\h$"#, #"^[[:alpha:]]$"#, #"^[a-z&&[^q]]$"#, #"^a{,3}$"#, #"(?>a)"#,
        ]
        for pattern in refused {
            let printed = Fixture.printed(models: "P: { type: string, pattern: '\(pattern)' }")
            #expect(printed.count == 1 && printed[0].contains("not an ECMA-262 regular expression"), "\(pattern): \(printed)")
        }
        let propertyPattern = Fixture.printed(models: "Q: { type: object, patternProperties: { '(?i)^x-': { type: string } } }")
        #expect(propertyPattern.count == 1 && propertyPattern[0].contains("not an ECMA-262 regular expression"))
        let accepted = [
            #"^[+0-9 ]+$"#, #"^(?:ab)+?$"#, #"(?=a)a"#, #"(?!b)a"#, #"(?<name>a)\k<name>"#, #"^\\d\[x\]$"#, #"^[\]\[]$"#,
            #"^\p{L}{2,}$"#, #"^a{2}b+c*?$"#, #"\bword\B"#,
        ]
        for pattern in accepted {
            let printed = Fixture.printed(models: "P: { type: string, pattern: '\(pattern)' }")
            #expect(printed.isEmpty, "\(pattern): \(printed)")
        }
    }

    @Test func newKeywordsAreAccepted() {
        let yaml = """
            A: { $comment: note, type: string, minLength: 2.0 }
            B: { type: object, minProperties: 1, dependentRequired: { a: [b] }, propertyNames: { maxLength: 3 }, required: [z] }
            C: { type: array, prefixItems: [{ type: string }], contains: { const: 1 }, minContains: 1.0, uniqueItems: true }
            D: { anyOf: [{ type: string }, { type: integer }] }
            E: { oneOf: [{ $ref: "#/A" }, { type: "null" }] }
            F: { type: [string, boolean] }
            G: { type: number, multipleOf: 0.1, not: { const: 0 } }
            H: { type: object, if: { required: [a] }, then: { required: [b] }, else: { required: [c] } }
            I: { required: [a] }
            J: { type: array, items: false }
            K: { type: array, prefixItems: [{ type: string }], items: false }
            """
        #expect(Fixture.printed(models: yaml).isEmpty)
    }

    @Test func unsupportedKeywordsAreErrorsThatSaySo() {
        #expect(
            Fixture.printed(models: "A: { type: string, unevaluatedProperties: false }") == [
                "Schema/models.yaml:13:20: error: 'unevaluatedProperties' does not apply to string"
            ])
        #expect(
            Fixture.printed(models: "A: { $dynamicRef: \"#node\" }") == [
                "Schema/models.yaml:13:6: error: $dynamicRef is not supported; use $ref to a model"
            ])
    }

    @Test func remoteReferencesAreRefused() {
        #expect(
            Fixture.printed(models: "A: { type: object, properties: { b: { $ref: \"https://example.com/b.json\" } } }") == [
                "Schema/models.yaml:13:45: error: $ref 'https://example.com/b.json': a remote reference (https://example.com/b.json), which Sesame does not fetch; map its URI to a local file in sdk.yaml (references: { map: { \"https://example.com/b.json\": path } })"
            ])
    }

    @Test func pointersAndAnchorsThatNameNothingAreErrors() {
        #expect(
            Fixture.printed(models: "A: { type: object, properties: { b: { $ref: \"#/$defs/Missing\" } } }") == [
                "Schema/models.yaml:13:45: error: $ref '#/$defs/Missing' points to nothing: no '$defs' in its file"
            ])
        #expect(
            Fixture.printed(models: "A: { type: object, properties: { b: { $ref: \"#nowhere\" } } }") == [
                "Schema/models.yaml:13:45: error: $ref '#nowhere' names no $anchor"
            ])
    }

    @Test func defsAnchorsAndIdsResolveFromFilesWithoutModels() {
        let models = Fixture.models + "\n$defs:\n  Place: { $anchor: place, $id: \"https://example.com/place\", type: object }\n"
        let auth = """
            operations:
              me: { request: GET /me, response: User }
              a: { request: GET /a, response: { $ref: "#/$defs/Place" } }
              b: { request: GET /b, response: { $ref: "#place" } }
              c: { request: GET /c, response: { $ref: "https://example.com/place" } }
              d: { request: GET /d, response: { $ref: "#/User/properties/id" } }
            """
        #expect(
            Fixture.printed(["models.yaml": models, "auth.yaml": auth]) == [
                "Schema/auth.yaml:6:43: error: $ref '#/User/properties/id' points into no models file; outside one, name a model ('#/Name' or '#/$defs/Name')"
            ])
    }

    @Test func countsMustBeNonNegativeIntegers() {
        #expect(
            Fixture.printed(models: "A: { type: string, minLength: 2.5 }") == [
                "Schema/models.yaml:13:31: error: minLength must be a non-negative integer, found '2.5'"
            ])
        #expect(
            Fixture.printed(models: "A: { type: object, maxProperties: -1 }") == [
                "Schema/models.yaml:13:35: error: maxProperties must not be negative"
            ])
    }

    @Test func newFormatsAreAccepted() {
        let yaml =
            "A: { type: object, properties: { h: { type: string, format: hostname }, r: { type: string, format: uri-reference }, "
            + "v4: { type: string, format: ipv4 }, v6: { type: string, format: ipv6 } } }"
        #expect(Fixture.printed(models: yaml).isEmpty)
    }
}
