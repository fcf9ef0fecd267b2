import ConformanceSDK
import Foundation
@_spi(Generated) import Sesame
import Testing

/// Issue 27: every keyword `init(from:)` checks, `encode(to:)` checks too, before it writes
/// anything, and throws the `SchemaViolation` decoding would (docs/format.md, "Checked on
/// encode too"): a value the schema refuses cannot be encoded, nor sent.
@Suite struct EncodeCheckConformanceTests {
    /// Encodes `value`, decodes it back and requires the same value.
    private func roundTrips<Value: Codable & Equatable>(_ value: Value) throws {
        let data = try JSONEncoder.sesame.encode(value)
        #expect(try JSONDecoder().decode(Value.self, from: data) == value)
    }

    @Test func propertyKeywordsAreCheckedOnTheSwiftValue() throws {
        let short = Instance.encodingViolation(Nested(defaulted: "x"))
        #expect(short?.keyword == "minLength")
        #expect(short?.path == "$.defaulted")
        let zero = Instance.encodingViolation(Parcel(to: Address(city: "Paris"), box: Parcel.Box(grams: 0)))
        #expect(zero?.keyword == "minimum")
        #expect(zero?.path == "$.box.grams")
        let editor = Instance.encodingViolation(Edit(id: "e", editor: "a"))
        #expect(editor?.keyword == "minLength")
        #expect(editor?.path == "$.editor")
        try roundTrips(Nested(defaulted: "ok"))
        try roundTrips(Parcel(to: Address(city: "Paris"), box: Parcel.Box(grams: 1)))
    }

    @Test func formatsAreCheckedOnPropertiesAndEachItem() throws {
        let v4 = Instance.encodingViolation(Formats(v4: "10.0.0.256"))
        #expect(v4?.keyword == "format")
        #expect(v4?.path == "$.v4")
        let email = Instance.encodingViolation(Formats(email: "not an address"))
        #expect(email?.keyword == "format")
        #expect(email?.message.contains("not an address") == false)
        let item = Instance.encodingViolation(Formats(hosts: ["example.com", "-bad-"]))
        #expect(item?.keyword == "format")
        #expect(item?.path == "$.hosts[1]")
        try roundTrips(Formats(v4: "10.0.0.1", email: "ada@example.com", hosts: ["example.com"]))
    }

    @Test func aliasKeywordsAreCheckedOnTheRawValue() throws {
        #expect(Instance.encodingViolation(Digit(rawValue: "a"))?.keyword == "pattern")
        #expect(Instance.encodingViolation(Commented(rawValue: "a"))?.keyword == "minLength")
        #expect(Instance.encodingViolation(ConstInteger(rawValue: 3))?.keyword == "const")
        // Inside a choice, the violation is the variant's, at the choice's path.
        let variant = Instance.encodingViolation([EnumOrZ.option2(EnumOrZ.Option2(rawValue: "a"))])
        #expect(variant?.keyword == "pattern")
        #expect(variant?.path == "$[0]")
        try roundTrips(Digit(rawValue: "7"))
        try roundTrips(EnumOrZ.option2(EnumOrZ.Option2(rawValue: "zed")))
    }

    @Test func jsonOnlyKeywordsOfAJSONValueModelAreCheckedOnTheValueItHolds() throws {
        #expect(Instance.encodingViolation(MinimumAnyType(rawValue: .integer(4)))?.keyword == "minimum")
        #expect(Instance.encodingViolation(MixedEnum(rawValue: .string("b")))?.keyword == "enum")
        #expect(Instance.encodingViolation(Between(rawValue: .integer(6)))?.keyword == "maximum")
        #expect(Instance.encodingViolation(NoValue(rawValue: .null)) != nil)
        #expect(Instance.encodingViolation(UniqueItems(rawValue: [.integer(1), .integer(1)]))?.keyword == "uniqueItems")
        try roundTrips(MinimumAnyType(rawValue: .integer(5)))
        try roundTrips(MixedEnum(rawValue: .array([.integer(1), .integer(2)])))
    }

    @Test func jsonOnlyKeywordsOfATypedAliasAreCheckedOnItsJSON() throws {
        #expect(Instance.encodingViolation(MultipleOf(rawValue: 0.3))?.keyword == "multipleOf")
        #expect(Instance.encodingViolation(Forbidden(rawValue: "admin"))?.keyword == "not")
        #expect(Instance.encodingViolation(Contains(rawValue: [1, 2]))?.keyword == "minContains")
        try roundTrips(MultipleOf(rawValue: 1.5))
        try roundTrips(Contains(rawValue: [10, 11]))
    }

    @Test func anObjectModelsCheckIsCheckedOnTheJSONItEncodesTo() throws {
        let dependent = Instance.encodingViolation(PropertyCounts(card: "4242"))
        #expect(dependent?.keyword == "dependentRequired")
        #expect(Instance.encodingViolation(PropertyCounts())?.keyword == "minProperties")
        let postcode = Instance.encodingViolation(Conditional(country: "FR", postcode: "1"))
        #expect(postcode?.keyword == "pattern")
        #expect(postcode?.path == "$.postcode")
        // Nested under another value: the path is the whole path.
        let nested = Instance.encodingViolation(["a": PropertyCounts(card: "4242")])
        #expect(nested?.keyword == "dependentRequired")
        #expect(nested?.path == "$.a.billing")
        // The violation decoding the same JSON throws, path and message included.
        #expect(Instance.encodingViolation(PropertyCounts(card: "4242")) == Instance.violation(PropertyCounts.self, #"{"card": "4242"}"#))
        let closed = Instance.encodingViolation(Transfer(amount: 1, additionalProperties: ["number": .string("4"), "x": .bool(true)]))
        #expect(closed?.keyword == "additionalProperties")
        #expect(closed == Instance.violation(Transfer.self, #"{"amount": 1, "number": "4", "x": true}"#))
        try roundTrips(PropertyCounts(card: "4242", billing: "b"))
        try roundTrips(Conditional(country: "FR", postcode: "75001"))
        try roundTrips(Transfer(amount: 1, additionalProperties: ["number": .string("4")]))
    }

    @Test func aPropertysJSONCheckIsCheckedWhereThePropertyIs() throws {
        let step = Instance.encodingViolation(Nested(step: 3))
        #expect(step?.keyword == "multipleOf")
        #expect(step?.path == "$.step")
        #expect(step == Instance.violation(Nested.self, #"{"step": 3}"#))
        let empty = Instance.encodingViolation(Nested(tags: ["a", ""]))
        #expect(empty?.keyword == "not")
        #expect(empty?.path == "$.tags[1]")
        let nothing = Instance.encodingViolation(Booleans(nothing: .bool(true)))
        #expect(nothing?.path == "$.nothing")
        let deep = Instance.encodingViolation(["k": [Nested(step: 10), Nested(step: 11)]])
        #expect(deep?.path == "$.k[1].step")
        try roundTrips(Nested(tags: ["a", "b"], step: 10))
    }

    /// An object check that asks only which properties are present is told on encode by the
    /// properties in hand, without the JSON: it accepts and refuses what decoding the JSON
    /// does, with the same violation.
    @Test func aPresenceCheckOnEncodeAgreesWithDecodingTheJSON() throws {
        for card in [nil, "4242"] {
            for billing in [nil, "b"] {
                let value = PropertyCounts(card: card, billing: billing)
                var object: [String: JSONValue] = [:]
                if let card { object["card"] = .string(card) }
                if let billing { object["billing"] = .string(billing) }
                let json = String(decoding: try JSONEncoder.sesame.encode(JSONValue.object(object)), as: UTF8.self)
                #expect(Instance.encodingViolation(value) == Instance.violation(PropertyCounts.self, json), "\(json)")
            }
        }
        for name in [nil, "Ada"] {
            for age in [nil, 36] {
                let value = Counted(name: name, age: age)
                var object: [String: JSONValue] = [:]
                if let name { object["name"] = .string(name) }
                if let age { object["age"] = .integer(age) }
                let json = String(decoding: try JSONEncoder.sesame.encode(JSONValue.object(object)), as: UTF8.self)
                #expect(Instance.encodingViolation(value) == Instance.violation(Counted.self, json), "\(json)")
            }
        }
    }

    /// A check told in place (here `dependentSchemas: { updatedAt: { $ref: Stamped } }`, whose
    /// `$ref` is told by Stamped's required keys) is told on encode by the properties in hand:
    /// what it accepts and refuses, and the violation, are those of decoding the same JSON.
    @Test func anInPlaceCheckOnEncodeAgreesWithDecodingTheJSON() throws {
        let day = ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z")!
        for createdAt in [nil, day] {
            for updatedAt in [nil, day] {
                for editor in [nil, "a", "ab"] {
                    let value = Edit(id: "e", createdAt: createdAt, updatedAt: updatedAt, editor: editor)
                    var object: [String: JSONValue] = ["id": .string("e")]
                    if let createdAt { object["createdAt"] = .string(ModelCoding.dateTimeString(createdAt)) }
                    if let updatedAt { object["updatedAt"] = .string(ModelCoding.dateTimeString(updatedAt)) }
                    if let editor { object["editor"] = .string(editor) }
                    let json = String(decoding: try JSONEncoder.sesame.encode(JSONValue.object(object)), as: UTF8.self)
                    let decoding = Instance.violation(Edit.self, json)
                    #expect((Instance.encodingViolation(value) == nil) == (decoding == nil), "\(json)")
                    // A value breaking both the check and a property's keyword may be named by
                    // either (docs/format.md, "Checked on encode too").
                    if editor != "a" { #expect(Instance.encodingViolation(value) == decoding, "\(json)") }
                }
            }
        }
        #expect(Instance.encodingViolation(Edit(id: "e", updatedAt: day))?.path == "$.createdAt")
    }

    /// An object model whose check holds a `$ref`: the referenced model is decoded from the
    /// JSON the value encodes to, and its failure is named inside it.
    @Test func aReferenceInsideACheckIsCheckedOnEncode() throws {
        let stamped = ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z")!
        let edit = Instance.encodingViolation(EditLonger(editor: "ab"))
        #expect(edit?.keyword == "minLength")
        #expect(edit?.path == "$.editor")
        try roundTrips(Edit(id: "e", createdAt: stamped, updatedAt: stamped, editor: "ab"))
    }
    /// A request body built from a model fails before there is a request: the plain
    /// `RequestBody.json`/`form` (which do not decode the body back, as `checkedJSON` does)
    /// throw the violation too.
    @Test func aBodyBreakingItsSchemaMakesNoRequestBody() throws {
        #expect(throws: SchemaViolation(path: "$.step", keyword: "multipleOf", message: "expected a multiple of 5, found 3")) {
            _ = try RequestBody.json(Nested(step: 3))
        }
        #expect(throws: SchemaViolation.self) { _ = try RequestBody.form(Nested(defaulted: "x")) }
        #expect(throws: SchemaViolation.self) { _ = try RequestBody.checkedJSON(Nested(defaulted: "x")) }
        _ = try RequestBody.json(Nested(step: 5))
    }
}
