import Foundation
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription
import Testing

/// What a generated model's decoder asks of the decoder (issue 30): an optional property
/// costs one container call when it is there, and a check of keywords only the JSON shows
/// reads no more of the object than the keywords need, instead of decoding it whole as a
/// `JSONValue` before the model decodes it again. A counting decoder (`SpyDecoder`) sees
/// every call; the results must stay those of checking the whole `JSONValue`.
@Suite struct ModelDecodingCostTests {
    // MARK: Optional properties

    @Test func anOptionalPropertyThatIsThereCostsOneContainerCall() throws {
        let spy = SpyDecoder(["name": .string("Ada"), "other": .string("x")])
        let container = try spy.container(keyedBy: PropertyKey.self)
        #expect(try container.decodeIfPresentNotNull(String.self, forKey: "name") == "Ada")
        // Was `contains`, `decodeNil`, then `decode`: three.
        #expect(spy.calls.keyed == ["decodeIfPresent name"])
    }

    @Test func anOptionalPropertyKeepsItsMeaning() throws {
        func decode(_ json: String) throws -> String? {
            let model = try JSONDecoder().decode(NameModel.self, from: Data(json.utf8))
            return model.name
        }
        #expect(try decode(#"{"name": "Ada"}"#) == "Ada")
        #expect(try decode(#"{}"#) == nil)
        #expect(throws: SchemaViolation.self) { try decode(#"{"name": null}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"name": 1}"#) }
        // A type that accepts null still decodes it when the key holds null.
        let any = try JSONDecoder().decode(AnyValueModel.self, from: Data(#"{"value": null}"#.utf8))
        #expect(any.value == .null)
        #expect(try JSONDecoder().decode(AnyValueModel.self, from: Data(#"{}"#.utf8)).value == nil)
    }

    private struct NameModel: Decodable {
        var name: String?
        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: PropertyKey.self).decodeIfPresentNotNull(String.self, forKey: "name")
        }
    }

    private struct AnyValueModel: Decodable {
        var value: JSONValue?
        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: PropertyKey.self).decodeIfPresentNotNull(JSONValue.self, forKey: "value")
        }
    }

    // MARK: Checks on the object

    @Test func aCheckOfPropertyNamesReadsNoValue() throws {
        let check = SchemaCheck(ModelCheck(minProperties: 2, dependentRequired: ["b": ["a"]]))
        #expect(check.propertyValues == .none)
        let spy = SpyDecoder(["a": .string("1"), "b": .string("2")])
        try ModelCoding.check(spy, check)
        // Before, the whole object was decoded as a JSONValue through its single-value container.
        #expect(spy.calls.singleValue == 0)
        #expect(spy.calls.keyed == ["allKeys"])
        let missing = SpyDecoder(["b": .string("2"), "c": .string("3")])
        #expect(throws: SchemaViolation.self) { try ModelCoding.check(missing, check) }
    }

    @Test func aPresenceCheckSharesTheModelsContainerAndListsNoKey() throws {
        let check = SchemaCheck(ModelCheck(required: ["a"], minProperties: 2, dependentRequired: ["b": ["a"]]))
        #expect(check.checksPresenceOnly)
        let spy = SpyDecoder(["a": .string("1"), "b": .string("2"), "c": .null])
        _ = try ModelCoding.checkedContainer(spy, check, declared: ["a", "b"])
        // Was a container for the check, `allKeys`, then the model's container.
        #expect(spy.calls.containers == 1)
        #expect(!spy.calls.keyed.contains("allKeys"))
        // The declared properties present fall short of minProperties: the whole check decides.
        let short = SpyDecoder(["a": .string("1"), "x": .string("2")])
        _ = try ModelCoding.checkedContainer(short, check, declared: ["a", "b"])
        #expect(short.calls.keyed.contains("allKeys"))
        let refused = SpyDecoder(["b": .string("2"), "c": .string("3")])
        #expect(throws: SchemaViolation.self) { try ModelCoding.checkedContainer(refused, check, declared: ["a", "b"]) }
        #expect(!SchemaCheck(ModelCheck(minProperties: 1, maxProperties: 3)).checksPresenceOnly)
    }

    @Test func aCheckOfSomePropertiesReadsTheirValuesOnly() throws {
        let check = SchemaCheck(ModelCheck(properties: ["a": ModelCheck(minLength: 2)], required: ["b"]))
        #expect(check.propertyValues == .named(["a"]))
        let spy = SpyDecoder(["a": .string("12"), "b": .string("x"), "c": .string("y")])
        try ModelCoding.check(spy, check)
        #expect(spy.calls.keyed.sorted() == ["allKeys", "decode a"])
    }

    @Test func whatEachKeywordReads() {
        func values(_ check: ModelCheck) -> SchemaCheck.PropertyValues { SchemaCheck(check).propertyValues }
        #expect(values(ModelCheck(types: [.object], required: ["a"], propertyNames: ModelCheck(minLength: 1), maxProperties: 3)) == .none)
        #expect(values(ModelCheck(allOf: [ModelCheck(properties: ["a": ModelCheck()])], not: ModelCheck(required: ["b"]))) == .named(["a"]))
        #expect(values(ModelCheck(constValue: .object([:]))) == .all)
        #expect(values(ModelCheck(enumValues: [.null])) == .all)
        #expect(values(ModelCheck(reference: "Note")) == .all)
        #expect(values(ModelCheck(patternProperties: ["^x": ModelCheck()])) == .all)
        #expect(values(ModelCheck(additionalProperties: .never)) == .all)
        #expect(values(ModelCheck(anyOf: [ModelCheck(minProperties: 1), ModelCheck(enumValues: [.null])])) == .all)
    }

    /// The partial object finds what the whole `JSONValue` finds: the same keyword at the same
    /// path, or nothing, for each check and instance.
    @Test func aPartialObjectFailsWhereTheWholeValueFails() throws {
        let checks: [ModelCheck] = [
            ModelCheck(minProperties: 2),
            ModelCheck(maxProperties: 1),
            ModelCheck(required: ["a", "b"]),
            ModelCheck(dependentRequired: ["a": ["b"]]),
            ModelCheck(propertyNames: ModelCheck(maxLength: 1)),
            ModelCheck(properties: ["a": ModelCheck(types: [.integer], minimum: 2)], minProperties: 1),
            ModelCheck(anyOf: [ModelCheck(required: ["a"]), ModelCheck(required: ["b"])]),
            ModelCheck(oneOf: [ModelCheck(required: ["a"]), ModelCheck(required: ["b"])]),
            ModelCheck(ifSchema: ModelCheck(required: ["a"]), thenSchema: ModelCheck(required: ["b"])),
            ModelCheck(types: [.string]),
            ModelCheck(required: ["b"], minProperties: 2, dependentRequired: ["b": ["a"]]),
        ]
        let instances = [
            #"{}"#, #"{"a": 1}"#, #"{"a": 3, "b": null}"#, #"{"b": "x", "cc": [1]}"#, #"{"a": {"b": 1}, "b": 2, "c": 3}"#, #""text""#,
            #"[1, 2]"#, #"null"#,
        ]
        for check in checks {
            let compiled = SchemaCheck(check)
            for instance in instances {
                let data = Data(instance.utf8)
                let whole = Self.outcome { try compiled.validate(JSONDecoder().decode(JSONValue.self, from: data), codingPath: []) }
                let decoder = JSONDecoder()
                decoder.userInfo[Probe.checkKey] = compiled
                let partial = Self.outcome { _ = try decoder.decode(Probe.self, from: data) }
                #expect(partial == whole, "\(check) on \(instance)")
                // A model's decoder: the check then its container, or the two shared.
                let separate = Self.outcome { _ = try decoder.decode(ContainerProbe.self, from: data) }
                decoder.userInfo[ContainerProbe.sharedKey] = true
                let shared = Self.outcome { _ = try decoder.decode(ContainerProbe.self, from: data) }
                #expect(shared == separate, "\(check) on \(instance), one container")
            }
        }
    }

    private struct Probe: Decodable {
        static let checkKey = CodingUserInfoKey(rawValue: "check")!
        init(from decoder: any Decoder) throws {
            try ModelCoding.check(decoder, decoder.userInfo[Self.checkKey] as! SchemaCheck)
        }
    }

    private struct ContainerProbe: Decodable {
        static let sharedKey = CodingUserInfoKey(rawValue: "shared")!
        init(from decoder: any Decoder) throws {
            let check = decoder.userInfo[Probe.checkKey] as! SchemaCheck
            if decoder.userInfo[Self.sharedKey] as? Bool == true {
                _ = try ModelCoding.checkedContainer(decoder, check, declared: ["a", "b"])
            } else {
                try ModelCoding.check(decoder, check)
                _ = try decoder.container(keyedBy: PropertyKey.self)
            }
        }
    }

    private static func outcome(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "valid"
        } catch let violation as SchemaViolation {
            return "\(violation.keyword) at \(violation.path)"
        } catch {
            return "\(error)"
        }
    }
}
