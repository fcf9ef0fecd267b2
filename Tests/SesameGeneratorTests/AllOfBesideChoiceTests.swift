import Testing

@testable import SesameGenerator

/// `allOf` beside a choice checks the value the choice decoded; a member that would declare
/// keys the choice's schemas do not keep is a positioned error saying what to write instead.
@Suite struct AllOfBesideChoiceTests {
    private func model(_ yaml: String, file: String) -> String {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + yaml])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        return Fixture.model(file, in: generation)
    }

    @Test func anAllOfMemberThatDeclaresKeysIsAnErrorAtItsKey() {
        let models = """
            A: { type: object, properties: { a: { type: string } } }
            B: { type: object, properties: { b: { type: string } } }
            Ref: { allOf: [{ $ref: "#/A" }], oneOf: [{ $ref: "#/A" }, { $ref: "#/B" }] }
            Props: { anyOf: [{ $ref: "#/A" }, { $ref: "#/B" }], allOf: [{ required: [a] }, { properties: { c: { type: string } } }] }
            """
        #expect(
            Fixture.printed(models: models) == [
                "Schema/models.yaml:15:18: error: an allOf beside oneOf only checks the value, and a $ref in it declares keys the oneOf's schemas would not keep; put it in each of the oneOf schemas instead (allOf: [{ $ref: ... }, { ... }] in each)",
                "Schema/models.yaml:16:82: error: an allOf beside anyOf only checks the value, and 'properties' in it declares keys the anyOf's schemas would not keep; put it in each of the anyOf schemas instead (allOf: [{ $ref: ... }, { ... }] in each)",
            ])
    }

    @Test func checkingMembersWrapTheChoiceInAStructThatChecksIt() {
        let swift = model(
            """
            A: { type: object, required: [kind], properties: { kind: { const: a } } }
            B: { type: object, required: [kind], properties: { kind: { const: b } } }
            Either:
              allOf: [{ minProperties: 2 }]
              oneOf: [{ $ref: "#/A" }, { $ref: "#/B" }]
              discriminator: { propertyName: kind, mapping: { a: "#/A", b: "#/B" } }
            """, file: "Either")
        #expect(swift.contains("public var rawValue: Either.Value"))
        #expect(swift.contains("minProperties: 2"))
        #expect(swift.contains("try ModelCoding.check(decoder, Self.schemaCheck)"))
    }
}
