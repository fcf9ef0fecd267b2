import ConformanceSDK
import Foundation
import SesameTestSupport
import Testing

@testable @_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

/// A `$ref` inside a check decodes the referenced model from the JSON value the check holds
/// (`JSONValueDecoder`), not from the value encoded back to JSON text (issue 30): what it
/// accepts and refuses, and the violation's path, keyword and message, are what the round
/// trip through `JSONEncoder` and `JSONDecoder` gave.
@Suite struct ReferenceDecodingConformanceTests {
    /// Decodes only from the value in hand: refuses any other decoder.
    struct DecodedInPlace: Decodable {
        init(from decoder: any Decoder) throws {
            guard decoder is JSONValueDecoder else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decoded from JSON text"))
            }
        }
    }

    @Test func theReferencedModelIsDecodedFromTheValueInHand() throws {
        try ModelCoding.reference(DecodedInPlace.self)(.object(["a": .integer(1)]), [])
        // The types JSONDecoder decodes with strategies of its own take the JSON text.
        try ModelCoding.reference(Date.self)(.number(12.5), [])
        #expect(throws: SchemaViolation.self) { try ModelCoding.reference(URL.self)(.integer(1), []) }
    }

    /// Reads every kind of container, as a generated model may.
    struct UnkeyedProbe: Decodable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            _ = try container.decodeNil()
            _ = try container.decode(Int8.self)
            var nested = try container.nestedUnkeyedContainer()
            _ = try nested.decode(String.self)
            _ = try container.decode(Float.self)
        }
    }

    struct KeyedProbe: Decodable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            _ = try container.decodeNil(forKey: AnyCodingKey("a"))
            let nested = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("b"))
            _ = try nested.decode([UInt8].self, forKey: AnyCodingKey("c"))
            _ = try nested.decodeIfPresent(Bool.self, forKey: AnyCodingKey("d"))
        }
    }

    /// Both ways of checking a `$ref` to one type.
    struct Pair {
        var name: String
        var direct: @Sendable (JSONValue, [any CodingKey]) throws -> Void
        var throughJSON: @Sendable (JSONValue, [any CodingKey]) throws -> Void

        init<Model: Decodable & SendableMetatype>(_ model: Model.Type) {
            name = String(describing: Model.self)
            let reference = ModelCoding.reference(Model.self)
            direct = { try reference($0, $1) }
            throughJSON = ModelCoding.referenceThroughJSON(Model.self)
        }
    }

    static let types: [Pair] = [
        Pair(Parcel.self), Pair(Tree.self), Pair(Shape.self), Pair(Circle.self), Pair(Color.self), Pair(Palette.self),
        Pair(PaletteOrName.self), Pair(PaletteChecked.self), Pair(NotAColor.self), Pair(NotAShape.self), Pair(Formats.self),
        Pair(References.self), Pair(Contact.self), Pair(Tuple.self), Pair(Point.self), Pair(Token.self), Pair(Me.self),
        Pair(Sized.self), Pair(MaybeNamed.self), Pair(SizedOrNamed.self), Pair(Extended.self), Pair(Counted.self),
        Pair(Payment.self), Pair(MaybeNames.self), Pair(Optionals.self), Pair(Nested.self), Pair(Between.self),
        Pair(Booleans.self), Pair(ConstNull.self), Pair(MixedEnum.self), Pair(ColorOrNumber.self),
        Pair(NumberShapeOrColor.self), Pair(Conditional.self), Pair(Forbidden.self), Pair(UniqueItems.self),
        Pair(PropertyCounts.self), Pair(Patterns.self), Pair(TypeList.self), Pair(AnyOfValue.self), Pair(OneOfValue.self),
        Pair(IPAddress.self), Pair(OneCodePoint.self), Pair(Contains.self), Pair(Int.self), Pair(Int8.self),
        Pair(UInt64.self), Pair(Float.self), Pair(Double.self), Pair(Bool.self), Pair(String.self), Pair([Int].self),
        Pair([String: Int].self), Pair(Int?.self), Pair(JSONValue.self), Pair(Date.self), Pair(URL.self), Pair(Data.self),
        Pair(Decimal.self), Pair(UnkeyedProbe.self), Pair(KeyedProbe.self),
    ]

    static let values = [
        "null", "true", "false", "0", "1", "-1", "7", "300", "70000", "1.5", "-2.0", "1e19", "-1e19", "3.4e39", #""""#,
        #""red""#, #""blue""#, #""z1""#, #""abc""#, #""1963-06-19T08:30:06Z""#, #""https://example.com/a""#, #""AAEC""#,
        #""10.0.0.1""#, "[]", "[1, 2]", "[1, null]", #"["red", "green"]"#, #"["a", 1]"#, #"["ab", null, "c"]"#,
        #"[null, 1, ["x"], 2.5]"#, #"[null, 300, ["x"], 1]"#, #"[1, 1, ["x"], 1]"#, #"[null, 1, [2], 1]"#, "[null, 1]",
        #"[null, 1, ["x"], 1e39]"#, "{}", #"{"kind": "circle", "radius": 2}"#, #"{"kind": "square"}"#,
        #"{"main": "red", "shades": ["green"]}"#, #"{"main": "blue"}"#, #"{"main": null}"#, #"{"shades": ["red", 1]}"#,
        #"{"city": "A"}"#, #"{"city": null}"#, #"{"city": 1}"#, #"{"to": {"city": "A"}, "box": {"grams": 2}}"#,
        #"{"to": {"city": "A"}, "box": {"grams": 0}}"#, #"{"to": {}, "box": {}}"#, #"{"left": 1, "right": {"left": 2}}"#,
        #"{"left": {"left": "x"}}"#, #"{"size": 3}"#, #"{"size": 3, "other": 1}"#, #"{"name": null}"#,
        #"{"name": "Ann", "age": 3, "extra": true}"#, #"{"x": 1, "y": 2}"#, #"{"a": null, "b": {"c": [1, 2]}}"#,
        #"{"a": null, "b": {"c": [1, 300]}}"#, #"{"b": {"c": []}}"#, #"{"a": 1, "b": {"c": null}}"#,
        #"{"a": 1, "b": {"c": [1], "d": 1}}"#, #"{"a": 1, "b": []}"#, #"{"a": 1, "b": {"c": [-1]}}"#,
    ]

    /// What a check of `value` at `$.root` says: accepted, or the violation.
    static func outcome(_ check: (JSONValue, [any CodingKey]) throws -> Void, _ value: JSONValue) -> String {
        do {
            try check(value, [AnyCodingKey("root")])
            return "accepted"
        } catch let violation as SchemaViolation {
            return "\(violation.path) \(violation.keyword): \(violation.message)"
        } catch {
            return "not a violation: \(error)"
        }
    }

    /// Whether `value` holds an object of two keys or more: `JSONDecoder` lists an object's
    /// keys in an order of its hashing, which changes from process to process, so which of two
    /// failing properties the round trip names first is chance.
    static func hasSeveralKeys(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object): return object.count > 1 || object.values.contains(where: hasSeveralKeys)
        case .array(let array): return array.contains(where: hasSeveralKeys)
        default: return false
        }
    }

    /// One value checked both ways.
    struct Compared: Sendable {
        var type: String
        var text: String
        var severalKeys: Bool
        var direct: String
        var throughJSON: String
    }

    @Test func everyValueIsCheckedAsTheRoundTripThroughJSONChecksIt() async throws {
        // About 3,700 decodes each way: on a thread of its own, off the cooperative pool.
        let comparisons = try await onOwnThread {
            try Self.values.flatMap { text in
                let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                return Self.types.map { type in
                    Compared(
                        type: type.name, text: text, severalKeys: Self.hasSeveralKeys(value),
                        direct: Self.outcome(type.direct, value), throughJSON: Self.outcome(type.throughJSON, value))
                }
            }
        }
        var exact = 0
        for compared in comparisons {
            let (direct, throughJSON) = (compared.direct, compared.throughJSON)
            if direct == "accepted" || throughJSON == "accepted" || !compared.severalKeys {
                #expect(direct == throughJSON, "\(compared.type) of \(compared.text)")
                exact += 1
            } else {
                // Both refuse; the property named may be another of the object's.
                #expect(direct.hasPrefix("$.root"), "\(compared.type) of \(compared.text): \(direct)")
                #expect(throughJSON.hasPrefix("$.root"), "\(compared.type) of \(compared.text): \(throughJSON)")
            }
        }
        // Both outcomes are exercised, and nearly every pair is compared exactly.
        #expect(comparisons.count == Self.values.count * Self.types.count)
        #expect(comparisons.filter { $0.direct == "accepted" }.count > 100)
        #expect(exact > 3 * (comparisons.count - exact))
    }

    /// Several failing properties: the first in key order is named, in every process.
    @Test func severalFailingPropertiesNameTheFirstInKeyOrder() {
        let value = JSONValue.object(["b": .string("x"), "a": .null, "c": .bool(true)])
        #expect(Self.outcome(ModelCoding.reference([String: Int].self).callAsFunction, value) == "$.root.a type: found null")
    }
}
