import Testing

@testable import SesameGenerator

/// A `oneOf` with a `discriminator` whose members are inline objects, as published OpenAPI
/// documents write them (docs/format.md, "oneOf with a discriminator").
@Suite struct InlineUnionMemberTests {
    static func shape(_ members: String, beside: String = "") -> String {
        """
        Shape:
          \(beside)oneOf:
        \(members)
          discriminator: { propertyName: kind }
        """
    }

    static let members = """
            - type: object
              properties: { kind: { const: circle }, radius: { type: number } }
            - { $ref: '#/Square' }
            - type: object
              required: [points]
              properties: { kind: { type: string, enum: [polygon] }, points: { type: array, items: { type: integer } } }
        """

    static let square = "\nSquare: { type: object, required: [kind, side], properties: { kind: { type: string }, side: { type: number } } }"

    @Test func inlineMembersAreNestedTypesNamedAfterTheirTags() {
        let generation = Fixture.generate([
            "models.yaml": Fixture.models + "\n" + Self.shape(Self.members, beside: "type: object\n  ") + Self.square
        ])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let shape = Fixture.model("Shape", in: generation)
        #expect(shape.contains("case circle(Shape.Circle)"))
        #expect(shape.contains("case square(Square)"))
        #expect(shape.contains("case polygon(Shape.Polygon)"))
        #expect(shape.contains(#"case "circle": self = .circle(try Shape.Circle(from: decoder))"#))
        #expect(shape.contains("public struct Circle: Codable, Hashable, Sendable"))
        // The tag is always there, though the member does not list it in `required`.
        #expect(shape.contains(#"public var kind: JSONValue { JSONValue.string("circle") }"#))
        #expect(shape.contains("public var kind: Shape.Polygon.Kind\n"))
    }

    @Test func aMemberWithoutATagIsAnError() {
        let members = """
                - type: object
                  properties: { kind: { type: string }, radius: { type: number } }
            """
        #expect(
            Fixture.printed(models: Self.shape(members)) == [
                "Schema/models.yaml:15:7: error: an inline oneOf schema must give its discriminator 'kind' a const (or a one-value enum): the value is its tag"
            ])
    }

    @Test func twoMembersWithOneTagAreAnError() {
        let members = """
                - { type: object, properties: { kind: { const: a } } }
                - { type: object, properties: { kind: { enum: [a] } } }
            """
        #expect(Fixture.printed(models: Self.shape(members)) == ["Schema/models.yaml:16:7: error: two oneOf schemas have the tag 'a'"])
    }

    @Test func aMemberThatIsNoObjectIsAnError() {
        let members = "    - { type: string }"
        #expect(
            Fixture.printed(models: Self.shape(members)) == [
                "Schema/models.yaml:15:7: error: each oneOf schema must be a $ref to an object model or an inline object"
            ])
    }

    @Test func aTypeOtherThanObjectBesideTheUnionIsAnError() {
        #expect(
            Fixture.printed(models: Self.shape(Self.members, beside: "type: string\n  ") + Self.square) == [
                "Schema/models.yaml:14:9: error: a oneOf with a discriminator is an object: 'type' beside it can only be object"
            ])
    }
}
