import ConformanceSDK
import Foundation
import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// Formats checked by the generated models with the runtime's strict parsers, and the
/// references (`$defs`, `$anchor`, `$id`, JSON pointers, the nullable `oneOf`).
@Suite struct FormatAndReferenceConformanceTests {
    static let valid = [
        "host": "api.example.com", "v4": "192.168.0.1", "v6": "2001:db8::1", "reference": "../a?b#c",
        "uri": "https://example.com/a", "email": "joe@example.com", "when": "1963-06-19T08:30:06.28123+01:00",
        "day": "2024-02-29",
    ]

    @Test func validValuesOfEveryFormatDecode() throws {
        let json = String(decoding: try JSONEncoder.sesame.encode(Self.valid), as: UTF8.self)
        let formats = try Instance.decode(Formats.self, json)
        #expect(formats.host == "api.example.com")
        #expect(formats.v6 == "2001:db8::1")
        #expect(formats.reference == "../a?b#c")
        #expect(formats.day == CalendarDate(year: 2024, month: 2, day: 29))
    }

    @Test(arguments: [
        ("host", "-bad.example.com"), ("host", "a..b"), ("v4", "192.168.0.01"), ("v4", "256.1.1.1"),
        ("v6", "2001:db8:::1"), ("v6", "1.2.3.4"), ("reference", "a b"), ("reference", "%zz"),
        ("uri", "relative/path"), ("email", "joe..bloggs@example.com"), ("when", "1963-6-19T08:30:06Z"),
        ("when", "1963-06-19T24:00:00Z"), ("day", "2023-02-29"),
    ])
    func invalidValueOfAFormatIsRefusedAtItsPath(key: String, value: String) throws {
        var members = Self.valid
        members[key] = value
        let json = String(decoding: try JSONEncoder.sesame.encode(members), as: UTF8.self)
        let violation = Instance.violation(Formats.self, json)
        #expect(violation?.keyword == "format", "\(key): \(value)")
        #expect(violation?.path == "$.\(key)")
    }

    @Test func formatsOfArrayItems() {
        #expect(Instance.accepts(Formats.self, #"{"hosts": ["a.example", "b"]}"#))
        #expect(Instance.violation(Formats.self, #"{"hosts": ["a.example", "b_c"]}"#)?.path == "$.hosts[1]")
    }

    @Test func referencesByDefsAnchorIdAndPointer() throws {
        let json = #"""
            {"defs": {"city": "A"}, "anchor": {"city": "B"}, "id": {"city": "C"}, "pointer": "abc", "inner": "10.0.0.1",
             "nullable": null}
            """#
        let references = try Instance.decode(References.self, json)
        #expect(references.defs == Address(city: "A"))
        #expect(references.anchor == Address(city: "B"))
        #expect(references.id == Address(city: "C"))
        #expect(references.pointer?.rawValue == "abc")
        #expect(references.inner?.rawValue == "10.0.0.1")
        #expect(references.nullable == nil)
        #expect(Instance.violation(References.self, #"{"nullable": null, "pointer": "a"}"#)?.path == "$.pointer")
        #expect(Instance.violation(References.self, #"{"nullable": null, "inner": "10.0.0"}"#)?.keyword == "format")
        #expect(!Instance.accepts(References.self, #"{"nullable": null, "anchor": {}}"#))
    }

    @Test func nullableReferenceIsAnOptionalThatMustBePresent() throws {
        #expect(try Instance.decode(References.self, #"{"nullable": {"city": "D"}}"#).nullable == Address(city: "D"))
        #expect(!Instance.accepts(References.self, "{}"))
        #expect(!Instance.accepts(References.self, #"{"nullable": 3}"#))
        let encoded = try Instance.encoded(References(nullable: nil))
        #expect(encoded == #"{"nullable":null}"#)
    }

    @Test func defsInsideAModel() throws {
        #expect(try Instance.decode(WithDefs.self, #"{"point": {"x": 1}}"#).point == Point(x: 1))
        #expect(!Instance.accepts(WithDefs.self, #"{"point": {}}"#))
    }
}
