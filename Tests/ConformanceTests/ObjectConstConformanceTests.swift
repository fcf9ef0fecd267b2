import ConformanceSDK
import Foundation
@_spi(Generated) import Sesame
import Testing

/// Issue 27: a `const` beside an object's `properties` (or its `additionalProperties`) was
/// dropped, and the model decoded any object. It is now part of the object's check, on decode
/// and on encode, and the keys of its value are kept so that what decoded encodes back
/// (docs/format.md, "const").
@Suite struct ObjectConstConformanceTests {
    /// Decodes `json` as `Model`, encodes it back, and requires the same JSON (key order aside).
    private func roundTrips<Model: Codable>(_ model: Model.Type, _ json: String) throws {
        let decoded = try Instance.decode(model, json)
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder.sesame.encode(decoded)) == expected)
    }

    @Test func anObjectConstBesidePropertiesIsCheckedOnDecode() throws {
        try roundTrips(ObjectConst.self, #"{"a": 1, "b": 2}"#)
        // Key order does not matter, and numbers compare by value.
        try roundTrips(ObjectConst.self, #"{"b": 2, "a": 1.0}"#)
        #expect(Instance.violation(ObjectConst.self, #"{"b": 2}"#)?.keyword == "const")
        #expect(Instance.violation(ObjectConst.self, #"{"a": 1, "b": 3}"#)?.keyword == "const")
        #expect(Instance.violation(ObjectConst.self, #"{"a": 1, "b": 2, "c": 3}"#)?.keyword == "const")
        #expect(Instance.violation(ObjectConst.self, "{}")?.keyword == "const")
    }

    @Test func anObjectConstIsCheckedOnEncode() throws {
        #expect(Instance.encodingViolation(ObjectConst(b: 2))?.keyword == "const")
        #expect(Instance.encodingViolation(ObjectConst(b: 2, a: .integer(2)))?.keyword == "const")
        #expect(Instance.encodingViolation(ObjectConst(b: 2, a: .integer(1))) == nil)
    }

    @Test func aConstBesideAdditionalPropertiesIsChecked() throws {
        try roundTrips(MapConst.self, #"{"x": 1}"#)
        #expect(Instance.violation(MapConst.self, #"{"x": 2}"#)?.keyword == "const")
        #expect(Instance.violation(MapConst.self, #"{"x": 1, "y": 1}"#)?.keyword == "const")
        #expect(Instance.encodingViolation(MapConst(additionalProperties: [:]))?.keyword == "const")
        #expect(Instance.encodingViolation(MapConst(additionalProperties: ["x": 1])) == nil)
    }

    @Test func anInlineObjectPropertyConstIsChecked() throws {
        try roundTrips(HoldsObjectConst.self, #"{"inner": {"b": 3}}"#)
        let violation = Instance.violation(HoldsObjectConst.self, #"{"inner": {"b": 4}}"#)
        #expect(violation?.keyword == "const")
        #expect(violation?.path == "$.inner")
        #expect(Instance.encodingViolation(HoldsObjectConst(inner: .init(b: 4)))?.keyword == "const")
        #expect(Instance.encodingViolation(HoldsObjectConst(inner: .init(b: 3))) == nil)
    }

    /// An inline object with a `const` and no `properties` is a nested struct (it was refused).
    @Test func anInlineDictionaryConstIsChecked() throws {
        try roundTrips(HoldsMapConst.self, #"{"map": {"x": 1}}"#)
        let violation = Instance.violation(HoldsMapConst.self, #"{"map": {"x": 1, "y": 2}}"#)
        #expect(violation?.keyword == "const")
        #expect(violation?.path == "$.map")
        #expect(Instance.encodingViolation(HoldsMapConst(map: .init(additionalProperties: ["x": 2])))?.keyword == "const")
        #expect(Instance.encodingViolation(HoldsMapConst(map: .init(additionalProperties: ["x": 1]))) == nil)
    }

    /// `enum` beside `properties` was already kept: a `JSONValue` checked against the list.
    @Test func anObjectEnumBesidePropertiesIsChecked() throws {
        try roundTrips(ObjectEnum.self, #"{"a": 1, "b": 2}"#)
        try roundTrips(ObjectEnum.self, #"{"b": 3}"#)
        #expect(Instance.violation(ObjectEnum.self, #"{"b": 2}"#)?.keyword == "enum")
        #expect(Instance.encodingViolation(ObjectEnum(rawValue: .object(["b": .integer(4)])))?.keyword == "enum")
    }
}
