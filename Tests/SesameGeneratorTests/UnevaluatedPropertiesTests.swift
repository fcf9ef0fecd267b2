import Testing

@testable import SesameGenerator

/// `unevaluatedProperties` (issue 27): the `additionalProperties` of an object or of an
/// `allOf` composition, whose evaluated properties are the union of every member's; a JSON
/// check where evaluation depends on a branch or a `$ref`; a wrapped, checked choice beside
/// `anyOf`/`oneOf`.
@Suite struct UnevaluatedPropertiesTests {
    private func model(_ yaml: String, file: String) -> String {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + yaml])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        return Fixture.model(file, in: generation)
    }

    /// The known keys of the composition are every member's properties and those beside
    /// `allOf`; any other key is refused on decode.
    @Test func falseClosesAnAllOfComposition() {
        let swift = model(
            """
            Base: { type: object, required: [id], properties: { id: { type: string } } }
            Account:
              allOf: [{ $ref: "#/Base" }, { type: object, properties: { name: { type: string } } }]
              properties: { email: { type: string } }
              unevaluatedProperties: false
            """, file: "Account")
        #expect(swift.contains(#"let known: Set<String> = ["id", "name", "email"]"#))
        #expect(swift.contains("the schema allows no undeclared property"))
    }

    @Test func falseOnAnObjectRefusesUndeclaredKeys() {
        let swift = model("Closed: { type: object, properties: { a: { type: integer } }, unevaluatedProperties: false }", file: "Closed")
        #expect(swift.contains(#"let known: Set<String> = ["a"]"#))
        #expect(swift.contains("the schema allows no undeclared property"))
    }

    /// A schema value keeps the other keys, each checked against it, as additionalProperties does.
    @Test func aSchemaKeepsAndChecksTheOtherKeys() {
        let swift = model(
            """
            Base: { type: object, properties: { id: { type: string } } }
            Tagged:
              allOf: [{ $ref: "#/Base" }]
              unevaluatedProperties: { type: integer, minimum: 0 }
            """, file: "Tagged")
        #expect(swift.contains("public var additionalProperties: [String: Int]"))
        #expect(swift.contains(#"let known: Set<String> = ["id"]"#))
        #expect(swift.contains("minimum"))
    }

    /// A member's `additionalProperties` evaluates every key: `unevaluatedProperties` then
    /// changes nothing (the member's own rule stands).
    @Test func aMembersAdditionalPropertiesEvaluatesEveryKey() {
        let swift = model(
            """
            Open: { type: object, properties: { id: { type: string } }, additionalProperties: { type: string } }
            Composed: { allOf: [{ $ref: "#/Open" }], unevaluatedProperties: false }
            """, file: "Composed")
        #expect(swift.contains("public var additionalProperties: [String: String]"))
        #expect(!swift.contains("the schema allows no undeclared property"))
    }

    /// Where the evaluated keys depend on the branch that matched (`anyOf`, `oneOf`, `if`,
    /// `dependentSchemas`) or on a `$ref` beside the properties, the keyword is a JSON check,
    /// and the struct keeps every undeclared key (as JSON values, so nothing is lost).
    @Test func branchesAndReferencesAreCheckedOnTheJSON() {
        let anyOf = model(
            """
            A:
              type: object
              properties: { a: { type: string } }
              anyOf: [{ properties: { b: { type: integer } }, required: [b] }, { required: [a] }]
              unevaluatedProperties: false
            """, file: "A")
        #expect(anyOf.contains("public var additionalProperties: [String: JSONValue]"))
        #expect(
            anyOf.contains(
                #"ModelCheck(ifSchema: ModelCheck(required: ["b"], properties: ["b": ModelCheck(types: [.integer])]), thenSchema: ModelCheck(properties: ["a": ModelCheck(), "b": ModelCheck()], additionalProperties: ModelCheck.never), elseSchema: ModelCheck(properties: ["a": ModelCheck()], additionalProperties: ModelCheck.never))"#
            )
                || anyOf.contains(
                    #"thenSchema: ModelCheck(properties: ["a": ModelCheck(), "b": ModelCheck()], additionalProperties: ModelCheck.never)"#),
            "\(anyOf)")
        let reference = model(
            """
            B: { type: object, properties: { b: { type: string } } }
            A: { $ref: "#/B", properties: { a: { type: string } }, unevaluatedProperties: false }
            """, file: "A")
        #expect(reference.contains(#"properties: ["a": ModelCheck(), "b": ModelCheck()], additionalProperties: ModelCheck.never"#))
        #expect(reference.contains(#"reference: "B""#))
    }

    /// Beside a choice (`anyOf`, `oneOf` without a discriminator), the choice is the nested
    /// enum `Value` and the model a struct wrapping it that checks the keyword first.
    @Test func aChoiceIsWrappedAndChecked() {
        let swift = model(
            """
            Card: { type: object, properties: { number: { type: string } } }
            Bank: { type: object, properties: { iban: { type: string } } }
            Method: { oneOf: [{ $ref: "#/Card" }, { $ref: "#/Bank" }], unevaluatedProperties: false }
            """, file: "Method")
        #expect(swift.contains("public var rawValue: Method.Value"))
        #expect(swift.contains("public enum Value: Codable, Hashable, Sendable"))
        #expect(swift.contains(#"ifSchema: ModelCheck(reference: "Card")"#))
        #expect(swift.contains("try ModelCoding.check(decoder, Self.schemaCheck)"))
    }

    /// What stays refused: inside an `allOf` member of a struct (it would see that member's
    /// properties only), beside a type list or a discriminated `oneOf`, on another type.
    @Test func whatStaysRefusedIsAnErrorAtTheKeyword() {
        let member = Fixture.printed(
            models: """
                B: { type: object, properties: { b: { type: string } } }
                A: { allOf: [{ $ref: "#/B" }, { type: object, properties: { a: { type: string } }, unevaluatedProperties: false }] }
                """)
        #expect(
            member == [
                "Schema/models.yaml:14:84: error: unevaluatedProperties inside an allOf member sees only that member's properties; write it beside allOf to close the composition"
            ])
        #expect(
            Fixture.printed(models: "A: { type: [object, string], unevaluatedProperties: false }") == [
                "Schema/models.yaml:13:30: error: 'unevaluatedProperties' beside a list of types is not supported; use anyOf with a schema per type"
            ])
        let union = Fixture.printed(
            models: """
                V: { type: object, required: [kind], properties: { kind: { type: string } } }
                A: { oneOf: [{ $ref: "#/V" }], discriminator: { propertyName: kind }, unevaluatedProperties: false }
                """)
        #expect(union.contains { $0.hasPrefix("Schema/models.yaml:14:71: error: 'unevaluatedProperties' beside oneOf is not supported") })
        #expect(
            Fixture.printed(models: "A: { type: array, unevaluatedProperties: false }") == [
                "Schema/models.yaml:13:19: error: 'unevaluatedProperties' does not apply to array"
            ])
    }
}
