@testable import SesameGenerator
import Testing

/// A `$ref` inside an object model's check to a model whose every property the checking model
/// decodes alike is told by the presence of the referenced model's required keys (issue 30,
/// part 6: `ModelCoding.reference(_:inPlaceRequires:)`); any other `$ref` still decodes the
/// referenced model.
@Suite struct ImpliedReferenceTests {
    /// The references the generated `schemaCheck` of `model` passes, from `models` appended to
    /// the fixture's models file.
    static func references(of model: String, _ models: String) -> String {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + models])
        guard generation.diagnostics.isEmpty else { return "diagnostics: \(generation.diagnostics)" }
        let code = Fixture.model(model, in: generation)
        guard let start = code.range(of: "references: [") else { return "no references in \(code)" }
        let rest = code[start.upperBound...]
        return String(rest[..<(rest.range(of: "])\n")?.lowerBound ?? rest.endIndex)])
    }

    static let stamped = """
        Stamped:
          type: object
          required: [createdAt, updatedAt]
          properties:
            createdAt: { type: string, format: date-time }
            updatedAt: { type: string, format: date-time }
            revision: { type: [integer, "null"], minimum: 1 }
        """

    @Test func aReferenceWhosePropertiesTheModelDeclaresAlikeIsToldByPresence() {
        let models = """
            \(Self.stamped)
            Note:
              type: object
              required: [id]
              properties:
                id: { type: string }
                createdAt: { type: string, format: date-time }
                updatedAt: { type: string, format: date-time }
                revision: { type: [integer, "null"], minimum: 1 }
              dependentSchemas: { updatedAt: { $ref: "#/Stamped" } }
            """
        #expect(
            Self.references(of: "Note", models)
                == #""Stamped": ModelCoding.reference(Stamped.self, inPlaceRequires: ["createdAt", "updatedAt"])"#)
    }

    /// Each breaks one condition: the `$ref` then decodes the referenced model, as before.
    @Test(arguments: [
        // A property the model does not declare.
        "    createdAt: { type: string, format: date-time }\n    updatedAt: { type: string, format: date-time }\n",
        // Other keywords (no minimum) on one property.
        "    createdAt: { type: string, format: date-time }\n    updatedAt: { type: string, format: date-time }\n    revision: { type: [integer, \"null\"] }\n",
        // Another type (a string where Stamped has a date-time).
        "    createdAt: { type: string }\n    updatedAt: { type: string, format: date-time }\n    revision: { type: [integer, \"null\"], minimum: 1 }\n",
        // Nullable where Stamped is not.
        "    createdAt: { type: [string, \"null\"], format: date-time }\n    updatedAt: { type: string, format: date-time }\n    revision: { type: [integer, \"null\"], minimum: 1 }\n",
    ])
    func aReferenceTheModelDoesNotDecodeAlikeStillDecodes(properties: String) {
        let indented = properties.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        let models = """
            \(Self.stamped)
            Note:
              type: object
              properties:
            \(indented)
              dependentSchemas: { updatedAt: { $ref: "#/Stamped" } }
            """
        #expect(Self.references(of: "Note", models) == #""Stamped": ModelCoding.reference(Stamped.self)"#)
    }

    @Test func aReferencedModelWithAModelPropertyAChecksOrClosedKeysStillDecodes() {
        let models = """
            Color: { type: string, enum: [red, green] }
            Painted: { type: object, properties: { color: { $ref: "#/Color" } } }
            Counted: { type: object, properties: { name: { type: string } }, minProperties: 1 }
            Closed: { type: object, properties: { name: { type: string } }, additionalProperties: false }
            Thing:
              type: object
              properties:
                color: { $ref: "#/Color" }
                name: { type: string }
              allOf:
                - { if: { required: [color] }, then: { $ref: "#/Painted" } }
                - { if: { required: [name] }, then: { $ref: "#/Closed" } }
                - { if: { required: [name] }, then: { $ref: "#/Counted" } }
            """
        #expect(
            Self.references(of: "Thing", models)
                == #""Closed": ModelCoding.reference(Closed.self), "Color": ModelCoding.reference(Color.self), "Counted": ModelCoding.reference(Counted.self), "Painted": ModelCoding.reference(Painted.self)"#
        )
    }
}
