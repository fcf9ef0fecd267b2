import Testing

@testable import SesameGenerator

/// sdk.yaml's `models` options: `enums: closed` (no `.unknown`, an unlisted value refused)
/// and `formats: annotate` (the String formats documented, never checked), what each emits
/// beside the defaults, and the positioned errors of bad values.
@Suite struct ModelOptionsTests {
    /// The fixture's sdk.yaml with `models: <options>` added (line 3) when given.
    static func sdk(_ options: String?) -> String {
        guard let options else { return Fixture.sdk }
        return Fixture.sdk.replacingOccurrences(
            of: "server: { baseURL: https://auth.example.com }\n",
            with: "server: { baseURL: https://auth.example.com }\nmodels: \(options)\n")
    }

    static let models =
        Fixture.models + """

            Shade: { type: string, enum: [light, dark] }
            Level: { type: integer, enum: [1, 2] }
            Notice:
              oneOf: [{ $ref: "#/TextNotice" }]
              discriminator: { propertyName: kind, mapping: { text: "#/TextNotice" } }
            TextNotice: { type: object, required: [kind], properties: { kind: { type: string, const: text } } }
            Mailbox:
              type: object
              required: [address]
              properties:
                address: { type: string, format: email, description: Where replies go. }
                hosts: { type: array, items: { type: string, format: hostname } }
                when: { type: string, format: date-time }
                site: { type: string, format: uri }
            Endpoint: { anyOf: [{ type: string, format: ipv4 }, { type: integer }] }
            NotIPv4: { type: string, not: { format: ipv4 } }
            """

    static func generate(_ options: String?) -> GeneratorPipeline.Generation {
        Fixture.generate(["sdk.yaml": sdk(options), "models.yaml": models])
    }

    // MARK: enums

    @Test func openEnumsKeepUnknownValuesByDefault() {
        let generation = Self.generate(nil)
        let shade = Fixture.model("Shade", in: generation)
        #expect(shade.contains("case unknown(String)"))
        #expect(shade.contains("public init(rawValue: String)"))
        #expect(shade.contains("try ModelCoding.unknownValue(decoder, keyword: \"enum\")"))
        let notice = Fixture.model("Notice", in: generation)
        #expect(notice.contains("case unknown(kind: String, value: JSONValue)"))
    }

    @Test func closedEnumsHaveNoUnknownCaseAndRefuseUnlistedValues() {
        let generation = Self.generate("{ enums: closed }")
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let shade = Fixture.model("Shade", in: generation)
        #expect(!shade.contains("unknown"), "\(shade)")
        #expect(shade.contains("public init?(rawValue: String)"))
        #expect(shade.contains("default: return nil"))
        #expect(
            shade.contains(
                "throw SchemaViolation(codingPath: decoder.codingPath, keyword: \"enum\", message: \"the value is not one the schema declares\")"
            ))
        let level = Fixture.model("Level", in: generation)
        #expect(level.contains("public init?(rawValue: Int)"))
        #expect(!level.contains("unknown"))
    }

    @Test func closedEnumsCloseDiscriminatedUnionsToo() {
        let notice = Fixture.model("Notice", in: Self.generate("{ enums: closed }"))
        #expect(!notice.contains("unknown"), "\(notice)")
        #expect(notice.contains("throw SchemaViolation(codingPath: decoder.codingPath, keyword: \"oneOf\""))
    }

    // MARK: formats

    @Test func formatsAreCheckedByDefault() {
        let generation = Self.generate(nil)
        let mailbox = Fixture.model("Mailbox", in: generation)
        #expect(mailbox.contains("ModelCoding.email("))
        #expect(mailbox.contains("ModelCoding.hostname("))
        #expect(!mailbox.contains("an annotation"))
        #expect(Fixture.model("Endpoint", in: generation).contains("case option1(Endpoint.Option1)"))
        #expect(Fixture.model("NotIPv4", in: generation).contains("format: \"ipv4\""))
    }

    @Test func annotatedFormatsAreDocumentedAndNeverChecked() {
        let generation = Self.generate("{ formats: annotate }")
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let mailbox = Fixture.model("Mailbox", in: generation)
        #expect(!mailbox.contains("ModelCoding.email("), "\(mailbox)")
        #expect(!mailbox.contains("ModelCoding.hostname("))
        #expect(
            mailbox.contains(
                "/// Where replies go.\n    ///\n    /// Format: email (an annotation: not checked).\n    public var address: String"))
        #expect(mailbox.contains("/// Format of each item: hostname (an annotation: not checked).\n    public var hosts: [String]?"))
        // The formats that decide the Swift type still parse.
        #expect(mailbox.contains("public var when: Date?"))
        #expect(mailbox.contains("public var site: URL?"))
    }

    @Test func anAnnotatedFormatNoLongerTellsChoiceVariantsApart() {
        let generation = Self.generate("{ formats: annotate }")
        let endpoint = Fixture.model("Endpoint", in: generation)
        #expect(endpoint.contains("case string(String)"), "\(endpoint)")
        #expect(!endpoint.contains("Option1"))
        // Inside a check too: `not: { format: ipv4 }` is `not: {}`, which no value passes.
        #expect(Fixture.model("NotIPv4", in: generation).contains("SchemaCheck.never"))
    }

    // MARK: mistakes

    @Test func badValuesArePositionedErrors() {
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk("{ enums: shut, formats: annotated }")]) == [
                "Schema/sdk.yaml:3:18: error: models.enums must be 'open' or 'closed', found 'shut'",
                "Schema/sdk.yaml:3:33: error: models.formats must be 'assert' or 'annotate', found 'annotated'; did you mean 'annotate'?",
            ])
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk("{ enum: closed }")]) == [
                "Schema/sdk.yaml:3:11: error: unknown key 'enum' in models; did you mean 'enums'?"
            ])
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk("closed")]) == [
                "Schema/sdk.yaml:3:9: error: models must be a mapping, found a scalar"
            ])
    }
}
