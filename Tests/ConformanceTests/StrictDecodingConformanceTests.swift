import ConformanceSDK
import Foundation
@_spi(Generated) import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// Decoding is wider than JSON Schema in one place only: an unknown enum value (or
/// discriminated variant) decoded as the value's own type is kept as `.unknown`. Everywhere
/// else (an optional property given `null`, an enum tried as a variant or inside a check)
/// it refuses what JSON Schema refuses (docs/format.md, "Where decoding is wider").
@Suite struct StrictDecodingConformanceTests {
    @Test func anOptionalPropertyThatIsNotNullableRefusesNull() throws {
        #expect(try Instance.decode(Optionals.self, "{}") == Optionals())
        for property in ["plain", "defaulted", "color"] {
            let violation = Instance.violation(Optionals.self, #"{"\#(property)": null}"#)
            #expect(violation?.keyword == "type", "\(property)")
            #expect(violation?.path == "$.\(property)", "\(property)")
        }
        // Absent takes the default; null is not absent.
        #expect(try Instance.decode(Optionals.self, "{}").defaulted == 3)
    }

    @Test func nullableAndUntypedPropertiesStillAcceptNull() throws {
        #expect(try Instance.decode(Optionals.self, #"{"nullable": null}"#).nullable == nil)
        #expect(try Instance.decode(Optionals.self, #"{"nullable": "x"}"#).nullable == "x")
        #expect(Instance.accepts(Optionals.self, #"{"anything": null}"#))
        #expect(try Instance.decode(References.self, #"{"nullable": null}"#).nullable == nil)
    }

    @Test func anUnknownEnumValueIsKeptWhereItIsTheValuesOwnType() throws {
        #expect(try Instance.decode(Color.self, #""blue""#) == .unknown("blue"))
        #expect(try Instance.decode(Optionals.self, #"{"color": "blue"}"#).color == .unknown("blue"))
        #expect(try Instance.decode(Palette.self, #"{"shades": ["red", "blue"]}"#).shades == [.red, .unknown("blue")])
    }

    /// `oneOf: [{enum: [a, b]}, {pattern: "^z"}]`: "zz" is no `a` or `b`, so only the
    /// pattern matches it.
    @Test func anEnumVariantMatchesOnlyItsDeclaredValues() throws {
        #expect(try Instance.decode(EnumOrZ.self, #""zz""#) == .option2(EnumOrZ.Option2(rawValue: "zz")))
        #expect(try Instance.decode(EnumOrZ.self, #""a""#) == .option1(.a))
        let none = Instance.violation(EnumOrZ.self, #""c""#)
        #expect(none?.keyword == "oneOf")
        #expect(none?.message.contains("none") == true)
        #expect(try Instance.decode(ColorOrNumber.self, #""red""#) == .color(.red))
        #expect(Instance.violation(ColorOrNumber.self, #""blue""#)?.keyword == "anyOf")
    }

    /// Strictness reaches enums nested in a variant: an object variant whose enum property
    /// holds an unknown value does not match.
    @Test func anEnumInsideAVariantIsStrictToo() throws {
        #expect(try Instance.decode(PaletteOrName.self, #"{"main": "red"}"#) == .palette(Palette(main: .red)))
        // Refused where the enum failed, the furthest any variant got.
        let main = Instance.violation(PaletteOrName.self, #"{"main": "blue"}"#)
        #expect(main.map { "\($0.path) \($0.keyword)" } == "$.main enum")
        #expect(main?.message.hasSuffix("(so the value at $ matches none of the 2 schemas of its oneOf)") == true)
        let shades = Instance.violation(PaletteOrName.self, #"{"shades": ["blue"]}"#)
        #expect(shades.map { "\($0.path) \($0.keyword)" } == "$.shades[0] enum")
        // With a name it matches the second variant only.
        #expect(Instance.accepts(PaletteOrName.self, #"{"main": "blue", "name": "x"}"#))
    }

    @Test func notOfAnEnumRefusesOnlyItsDeclaredValues() {
        #expect(Instance.accepts(NotAColor.self, #""blue""#))
        #expect(Instance.violation(NotAColor.self, #""red""#)?.keyword == "not")
        #expect(Instance.violation(NotAColor.self, #""green""#)?.keyword == "not")
    }

    /// A `$ref` checked beside the model's own keywords names the path and keyword that
    /// failed inside the referenced schema, not `$ref`.
    @Test func aFailingReferenceInsideACheckReportsTheInnerKeyword() {
        #expect(Instance.accepts(PaletteChecked.self, #"{"main": "red"}"#))
        let unknown = Instance.violation(PaletteChecked.self, #"{"main": "blue"}"#)
        #expect(unknown?.keyword == "enum")
        #expect(unknown?.path == "$.main")
        let nullColor = Instance.violation(PaletteChecked.self, #"{"main": null}"#)
        #expect(nullColor?.path == "$.main")
        #expect(nullColor?.keyword == "type")
    }

    /// A discriminated union keeps an unknown kind when decoded as its own type; inside a
    /// check it matches only its declared variants.
    @Test func anUnknownVariantIsKeptOnlyAsTheValuesOwnType() throws {
        let square = #"{"kind": "square", "side": 2}"#
        #expect(
            try Instance.decode(Shape.self, square)
                == .unknown(kind: "square", value: .object(["kind": .string("square"), "side": .integer(2)])))
        #expect(Instance.accepts(NotAShape.self, square))
        #expect(Instance.violation(NotAShape.self, #"{"kind": "circle", "radius": 1}"#)?.keyword == "not")
        let json = Data(#""purple""#.utf8)
        #expect(throws: SchemaViolation.self) { try ModelCoding.strictly { try JSONDecoder().decode(Color.self, from: json) } }
    }
}
