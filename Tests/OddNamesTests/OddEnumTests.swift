import Foundation
import OddNamesSDK
import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// `OddEnum` and the discriminated unions: raw values and tags with odd text map to their
/// own cases and come back exactly; values the SDK does not know are kept.
@Suite struct OddEnumTests {
    /// Every raw value of `Odd Enum` in models.yaml with the case it must be.
    static let cases: [(raw: String, value: OddEnum)] = [
        ("quote\"d", .quoteD), ("back\\slash", .backSlash), ("line\nbreak", .lineBreak), ("*/", ._2A_2F), ("/*", ._2F_2A),
        ("#if", .if), ("\"\"\"", ._22_22_22), ("\\(x)", .x), ("class", .class), ("self", .selfValue), ("Type", .type),
        ("init", .initValue), ("default", .default), ("_", .`_`), ("unknown", .unknownValue), ("rawValue", .rawValueValue),
        ("description", .descriptionValue), ("allKnownCases", .allKnownCasesValue), ("café", .café), ("名前", .名前),
        ("🎉", ._1F389), ("", .__), ("\u{2028}", ._2028), ("a-b", .aB), ("a_b", .aB_), ("A_B", .aB__),
    ]

    @Test func eachRawValueIsItsOwnCaseAndComesBackScalarForScalar() throws {
        #expect(OddEnum.allKnownCases == Self.cases.map(\.value))
        for (raw, value) in Self.cases {
            #expect(OddEnum(rawValue: raw) == value, "\(raw.debugDescription)")
            #expect(WireKeys.scalars(value.rawValue) == WireKeys.scalars(raw), "\(raw.debugDescription)")
            let encoded = try JSONEncoder.sesame.encode([value])
            #expect(try JSONDecoder().decode([String].self, from: encoded).map(WireKeys.scalars) == [WireKeys.scalars(raw)])
            #expect(try JSONDecoder().decode([OddEnum].self, from: encoded) == [value])
        }
        #expect(Set(Self.cases.map { WireKeys.scalars($0.raw) }).count == Self.cases.count)
    }

    @Test(arguments: ["Quote\"d", "self ", "SELF", "unknown(\"x\")", "\u{2029}", "a--b"])
    func aValueTheSchemaDoesNotListIsKeptAsReceived(_ raw: String) throws {
        let value = try JSONDecoder().decode(OddEnum.self, from: JSONEncoder().encode(raw))
        #expect(value == .unknown(raw))
        #expect(WireKeys.scalars(value.rawValue) == WireKeys.scalars(raw))
    }

    @Test func theUnionDecodesEachTagToItsVariantAndKeepsAnUnknownTag() throws {
        let quote = try JSONDecoder().decode(OddUnion.self, from: WireKeys.object(["kind\"#": "quote\"d */", "quote\"d": "q"]))
        #expect(quote == .quoteD(QuoteVariant(kind: "quote\"d */", quoteD: "q")))
        #expect(quote.kindValue == "quote\"d */")
        let keyword = try JSONDecoder().decode(OddUnion.self, from: WireKeys.object(["kind\"#": "self", "class": 2]))
        #expect(keyword == .selfValue(KeywordVariant(kind: "self", class: 2)))
        let named = try JSONDecoder().decode(OddUnion.self, from: WireKeys.object(["kind\"#": "unknown"]))
        #expect(named == .unknownValue(SelfModel(kind: "unknown")))
        let members: [String: Any] = ["kind\"#": "Self", "*/": [1]]
        let future = try JSONDecoder().decode(OddUnion.self, from: WireKeys.object(members))
        #expect(future == .unknown(kind: "Self", value: .object(["kind\"#": .string("Self"), "*/": .array([.integer(1)])])))
        #expect(try WireKeys.keys(of: JSONEncoder.sesame.encode(future)) == Set(members.keys.map(WireKeys.scalars)))
        #expect(try WireKeys.keys(of: JSONEncoder.sesame.encode(quote)) == [WireKeys.scalars("kind\"#"), WireKeys.scalars("quote\"d")])
    }

    @Test func discriminatorsNamedLikeKeywordsSymbolsOrValueKeepTheirWireNames() throws {
        let keyword = try JSONDecoder().decode(KeywordUnion.self, from: WireKeys.object(["default": "Default Variant"]))
        #expect(keyword == .defaultVariant(DefaultVariant(default: "Default Variant")))
        #expect(keyword.defaultValue == "Default Variant")
        let other = try JSONDecoder().decode(KeywordUnion.self, from: WireKeys.object(["default": "other"]))
        #expect(other == .unknown(default: "other", value: .object(["default": .string("other")])))

        let empty = try JSONDecoder().decode(ValueUnion.self, from: WireKeys.object(["value": ""]))
        #expect(empty == .`_`(ValueVariant(value: "")))
        #expect(empty.valueValue == "")
        let unknown = try JSONDecoder().decode(ValueUnion.self, from: WireKeys.object(["value": "v"]))
        #expect(unknown == .unknown(valueTag: "v", value: .object(["value": .string("v")])))

        let symbol = try JSONDecoder().decode(SymbolUnion.self, from: WireKeys.object(["@": "Symbol Variant"]))
        #expect(symbol == .symbolVariant(SymbolVariant(_40: "Symbol Variant")))
        #expect(symbol._40Value == "Symbol Variant")
        #expect(try WireKeys.keys(of: JSONEncoder.sesame.encode(symbol)) == [WireKeys.scalars("@")])
    }

    @Test func modelsNamedLikeKeywordsAreRenamedAndDecodeTheirSchema() throws {
        #expect(try JSONDecoder().decode([TypeModel].self, from: Data(#"["a","b"]"#.utf8)) == [.a, .unknown("b")])
        #expect(try JSONDecoder().decode(ProtocolModel.self, from: Data("3".utf8)).rawValue == 3)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(ProtocolModel.self, from: Data("-1".utf8)) }
        #expect(try JSONDecoder().decode(AnyModel.self, from: Data(#""x""#.utf8)) == "x")
        #expect(try JSONDecoder().decode(_Model.self, from: Data(#"{"x":"y"}"#.utf8)).x == "y")
        #expect(try JSONDecoder().decode(名前.self, from: Data(#""n""#.utf8)).rawValue == "n")
        #expect(throws: (any Error).self) { try JSONDecoder().decode(名前.self, from: Data(#""""#.utf8)) }
    }
}
