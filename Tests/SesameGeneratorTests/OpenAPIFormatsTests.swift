import Testing

@testable import SesameGenerator

/// OpenAPI's formats (its Format Registry) and how a published document's own formats and
/// keys are read (docs/format.md, "Formats" and "Documents the team does not own").
@Suite struct OpenAPIFormatsTests {
    static let formats = """
        Sample:
          type: object
          required: [small, large, ratio, share, blob, secret]
          properties:
            small: { type: integer, format: int32 }
            large: { type: integer, format: int64 }
            plain: { type: integer }
            ratio: { type: number, format: double }
            share: { type: number, format: float }
            blob: { type: string, format: byte }
            raw: { type: string, format: binary }
            secret: { type: string, format: password }
            secrets: { type: array, items: { type: string, format: password } }
            counted: { type: string, format: int64 }
        """

    @Test func eachFormatHasTheSwiftTypeSwiftOpenAPIGeneratorGivesIt() {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + Self.formats])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let sample = Fixture.model("Sample", in: generation)
        #expect(sample.contains("public var small: Int32\n"))
        #expect(sample.contains("public var large: Int64\n"))
        #expect(sample.contains("public var plain: Int?\n"))
        #expect(sample.contains("public var ratio: Double\n"))
        #expect(sample.contains("public var share: Float\n"))
        #expect(sample.contains("public var blob: Data\n"))
        #expect(sample.contains("public var raw: String?\n"))
        #expect(sample.contains("public var secret: String\n"))
        // A number's format on a string is an annotation: Google's APIs send int64 as text.
        #expect(sample.contains("public var counted: String?\n"))
        // The base64 text goes through its wire type.
        #expect(sample.contains("Base64Value"))
    }

    @Test func aModelWithAPasswordHasAMirrorThatHidesIt() {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + Self.formats])
        let sample = Fixture.model("Sample", in: generation)
        #expect(sample.contains("public struct Sample: Codable, Hashable, Sendable, CustomReflectable"))
        #expect(sample.contains(#""secret": "<redacted>""#))
        #expect(sample.contains(#""secrets": "<redacted>""#))
        #expect(sample.contains(#""small": small"#))
        // A model without one has no mirror of its own.
        let user = Fixture.model("User", in: generation)
        #expect(!user.contains("customMirror"))
    }

    @Test func aDefaultOutsideAnInt32IsAnError() {
        let printed = Fixture.printed(
            models: "Counter: { type: object, properties: { n: { type: integer, format: int32, default: 3000000000 } } }")
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:13:") == true)
        #expect(printed.first?.contains("error:") == true)
    }

    @Test func anInt32DefaultMayBeEitherEndOfItsRange() {
        // Written as integers and as numbers (JSON Schema: -2147483648.0 is an integer).
        for literal in ["-2147483648", "2147483647", "-2147483648.0", "2147483647.0"] {
            let printed = Fixture.printed(
                models: "Counter: { type: object, properties: { n: { type: integer, format: int32, default: \(literal) } } }")
            #expect(printed.isEmpty, "\(literal): \(printed)")
        }
        for literal in ["-2147483649", "2147483648", "-2147483649.0", "2147483648.0"] {
            let printed = Fixture.printed(
                models: "Counter: { type: object, properties: { n: { type: integer, format: int32, default: \(literal) } } }")
            #expect(printed.count == 1, "\(literal): \(printed)")
        }
    }

    @Test func aFormatOfAnotherTypeIsNotAnError() {
        // `format` applies to integers and numbers now; a string format on one is an annotation.
        #expect(Fixture.printed(models: "Count: { type: integer, format: email }").isEmpty)
        #expect(Fixture.printed(models: "Ratio: { type: number, format: int32 }").isEmpty)
    }

    @Test func anUnknownFormatInAModelsFileIsStillAnError() {
        let printed = Fixture.printed(models: "Phone: { type: string, format: phone }")
        #expect(printed.count == 1)
        #expect(printed.first?.contains("error: unsupported format 'phone'; Sesame supports date-time,") == true)
        #expect(printed.first?.contains("int32, int64, float, double") == true)
        #expect(
            Fixture.printed(models: "Count: { type: integer, format: uint128 }").first?.contains("error: unsupported format 'uint128'")
                == true)
    }

    @Test func anUnknownKeyInAModelsFileIsStillAnError() {
        let printed = Fixture.printed(models: "Phone: { type: string, optional: true, x-go-name: P }")
        #expect(printed.contains { $0.contains("error: unknown key 'optional'") })
        #expect(printed.contains { $0.contains("error: unknown key 'x-go-name'") })
    }

    static let ignoringSDK = Fixture.sdk + "\nmodels: { unknown: ignore }\n"

    @Test func modelsUnknownIgnoreReadsTheModelsFilesAsDocumentsAreRead() {
        let models =
            Fixture.models + "\nPhone: { type: object, properties: { n: { type: string, format: phone, optional: true } }, x-go-name: P }\n"
        let validation = Fixture.validate(["models.yaml": models, "sdk.yaml": Self.ignoringSDK])
        let printed = validation.diagnostics.map(\.description)
        #expect(!validation.diagnostics.hasErrors, "\(printed)")
        #expect(printed.contains { $0.contains("note: format 'phone' is not one Sesame knows") })
        #expect(printed.contains { $0.contains("note: unknown key 'optional' in a schema is ignored") })
        // OpenAPI's extensions are ignored without a note.
        #expect(!printed.contains { $0.contains("x-go-name") })
        let generation = Fixture.generate(["models.yaml": models, "sdk.yaml": Self.ignoringSDK])
        #expect(Fixture.model("Phone", in: generation).contains("public var n: String?"))
    }

    @Test func aWrongValueOfModelsUnknownIsAnError() {
        let printed = Fixture.printed(["sdk.yaml": Fixture.sdk + "\nmodels: { unknown: ignored }\n"])
        #expect(
            printed.contains { $0.contains("error: models.unknown must be 'refuse' or 'ignore', found 'ignored'; did you mean 'ignore'?") })
    }

    static let document = """
        openapi: 3.0.3
        info: { title: Identity, version: "1" }
        paths: {}
        components:
          schemas:
            Device:
              type: object
              x-go-name: DeviceRecord
              required: [id]
              properties:
                id: { type: string, format: uuid4, x-go-name: ID }
                attestation: { type: string, format: base64url, optional: true }
                sequence: { type: integer, format: int32, x-omitempty: true }
                phone: { type: string, format: phone, nullable: true }
        """

    @Test func aReferencedDocumentsUnknownFormatsAndKeysAreNotesAndItGenerates() {
        let sources = ReferencedDocumentTests.sources(
            models: "Device: { $ref: \"../api/identity.yaml#/components/schemas/Device\" }",
            documents: ["../api/identity.yaml": Self.document])
        let generation = GeneratorPipeline.generate(sources)
        let printed = generation.diagnostics.map(\.description)
        #expect(!generation.diagnostics.hasErrors, "\(printed)")
        // Each note at its line and column in the document.
        #expect(
            printed.contains(
                "Schema/../api/identity.yaml:11:37: note: format 'uuid4' is not one Sesame knows; read as an annotation (not checked)"))
        #expect(printed.contains("Schema/../api/identity.yaml:12:57: note: unknown key 'optional' in a schema is ignored"))
        #expect(!printed.contains { $0.contains("x-") })
        #expect(printed.count == 4, "\(printed)")
        let device = Fixture.model("Device", in: generation)
        #expect(device.contains("public var id: String\n"))
        #expect(device.contains("public var attestation: String?\n"))
        #expect(device.contains("public var sequence: Int32?\n"))
        #expect(device.contains("public var phone: String?\n"))
    }
}
