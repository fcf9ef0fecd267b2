import Testing

@testable import SesameGenerator

/// `unevaluatedProperties` (issue 27): the `additionalProperties` of an object or of an
/// `allOf` composition, whose evaluated properties are the union of every member's; refused
/// at its position where evaluation depends on a branch.
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

    /// Where the evaluated keys depend on the branch that matched, or where the keyword sees
    /// one member only, it is an error at the keyword that says what to write.
    @Test func branchDependentEvaluationIsRefusedAtTheKeyword() {
        let anyOf = Fixture.printed(
            models: """
                A:
                  type: object
                  properties: { a: { type: string } }
                  anyOf: [{ required: [a] }, { required: [b] }]
                  unevaluatedProperties: false
                """)
        #expect(anyOf.count == 1)
        #expect(anyOf.first?.hasPrefix("Schema/models.yaml:17:3: error: unevaluatedProperties beside anyOf is not supported") == true)
        #expect(anyOf.first?.contains("write additionalProperties in each branch instead") == true)
        let member = Fixture.printed(
            models: """
                B: { type: object, properties: { b: { type: string } } }
                A: { allOf: [{ $ref: "#/B" }, { type: object, properties: { a: { type: string } }, unevaluatedProperties: false }] }
                """)
        #expect(
            member == [
                "Schema/models.yaml:14:84: error: unevaluatedProperties inside an allOf member sees only that member's properties; write it beside allOf to close the composition"
            ])
        let reference = Fixture.printed(
            models: """
                B: { type: object, properties: { b: { type: string } } }
                A: { $ref: "#/B", properties: { a: { type: string } }, unevaluatedProperties: false }
                """)
        #expect(
            reference == [
                "Schema/models.yaml:14:56: error: unevaluatedProperties beside $ref is not supported; write the reference as allOf: [{ $ref: ... }] beside the properties"
            ])
        let union = Fixture.printed(models: "A: { oneOf: [{ type: string }, { type: integer }], unevaluatedProperties: false }")
        #expect(
            union.first
                == "Schema/models.yaml:13:52: error: unevaluatedProperties is supported on object schemas and on allOf of objects only; write additionalProperties in each branch instead"
        )
    }
}
