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
            """
    static let withDusk = models.replacingOccurrences(of: "enum: [light, dark]", with: "enum: [light, dark, dusk]")
    static let withLink = models.replacingOccurrences(
        of: "oneOf: [{ $ref: \"#/TextNotice\" }]", with: "oneOf: [{ $ref: \"#/TextNotice\" }, { $ref: \"#/LinkNotice\" }]")
    static let plainAddress = models.replacingOccurrences(of: "{ type: string, format: email }", with: "{ type: string }")

    static func files(_ options: String?, _ models: String = models) -> [String: String?] {
        ["sdk.yaml": ModelOptionsTests.sdk(options), "models.yaml": models]
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
    ]

    @Test(arguments: cases)
    func findings(_ item: Case) throws {
        try SchemaDiffTests().findings(item)
    }
}
