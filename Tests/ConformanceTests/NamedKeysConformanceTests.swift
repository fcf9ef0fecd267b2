import ConformanceSDK
import Foundation
@_spi(Generated) import Sesame
import Testing

/// Issue 27: an object model keeps the keys its own checks name without declaring them
/// (docs/format.md, "Keys named only by the checks"), so that what it decoded encodes back and
/// its check on encode sees what decoding saw (`oneOf/8` of the JSON-Schema-Test-Suite).
@Suite struct NamedKeysConformanceTests {
    /// The JSON `value` encodes to, as a `JSONValue` (key order aside).
    private func encodedJSON(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder.sesame.encode(value))
    }

    /// Decodes `json` as `Model`, encodes it back, and requires the same JSON.
    private func roundTrips<Model: Codable>(_ model: Model.Type, _ json: String) throws {
        let decoded = try Instance.decode(model, json)
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        #expect(try encodedJSON(decoded) == expected)
    }

    @Test func aValueTheOneOfAcceptsEncodesBackAsDecoded() throws {
        try roundTrips(OneOfRequired.self, #"{"foo": 1, "bar": 2}"#)
        try roundTrips(OneOfRequired.self, #"{"foo": 1, "baz": [true]}"#)
        // `null` is a value: kept as `.null`, written back.
        try roundTrips(OneOfRequired.self, #"{"foo": null, "bar": {"x": "y"}}"#)
        let decoded = try Instance.decode(OneOfRequired.self, #"{"foo": 1, "bar": 2}"#)
        #expect(decoded.foo == .integer(1))
        #expect(decoded.bar == .integer(2))
        #expect(decoded.baz == nil)
        // The suite's refused cases stay refused on decode.
        #expect(Instance.violation(OneOfRequired.self, #"{"foo": 1, "bar": 2, "baz": 3}"#)?.keyword == "oneOf")
        #expect(Instance.violation(OneOfRequired.self, #"{"foo": 1}"#)?.keyword == "oneOf")
    }

    @Test func aValueBuiltInSwiftThatTheOneOfRefusesStillDoesNotEncode() {
        #expect(Instance.encodingViolation(OneOfRequired())?.keyword == "oneOf")
        #expect(Instance.encodingViolation(OneOfRequired(foo: .integer(1)))?.keyword == "oneOf")
        #expect(Instance.encodingViolation(OneOfRequired(bar: .integer(2), baz: .integer(3), foo: .integer(1)))?.keyword == "oneOf")
        #expect(Instance.encodingViolation(OneOfRequired(bar: .integer(2), foo: .null)) == nil)
    }

    @Test func dependentRequiredAndNotKeepTheirKeysToo() throws {
        try roundTrips(Guarded.self, #"{"card": "4970", "billing": {"city": "Paris"}}"#)
        try roundTrips(Guarded.self, #"{"blocked": false}"#)
        #expect(Instance.violation(Guarded.self, #"{"blocked": true}"#)?.keyword == "not")
        #expect(Instance.encodingViolation(Guarded(card: "4970"))?.keyword == "dependentRequired")
        #expect(Instance.encodingViolation(Guarded(blocked: .bool(true)))?.keyword == "not")
        #expect(Instance.encodingViolation(Guarded(card: "4970", billing: .string("Paris"))) == nil)
    }

    @Test func aRequiredNameWithNoPropertySchemaIsKept() throws {
        try roundTrips(RequiredNames.self, #"{"id": "1", "extra": [true]}"#)
        try roundTrips(RequiredNames.self, #"{"id": "1", "extra": null}"#)
        #expect(Instance.encodingViolation(RequiredNames(id: "1"))?.keyword == "required")
    }

    /// Issue 27: the keys a `$ref` requires through the models it names are kept (they were
    /// dropped, and encoding the decoded value threw `required`).
    @Test func keysAReferencedModelRequiresEncodeBack() throws {
        try roundTrips(NamedPair.self, #"{"a": "x", "b": 1}"#)
        try roundTrips(NamedPair.self, #"{"a": "x", "b": null}"#)
        // Through an alias: its own check names c, the model it is names a and b.
        try roundTrips(NamedThroughAlias.self, #"{"a": "x", "b": [1], "c": {"d": true}}"#)
        #expect(Instance.violation(NamedThroughAlias.self, #"{"a": "x", "b": 1}"#) != nil)
        #expect(Instance.encodingViolation(NamedPair(a: "x"))?.keyword == "required")
        // The keys of an object `const` or `enum` value in a check.
        try roundTrips(ListedObject.self, #"{"a": 1, "b": 2}"#)
        try roundTrips(ListedObject.self, #"{"c": 3}"#)
        #expect(Instance.violation(ListedObject.self, #"{"a": 1, "b": 3}"#)?.keyword == "anyOf")
    }

    /// Issue 27: undeclared keys a `minProperties` counts, or a `not` of `maxProperties` tells
    /// apart, are kept, every one; a `patternProperties` keeps those its patterns match.
    @Test func undeclaredKeysTheChecksCountOrMatchEncodeBack() throws {
        try roundTrips(CountedKeys.self, #"{"a": 1}"#)
        try roundTrips(CountedKeys.self, #"{"a": null, "b": {"c": [2]}}"#)
        #expect(Instance.violation(CountedKeys.self, "{}")?.keyword == "minProperties")
        try roundTrips(NotAtMostOne.self, #"{"a": 1, "b": 2}"#)
        #expect(Instance.violation(NotAtMostOne.self, #"{"a": 1}"#)?.keyword == "not")
        try roundTrips(NotIntegerExtensions.self, #"{"id": 1, "x-a": "text"}"#)
        #expect(Instance.violation(NotIntegerExtensions.self, #"{"id": 1, "x-a": 2}"#)?.keyword == "not")
        // A key no pattern matches is ignored, as before: decoded, not kept.
        let decoded = try Instance.decode(NotIntegerExtensions.self, #"{"x-a": "text", "other": 1}"#)
        #expect(try encodedJSON(decoded) == .object(["x-a": .string("text")]))
        // The fixture's earlier models: `Patterns` keeps its `x-` keys, `PropertyCounts` every key.
        try roundTrips(Patterns.self, #"{"id": 1, "x-trace": "abc"}"#)
        try roundTrips(PropertyCounts.self, #"{"other": 1}"#)
    }
}
