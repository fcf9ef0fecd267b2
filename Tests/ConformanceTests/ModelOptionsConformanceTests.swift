import ConformanceSDK
import Foundation
import JSONSemanticsSDK
@_spi(Generated) import Sesame
import Testing

/// sdk.yaml's model options, decoded and encoded: the conformance fixture keeps the defaults
/// (open enums, asserted formats), Tests/Fixtures/JSONSemantics sets `models: { enums: closed,
/// formats: annotate }` (docs/format.md, "models: enums and formats").
@Suite struct ModelOptionsConformanceTests {
    // MARK: enums

    @Test func anOpenEnumKeepsAnUnlistedValue() throws {
        #expect(try Instance.decode(Color.self, #""blue""#) == .unknown("blue"))
        #expect(try Instance.decode(Shape.self, #"{"kind": "square"}"#).kindValue == "square")
    }

    @Test func aClosedEnumRefusesAnUnlistedValue() throws {
        let violation = Instance.violation(Shade.self, #""dusk""#)
        #expect(violation?.keyword == "enum")
        #expect(violation?.path == "$")
        #expect(Instance.violation(Level.self, "4")?.keyword == "enum")
        #expect(Shade(rawValue: "dusk") == nil)
        #expect(try Instance.decode(Shade.self, #""dark""#) == .dark)
        #expect(try Instance.decode(Level.self, "2") == ._2)
        // As a property: the path names it.
        let property = Instance.violation(Mailbox.self, #"{"address": "a@example.com", "shade": "dusk"}"#)
        #expect(property?.keyword == "enum")
        #expect(property?.path == "$.shade")
    }

    @Test func aClosedUnionRefusesAnUnknownVariant() throws {
        let violation = Instance.violation(Notice.self, #"{"kind": "video", "url": "https://example.com"}"#)
        #expect(violation?.keyword == "oneOf")
        #expect(try Instance.decode(Notice.self, #"{"kind": "text", "text": "hi"}"#) == .text(TextNotice(text: "hi")))
    }

    /// A closed enum is exhaustive: this switch has no default and compiles.
    @Test func aClosedEnumSwitchesExhaustively() {
        func name(_ shade: Shade) -> String {
            switch shade {
            case .light: return "light"
            case .dark: return "dark"
            }
        }
        #expect(Shade.allKnownCases.map(name) == ["light", "dark"])
    }

    // MARK: formats

    @Test func anAssertedFormatRefusesAMalformedEmailOnDecodeAndEncode() {
        let decoded = Instance.violation(Formats.self, #"{"email": "not an address"}"#)
        #expect(decoded?.keyword == "format")
        #expect(decoded?.path == "$.email")
        #expect(Instance.encodingViolation(Formats(email: "not an address"))?.keyword == "format")
    }

    @Test func anAnnotatedFormatAcceptsAMalformedEmailOnDecodeAndEncode() throws {
        let json = #"{"address": "not an address", "host": "-bad-", "v4": "10.0.0.256", "v6": "::1::", "next": "\\\\", "hosts": ["-x-"]}"#
        let mailbox = try Instance.decode(Mailbox.self, json)
        #expect(mailbox.address == "not an address")
        #expect(mailbox.hosts == ["-x-"])
        #expect(Instance.encodingViolation(mailbox) == nil)
        let back = try Instance.decode(Mailbox.self, try Instance.encoded(mailbox))
        #expect(back == mailbox)
    }

    @Test func aFormatThatDecidesTheSwiftTypeStillParses() {
        #expect(!Instance.accepts(Mailbox.self, #"{"address": "a@example.com", "when": "yesterday"}"#))
        #expect(Instance.accepts(Mailbox.self, #"{"address": "a@example.com", "when": "2024-03-15T10:00:00Z"}"#))
        let link = Instance.violation(Notice.self, #"{"kind": "link", "url": "not a uri"}"#)
        #expect(link?.keyword == "format")
    }

    @Test func anAnnotatedFormatNoLongerTellsVariantsApart() throws {
        #expect(try Instance.decode(Endpoint.self, #""not an address""#) == .string("not an address"))
        #expect(try Instance.decode(Endpoint.self, "8080") == .integer(8080))
        // `not: { format: ipv4 }` is `not: {}`: no value passes.
        #expect(Instance.violation(NotIPv4.self, #""10.0.0.1""#)?.keyword == "not")
        #expect(Instance.violation(NotIPv4.self, #""example""#)?.keyword == "not")
    }
}
