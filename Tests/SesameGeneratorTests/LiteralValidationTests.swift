import Testing
@testable import SesameGenerator

/// `default`, `const` and `enum` values: each must fit its type and be a value Swift can
/// spell, or it is an error at its position.
@Suite struct LiteralValidationTests {
    /// Without a type, `[a, 1]` is the string "a" or the number 1 (JSON Schema's list, on a
    /// JSONValue: issue 27); with a declared string type, 1 is the text "1" (a Swift enum).
    @Test func mixedEnumValuesAreJSONSchemasListUnlessTyped() {
        #expect(Fixture.printed(models: "Mixed: { enum: [a, 1] }").isEmpty)
        #expect(Fixture.printed(models: "Mixed: { type: string, enum: [a, 1] }").isEmpty)
        #expect(
            Fixture.printed(models: "Mixed: { type: integer, enum: [1, a] }") == [
                "Schema/models.yaml:13:35: error: enum value 'a' is not an integer"
            ])
    }

    @Test func defaultOnAFormattedStringIsAnError() {
        #expect(
            Fixture.printed(
                models:
                    "Stamp: { type: object, properties: { at: { type: string, format: date-time, default: \"2020-01-01T00:00:00Z\" } } }")
                == ["Schema/models.yaml:13:86: error: default is not supported on a date-time string"])
    }

    @Test func defaultMustBeAValueOfTheEnum() {
        let yaml =
            "Color: { type: string, enum: [red, blue] }\nPaint: { type: object, properties: { color: { $ref: \"#/Color\", default: green } } }"
        #expect(Fixture.printed(models: yaml) == ["Schema/models.yaml:14:73: error: default must be one of the enum's values (red, blue)"])
        let inline = "Paint: { type: object, properties: { color: { type: string, enum: [red], default: blue } } }"
        #expect(Fixture.printed(models: inline) == ["Schema/models.yaml:13:83: error: default must be one of the enum's values (red)"])
    }

    /// Found by the random schemas (scripts/random-schemas.sh, seed 1): the enum of a property
    /// `item` inside a property `item` is `A.Item.Item`, and its default was refused ("default
    /// is supported on strings, …") because the lookup stopped at the owner of the same name.
    @Test func aDefaultOfAnEnumNamedLikeItsOwnerIsAccepted() {
        let yaml =
            "A: { type: object, properties: { item: { type: object, properties: { item: { type: string, enum: [x], default: x } } } } }"
        #expect(Fixture.printed(models: yaml) == [])
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + yaml + "\n"])
        #expect(Fixture.model("A", in: generation).contains("public init(item: A.Item.Item = A.Item.Item.x)"))
    }

    @Test func defaultOfTheWrongTypeIsAnError() {
        #expect(
            Fixture.printed(models: "Limits: { type: object, properties: { max: { type: integer, default: lots } } }") == [
                "Schema/models.yaml:13:70: error: default does not match the type integer"
            ])
        let auth =
            Fixture.auth
            + "\nmethods:\n  pw:\n    parameters: { scope: { type: string, default: [a] } }\n    steps: [ { request: POST /t, response: Token } ]\n"
        #expect(Fixture.printed(["auth.yaml": auth]) == ["Schema/auth.yaml:5:51: error: default does not match the type string"])
    }

    @Test func constOfTheWrongTypeIsAnError() {
        #expect(
            Fixture.printed(models: "Kind: { type: object, properties: { kind: { type: integer, const: text } } }") == [
                "Schema/models.yaml:13:67: error: const does not match the type integer"
            ])
    }

    /// Infinity and NaN are YAML numbers but not JSON ones, and Swift has no literal for
    /// them: they rendered as `inf` and `nan`, and the SDK did not compile. Found by reading
    /// the renderer's number formatting while fuzzing; the fuzz target checks crashes only.
    @Test func nonFiniteNumbersAreRejected() {
        #expect(!FuzzCase.run(FuzzCase.folder(properties: "")).files.isEmpty, "the folder is valid without them")
        let generation = FuzzCase.run(
            FuzzCase.folder(
                properties: """
                        score: { type: number, minimum: .inf, default: 1e309 }
                        other: { type: number, maximum: .nan, const: .NaN }
                    """))
        #expect(
            generation.diagnostics.map(\.description) == [
                "Schema/models.yaml:8:37: error: minimum must be a finite number, found '.inf'",
                "Schema/models.yaml:8:52: error: default does not match the type number",
                "Schema/models.yaml:9:37: error: maximum must be a finite number, found '.nan'",
                "Schema/models.yaml:9:50: error: const does not match the type number",
            ])
    }

}
