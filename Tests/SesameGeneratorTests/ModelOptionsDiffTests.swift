import Testing

@testable import SesameGenerator

/// What `sesame diff` says when sdk.yaml's `models` options change, and how a closed enum
/// changes the grade of a value or variant added.
@Suite struct ModelOptionsDiffTests {
    typealias Case = SchemaDiffTests.Case

    static let models =
        Fixture.models + """

            Shade: { type: string, enum: [light, dark] }
            Notice:
              oneOf: [{ $ref: "#/TextNotice" }]
              discriminator: { propertyName: kind }
            TextNotice: { type: object, required: [kind], properties: { kind: { type: string, const: TextNotice } } }
            LinkNotice: { type: object, required: [kind], properties: { kind: { type: string, const: LinkNotice } } }
            Mailbox:
              type: object
              properties:
                address: { type: string, format: email }
                hosts: { type: array, items: { type: string, format: hostname } }
            Palette:
              type: object
              properties:
                shade: { $ref: "#/Shade" }
                notice: { $ref: "#/Notice" }
                mailbox: { $ref: "#/Mailbox" }
            Brush:
              type: object
              properties:
                tint: { $ref: "#/Tint" }
                stroke: { $ref: "#/Stroke" }
            Tint: { type: string, enum: [red, blue] }
            Stroke:
              oneOf: [{ $ref: "#/TextNotice" }]
              discriminator: { propertyName: kind }
            """
    /// Palette travels in a response, Brush only in a request body.
    static let auth =
        Fixture.auth + "\n  palette: { request: GET /palette, response: Palette }\n  paint: { request: POST /paint, body: Brush }\n"
    static let withGreen = models.replacingOccurrences(of: "enum: [red, blue]", with: "enum: [red, blue, green]")
    static let withLinkStroke = models.replacingOccurrences(
        of: "Stroke:\n  oneOf: [{ $ref: \"#/TextNotice\" }]",
        with: "Stroke:\n  oneOf: [{ $ref: \"#/TextNotice\" }, { $ref: \"#/LinkNotice\" }]")
    /// Models that are only a formatted string (a struct under `assert`, `String` under
    /// `annotate`), and an anyOf whose variant a format tells apart.
    static let formatted =
        models + """

            Email: { type: string, format: email }
            Hosts: { type: array, items: { type: string, format: hostname } }
            Contact: { anyOf: [{ type: string, format: email }, { type: integer }] }
            """
    static let withDusk = models.replacingOccurrences(of: "enum: [light, dark]", with: "enum: [light, dark, dusk]")
    static let withLink = models.replacingOccurrences(
        of: "Notice:\n  oneOf: [{ $ref: \"#/TextNotice\" }]",
        with: "Notice:\n  oneOf: [{ $ref: \"#/TextNotice\" }, { $ref: \"#/LinkNotice\" }]")
    static let plainAddress = models.replacingOccurrences(of: "{ type: string, format: email }", with: "{ type: string }")

    static func files(_ options: String?, _ models: String = models, auth: String = auth) -> [String: String?] {
        ["sdk.yaml": ModelOptionsTests.sdk(options), "models.yaml": models, "auth.yaml": auth]
    }

    static let cases: [Case] = [
        Case(name: "same options", old: files("{ enums: closed }"), new: files("{ enums: closed }"), expected: []),
        Case(
            name: "enums closed", old: files(nil), new: files("{ enums: closed }"),
            expected: ["breaking models.enums-changed @ Schema/sdk.yaml:3:1"]),
        Case(
            name: "enums opened", old: files("{ enums: closed }"), new: files("{ enums: open }"),
            expected: ["breaking models.enums-changed @ Schema/sdk.yaml:3:1"]),
        Case(
            name: "formats made annotations: no property changes type", old: files(nil), new: files("{ formats: annotate }"),
            expected: ["warning models.formats-changed @ Schema/sdk.yaml:3:1"]),
        Case(
            name: "formats asserted again", old: files("{ formats: annotate }"), new: files(nil),
            expected: ["warning models.formats-changed @ Schema/sdk.yaml:4:3"]),
        Case(
            name: "a format dropped without the option still changes the type", old: files(nil), new: files(nil, plainAddress),
            expected: ["breaking property.type-changed @ Schema/models.yaml:22:5"]),
        Case(
            name: "value added to an open enum", old: files(nil), new: files(nil, withDusk),
            expected: ["compatible enum.value-added @ Schema/models.yaml:13:44"]),
        Case(
            name: "value added to a closed enum", old: files("{ enums: closed }"), new: files("{ enums: closed }", withDusk),
            expected: ["breaking enum.value-added @ Schema/models.yaml:13:44"]),
        Case(
            name: "variant added to a closed union", old: files("{ enums: closed }"), new: files("{ enums: closed }", withLink),
            expected: ["breaking union.variant-added @ Schema/models.yaml:15:45"]),
        Case(
            name: "variant added to an open union", old: files(nil), new: files(nil, withLink),
            expected: ["compatible union.variant-added @ Schema/models.yaml:15:45"]),
        Case(
            name: "value added to a closed enum only in requests", old: files("{ enums: closed }"),
            new: files("{ enums: closed }", withGreen), expected: ["compatible enum.value-added @ Schema/models.yaml:35:41"]),
        Case(
            name: "variant added to a closed union only in requests", old: files("{ enums: closed }"),
            new: files("{ enums: closed }", withLinkStroke), expected: ["compatible union.variant-added @ Schema/models.yaml:37:45"]),
        Case(
            name: "enums closed in an SDK without enums or unions", old: files(nil, Fixture.models, auth: Fixture.auth),
            new: files("{ enums: closed }", Fixture.models, auth: Fixture.auth),
            expected: ["compatible models.enums-changed @ Schema/sdk.yaml:3:1"]),
        Case(
            name: "formats made annotations: a formatted model becomes String, a format's variant a string",
            old: files(nil, formatted), new: files("{ formats: annotate }", formatted),
            expected: [
                "breaking model.type-changed @ Schema/models.yaml:39:1", "breaking model.type-changed @ Schema/models.yaml:40:1",
                "breaking model.type-changed @ Schema/models.yaml:41:1", "breaking model.removed @ Schema/models.yaml:41:20",
                "warning models.formats-changed @ Schema/sdk.yaml:3:1",
            ]),
        Case(
            name: "formats asserted again: a formatted model becomes a struct, a format's variant a model",
            old: files("{ formats: annotate }", formatted), new: files(nil, formatted),
            expected: [
                "breaking model.type-changed @ Schema/models.yaml:39:1", "breaking model.type-changed @ Schema/models.yaml:40:1",
                "breaking model.type-changed @ Schema/models.yaml:41:1", "compatible model.added @ Schema/models.yaml:41:20",
                "warning models.formats-changed @ Schema/sdk.yaml:4:3",
            ]),
    ]

    @Test(arguments: cases)
    func findings(_ item: Case) throws {
        try SchemaDiffTests().findings(item)
    }
}
