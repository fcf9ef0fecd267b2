import Testing

@testable import SesameGenerator

/// `unevaluatedItems` (issue 27): the items no `prefixItems`, `items` or `contains` evaluated
/// (the schema's own, its `allOf` members' and `$ref`s', and those of the `anyOf`/`oneOf`/`if`
/// branches that matched) must match it; a JSON check, or the element type when nothing else
/// evaluates items.
@Suite struct UnevaluatedItemsTests {
    private func model(_ yaml: String, file: String) -> String {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + yaml])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        return Fixture.model(file, in: generation)
    }

    @Test func aloneItIsTheElementType() {
        #expect(model("A: { type: array, unevaluatedItems: { type: string } }", file: "A").contains("public typealias A = [String]"))
        // `items` evaluates every item: the keyword then changes nothing.
        let all = model("A: { type: array, items: { type: integer }, unevaluatedItems: false }", file: "A")
        #expect(all.contains("public typealias A = [Int]"))
    }

    /// After the longest evaluated tuple, no item (`false`): `prefixItems` of `true`, then
    /// `items: false`.
    @Test func falseClosesTheTuple() {
        let swift = model(
            "A: { type: array, prefixItems: [{ type: string }], allOf: [{ prefixItems: [true, true] }], unevaluatedItems: false }",
            file: "A")
        #expect(swift.contains("ModelCheck(prefixItems: [ModelCheck(), ModelCheck()], items: ModelCheck.never)"))
    }

    /// A branch's tuple counts when the branch matches: one `if` per such branch.
    @Test func branchesBecomeConditions() {
        let swift = model(
            "A: { type: array, anyOf: [{ prefixItems: [true] }, { prefixItems: [true, true] }], unevaluatedItems: { type: string } }",
            file: "A")
        #expect(swift.components(separatedBy: "ifSchema: ModelCheck(prefixItems:").count == 4, "\(swift)")
        #expect(swift.contains("ModelCheck(prefixItems: [ModelCheck(), ModelCheck()], items: ModelCheck(types: [.string]))"))
    }

    /// Where the evaluated items cannot be known at generation time, an error at the keyword
    /// that says why and what to write.
    @Test func whatCannotBeKnownIsAnErrorAtTheKeyword() {
        let cycle = Fixture.printed(
            models: """
                A: { $ref: "#/B", unevaluatedItems: false }
                B: { allOf: [{ $ref: "#/A" }, { minItems: 1 }] }
                """)
        #expect(
            cycle.contains(
                "Schema/models.yaml:13:19: error: unevaluatedItems is not supported here: its allOf and $ref schemas come back to 'B', so the evaluated items have no end; write prefixItems and items beside it instead"
            ), "\(cycle)")
        let branches = (1...9).map { "{ prefixItems: [\(Array(repeating: "true", count: $0).joined(separator: ", "))] }" }
        let many = Fixture.printed(models: "A: { type: array, anyOf: [\(branches.joined(separator: ", "))], unevaluatedItems: false }")
        #expect(many.count == 1)
        #expect(many.first?.hasPrefix("Schema/models.yaml:13:") == true)
        #expect(many.first?.contains("would need more than 255 checks") == true)
        #expect(
            Fixture.printed(models: "A: { type: [array, string], unevaluatedItems: false }") == [
                "Schema/models.yaml:13:29: error: 'unevaluatedItems' beside a list of types is not supported; use anyOf with a schema per type"
            ])
        #expect(
            Fixture.printed(models: "A: { type: object, unevaluatedItems: false }") == [
                "Schema/models.yaml:13:20: error: 'unevaluatedItems' does not apply to object"
            ])
    }
}
