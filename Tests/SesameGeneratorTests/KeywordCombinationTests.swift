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
            Fixture.printed(models: "A: { allOf: [{ type: object }, { unevaluatedProperties: false }] }") == [
                "Schema/models.yaml:13:34: error: unevaluatedProperties is not supported; use additionalProperties"
            ])
    }

    /// A typeless schema's unsupported keyword is reported once, not once more by its check.
    @Test func typelessSchemasReportEachProblemOnce() {
        #expect(
            Fixture.printed(models: "A: { minimum: 1, dependentSchemas: {} }") == [
                "Schema/models.yaml:13:18: error: dependentSchemas is not supported; use dependentRequired or if/then"
            ])
    }
}
