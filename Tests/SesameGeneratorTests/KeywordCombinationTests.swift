@testable import SesameGenerator
import Testing

/// The draft 2020-12 keyword combinations of issue 27 in the generator: what it accepts now,
/// and what it still refuses at its position.
@Suite struct KeywordCombinationTests {
    static let draft = "$schema: \"https://json-schema.org/draft/2020-12/schema\""

    /// Each of these was an error ("'$schema' beside allOf is not supported", "'$schema' is
    /// not supported on an enum", …): every JSON Schema document carries `$schema` at its root.
    @Test func annotationsStandBesideEveryKeyword() {
        let yaml = """
            A: { type: object, properties: { id: { type: string } } }
            B: { \(Self.draft), $comment: x, allOf: [{ $ref: "#/A" }] }
            C: { \(Self.draft), $ref: "#/A", readOnly: true, writeOnly: false }
            D: { \(Self.draft), oneOf: [{ type: string }, { type: integer }] }
            E: { \(Self.draft), anyOf: [{ type: string }, { type: integer }] }
            F: { \(Self.draft), $comment: c, type: string, enum: [a, b] }
            G: { \(Self.draft), type: [string, integer] }
            V: { type: object, required: [kind], properties: { kind: { type: string } } }
            H: { \(Self.draft), oneOf: [{ $ref: "#/V" }], discriminator: { propertyName: kind } }
            """
        #expect(Fixture.printed(models: yaml).isEmpty)
    }

    /// `{ minimum: 5 }` was "'minimum' needs a type"; `{ type: null }` was "a schema of type
    /// null alone is not supported"; `then` without `if` was "then needs if".
    @Test func typelessKeywordsTypeNullAndThenWithoutIfAreAccepted() {
        let yaml = """
            A: { minimum: 5, maximum: 9, exclusiveMinimum: 1, exclusiveMaximum: 10 }
            B: { minLength: 1, maxLength: 3, pattern: "^a", format: email }
            C: { minItems: 1, maxItems: 2 }
            D: { type: "null" }
            E: { type: object, properties: { n: { type: "null" }, m: { multipleOf: 2, minimum: 0 } } }
            F: { type: string, then: { minLength: 1 }, else: { maxLength: 1 } }
            """
        #expect(Fixture.printed(models: yaml).isEmpty)
    }

    /// A keyword Sesame does not support inside an inline `allOf` member is an error there; it
    /// was ignored (the suite's unevaluatedProperties/28 decoded data the schema refuses).
    @Test func unsupportedKeywordsInsideAllOfMembersAreErrors() {
        #expect(
            Fixture.printed(models: ##"A: { allOf: [{ type: object }, { $dynamicRef: "#a" }] }"##) == [
                "Schema/models.yaml:13:34: error: $dynamicRef is not supported; use $ref to a model"
            ])
    }

    /// `$ref` beside `properties` applies too: the object must also be the referenced model.
    /// It was dropped without a word (an unknown model there passed validation, and the
    /// referenced model's keywords were never checked).
    @Test func refBesidePropertiesIsCheckedOnTheJSON() {
        let generation = Fixture.generate([
            "models.yaml": Fixture.models + "\nReq: { required: [x] }\nP: { properties: { a: { type: string } }, $ref: \"#/Req\" }\n"
        ])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        #expect(
            Fixture.model("P", in: generation).contains(
                #"ModelCheck(reference: "Req"), references: ["Req": ModelCoding.reference(Req.self)]"#))
        #expect(
            Fixture.printed(models: ##"P: { properties: { a: { type: string } }, $ref: "#/Nope" }"##) == [
                "Schema/models.yaml:13:49: error: unknown model 'Nope' in $ref '#/Nope'"
            ])
    }

    /// A typeless schema's unsupported keyword is reported once, not once more by its check.
    @Test func typelessSchemasReportEachProblemOnce() {
        #expect(
            Fixture.printed(models: "A: { minimum: 1, $dynamicAnchor: a }") == [
                "Schema/models.yaml:13:18: error: $dynamicAnchor is not supported"
            ])
    }

    /// `true` and `false` were "unknown model 'true'" as a property or items, "the schema of
    /// 'A' must be a mapping" as a model, "an allOf schema must be a mapping" as a member.
    @Test func booleanSchemasAreAccepted() {
        let yaml = """
            A: true
            B: false
            C: { type: object, properties: { x: true, y: false }, additionalProperties: false }
            D: { type: array, items: false, prefixItems: [true] }
            E: { allOf: [true, { minimum: 1 }] }
            F: { anyOf: [false, { type: string }] }
            G: { oneOf: [true, { type: string }] }
            H: { type: object, properties: { ref: { $ref: "#/A" } } }
            """
        #expect(Fixture.printed(models: yaml).isEmpty)
    }

    /// `properties` and `required` beside `allOf` were "'properties' beside allOf is not
    /// supported"; an enum of booleans was a string enum, one mixing types an error.
    @Test func propertiesBesideAllOfAndEnumsOfAnyValuesAreAccepted() {
        let yaml = """
            Base: { type: object, properties: { id: { type: string } } }
            A: { allOf: [{ $ref: "#/Base" }], type: object, required: [id, n], properties: { n: { type: integer } } }
            B: { enum: [false, null, 1.5, { a: 1 }, [1]] }
            C: { enum: [] }
            D: { type: boolean, enum: [true] }
            """
        #expect(Fixture.printed(models: yaml).isEmpty)
    }

    /// What still cannot stand beside `allOf`, each at its position, saying what to write.
    @Test func whatCannotStandBesideAllOfIsAnError() {
        let base = "Base: { type: object, properties: { id: { type: string } } }\n"
        #expect(
            Fixture.printed(models: base + "A: { allOf: [{ $ref: \"#/Base\" }], additionalProperties: false }") == [
                "Schema/models.yaml:14:35: error: 'additionalProperties' beside allOf is not supported; move it into one of the allOf schemas"
            ])
        #expect(
            Fixture.printed(models: base + "A: { allOf: [{ $ref: \"#/Base\" }], type: string }") == [
                "Schema/models.yaml:14:41: error: 'type' beside allOf must be object: allOf merges object schemas into one struct"
            ])
    }

    /// `{ $ref, maxItems }` was "'maxItems' beside $ref is not supported"; nullable items were
    /// "nullable array items are not supported".
    @Test func keywordsBesideRefAndNullableItemsAreAccepted() {
        let yaml = """
            Tags: { type: array, items: { type: string } }
            A: { $ref: "#/Tags", maxItems: 2, uniqueItems: true }
            B: { type: object, properties: { t: { $ref: "#/Tags", minItems: 1 } } }
            C: { type: array, items: { type: [string, "null"] } }
            D: { type: array, items: { oneOf: [{ $ref: "#/Tags" }, { type: "null" }] } }
            """
        #expect(Fixture.printed(models: yaml).isEmpty)
    }

    /// `^\p{Letter}+$` was "a possessive quantifier (}+) is not ECMA-262": the `}` closing a
    /// property escape was read as a quantifier (the suite's pattern/2 and patternProperties).
    @Test func propertyEscapesFollowedByAQuantifierAreECMA262() {
        for pattern in [#"^\p{Letter}+$"#, #"^\P{L}*\u{1F600}?$"#] {
            #expect(Fixture.printed(models: "P: { type: string, pattern: '\(pattern)' }").isEmpty, "\(pattern)")
        }
        let possessive = Fixture.printed(models: #"P: { type: string, pattern: '^\p{L}++$' }"#)
        #expect(possessive.count == 1 && possessive[0].contains("a possessive quantifier (++)"), "\(possessive)")
    }

    /// `dependentSchemas` was "dependentSchemas is not supported".
    @Test func dependentSchemasAreAccepted() {
        let yaml = """
            A: { type: object, properties: { card: { type: string } }, dependentSchemas: { card: { required: [billing] } } }
            B: { dependentSchemas: { a: false, b: true } }
            """
        #expect(Fixture.printed(models: yaml).isEmpty)
    }

    /// The content keywords were "contentEncoding is not supported", …
    @Test func contentKeywordsAreAnnotations() {
        let yaml = """
            A: { type: string, contentEncoding: base64, contentMediaType: image/png }
            B: { contentMediaType: application/json, contentSchema: { type: object, required: [a] } }
            C: { $ref: "#/A", contentEncoding: base64 }
            """
        #expect(Fixture.printed(models: yaml).isEmpty)
    }
}
