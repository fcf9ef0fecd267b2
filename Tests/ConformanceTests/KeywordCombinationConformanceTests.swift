import ConformanceSDK
import Foundation
import Sesame
import Testing

/// The draft 2020-12 keyword combinations of issue 27, decoded through the generated fixture
/// (Tests/Fixtures/Conformance/Schema/models.yaml, "Issue 27").
@Suite struct KeywordCombinationConformanceTests {
    /// `$schema` (and the other annotations) beside `allOf`, `$ref`, `oneOf`, `enum` and a type
    /// list change nothing: the models are what they are without it.
    @Test func annotationsBesideKeywordsChangeNothing() throws {
        let extended = try Instance.decode(SchemaBesideAllOf.self, #"{"id": "u1", "nick": "ada"}"#)
        #expect(extended.id == "u1")
        #expect(extended.nick == "ada")
        #expect(!Instance.accepts(SchemaBesideAllOf.self, #"{"nick": "ada"}"#))
        #expect(try Instance.decode(SchemaBesideRef.self, #"{"id": "u2"}"#) == Me(id: "u2"))
        #expect(try Instance.decode(SchemaBesideOneOf.self, "true") == .boolean(true))
        #expect(!Instance.accepts(SchemaBesideOneOf.self, "1"))
        #expect(try Instance.decode(SchemaBesideEnum.self, #""on""#) == .on)
        #expect(!Instance.accepts(SchemaBesideTypes.self, "true"))
        #expect(Instance.accepts(SchemaBesideTypes.self, "3"))
    }

    /// `minimum`, `format`, `minLength` and `maxItems` without `type` apply to values of their
    /// type only (2020-12): any other JSON value passes, and the Swift type is JSONValue.
    @Test func typedKeywordsWithoutATypeApplyToTheirTypeOnly() throws {
        #expect(try Instance.decode(MinimumAnyType.self, "5").rawValue == .integer(5))
        #expect(Instance.violation(MinimumAnyType.self, "4.5")?.keyword == "minimum")
        #expect(try Instance.decode(MinimumAnyType.self, #""x""#).rawValue == .string("x"))
        #expect(Instance.accepts(MinimumAnyType.self, "null"))
        #expect(Instance.accepts(FormatAnyType.self, #""10.0.0.1""#))
        #expect(Instance.violation(FormatAnyType.self, #""10.0.0.256""#)?.keyword == "format")
        #expect(Instance.accepts(FormatAnyType.self, "12"))
        #expect(Instance.accepts(FormatAnyType.self, #"{"a": 1}"#))
        #expect(Instance.accepts(LengthsAnyType.self, #""ab""#))
        #expect(Instance.violation(LengthsAnyType.self, #""a""#)?.keyword == "minLength")
        #expect(Instance.accepts(LengthsAnyType.self, "[1]"))
        #expect(Instance.violation(LengthsAnyType.self, "[1, 2]")?.keyword == "maxItems")
        #expect(Instance.accepts(LengthsAnyType.self, "7"))
    }

    @Test func typeNullAloneHoldsNullOnly() throws {
        #expect(try Instance.decode(OnlyNull.self, "null").rawValue == .null)
        for json in ["0", #""""#, "false", "{}", "[]"] {
            #expect(Instance.violation(OnlyNull.self, json)?.keyword == "type", "\(json)")
        }
    }

    /// `then` and `else` without `if` are ignored: 3 is neither 1 nor 2 and decodes.
    @Test func thenAndElseWithoutIfAreIgnored() throws {
        #expect(try Instance.decode(ThenWithoutIf.self, "3") == 3)
    }

    /// `true` is any value and `false` none, as a model, a property, items and a member.
    @Test func booleanSchemas() throws {
        #expect(try Instance.decode(AnyValue.self, #"{"a": [1]}"#) == .object(["a": .array([.integer(1)])]))
        for json in ["null", "1", #""x""#, "{}"] {
            // `false` is `not: {}`: the violation names that keyword.
            #expect(Instance.violation(NoValue.self, json)?.keyword == "not", "\(json)")
        }
        let flags = try Instance.decode(Booleans.self, #"{"anything": {"x": 1}, "none": [], "all": [1, "a"]}"#)
        #expect(flags.anything == .object(["x": .integer(1)]))
        #expect(flags.all == [.integer(1), .string("a")])
        #expect(Instance.violation(Booleans.self, #"{"nothing": null}"#)?.path == "$.nothing")
        #expect(Instance.violation(Booleans.self, #"{"none": [1]}"#)?.path == "$.none[0]")
        #expect(try Instance.decode(NumberOrNothing.self, "3") == .integer(3))
        #expect(!Instance.accepts(NumberOrNothing.self, #""3""#))
    }

    /// Boolean schemas kept in a model's `$defs` are `$ref` targets like any other: `true`
    /// takes any value (JSONValue), `false` refuses every value at its path.
    @Test func booleanSchemasInDefsAreReferenceTargets() throws {
        let envelope = try Instance.decode(Envelope.self, #"{"payload": {"a": [1, null]}, "items": [1, "x", {}]}"#)
        #expect(envelope.payload == .object(["a": .array([.integer(1), .null])]))
        #expect(envelope.items == [.integer(1), .string("x"), .object([:])])
        #expect(envelope.forbidden == nil)
        #expect(try Instance.encoded(envelope) == #"{"items":[1,"x",{}],"payload":{"a":[1,null]}}"#)
        #expect(Instance.violation(Envelope.self, #"{"forbidden": 1}"#)?.path == "$.forbidden")
        #expect(Instance.violation(Envelope.self, #"{"forbidden": null}"#)?.path == "$.forbidden")
    }

    /// `allOf` beside `oneOf` (with or without a discriminator) checks the value the choice
    /// decoded, on decode and on encode.
    @Test func allOfBesideOneOfChecksTheDecodedValue() throws {
        let cat = try Instance.decode(KindedPet.self, #"{"kind": "cat", "lives": 9}"#)
        #expect(cat.rawValue == .cat(Cat(lives: 9)))
        #expect(try Instance.encoded(cat) == #"{"kind":"cat","lives":9}"#)
        // The allOf's minProperties: 2 refuses what the oneOf alone would take.
        #expect(Instance.violation(KindedPet.self, #"{"kind": "cat"}"#)?.keyword == "minProperties")
        #expect(Instance.encodingViolation(KindedPet(rawValue: .cat(Cat())))?.keyword == "minProperties")
        // The discriminated union: its allOf requires a name.
        let dog = try Instance.decode(TaggedPet.self, #"{"kind": "dog", "name": "rex", "breed": "lab"}"#)
        #expect(dog.rawValue == .dog(Dog(name: "rex", breed: "lab")))
        #expect(try Instance.encoded(dog) == #"{"breed":"lab","kind":"dog","name":"rex"}"#)
        #expect(Instance.violation(TaggedPet.self, #"{"kind": "dog", "breed": "lab"}"#)?.keyword == "required")
        #expect(Instance.encodingViolation(TaggedPet(rawValue: .dog(Dog())))?.keyword == "required")
    }

    /// `patternProperties` beside an `additionalProperties` schema: a key a pattern matches
    /// meets the pattern's schema, any other undeclared key the additional schema; every
    /// undeclared key is kept, and checked on encode too.
    @Test func patternPropertiesBesideAnAdditionalPropertiesSchema() throws {
        let headers = try Instance.decode(Headers.self, #"{"name": "n", "x-trace": "abc", "retries": 3}"#)
        #expect(headers.name == "n")
        #expect(headers.additionalProperties == ["x-trace": .string("abc"), "retries": .integer(3)])
        #expect(try Instance.encoded(headers) == #"{"name":"n","retries":3,"x-trace":"abc"}"#)
        #expect(Instance.violation(Headers.self, #"{"x-trace": 1}"#)?.path == #"$["x-trace"]"#)
        #expect(Instance.violation(Headers.self, #"{"retries": "3"}"#)?.path == "$.retries")
        #expect(!Instance.accepts(Headers.self, #"{"name": 1}"#))
        var built = Headers(name: "n")
        built.additionalProperties = ["retries": .string("three")]
        #expect(Instance.encodingViolation(built)?.path == "$.retries")
    }

    /// `allOf` of members that are not objects applies every member to the same value.
    @Test func allOfOfNonObjectsChecksEveryMember() throws {
        #expect(try Instance.decode(Between.self, "3").rawValue == .integer(3))
        #expect(Instance.violation(Between.self, "0")?.keyword == "minimum")
        #expect(Instance.violation(Between.self, "6")?.keyword == "maximum")
        #expect(Instance.accepts(Between.self, #""text""#))
    }

    /// `properties` and `required` beside `allOf` apply too, and the `$ref`'d model's own
    /// checks (`minProperties`) apply to the merged value.
    @Test func propertiesBesideAllOfExtendTheBase() throws {
        let value = try Instance.decode(Extended.self, #"{"name": "ada", "extra": true}"#)
        #expect(value.name == "ada")
        #expect(value.extra)
        #expect(value.age == nil)
        #expect(!Instance.accepts(Extended.self, #"{"name": "ada"}"#))
        #expect(!Instance.accepts(Extended.self, #"{"extra": true, "age": 3}"#))
        #expect(!Instance.accepts(Extended.self, #"{"name": 1, "extra": true}"#))
        #expect(!Instance.accepts(Extended.self, #"{"name": "ada", "extra": true, "age": "x"}"#))
        let single = Instance.violation(Counted.self, #"{"name": "ada"}"#)
        #expect(single?.keyword == "minProperties")
        let again = try Instance.decode(Extended.self, try Instance.encoded(value))
        #expect(again == value)
    }

    /// An enum of mixed, structured or no values is JSON Schema's exact list: "1" is not 1.
    @Test func enumsOfMixedValuesAreExactLists() throws {
        for json in [#""a""#, "1", "1.0", "null", "false", #"{"k": "v"}"#, "[1, 2]"] {
            #expect(Instance.accepts(MixedEnum.self, json), "\(json)")
        }
        for json in [#""1""#, #""b""#, "true", "0", #"{"k": "w"}"#, "[2, 1]", #""null""#] {
            #expect(Instance.violation(MixedEnum.self, json)?.keyword == "enum", "\(json)")
        }
        for json in ["null", "1", #""""#] {
            #expect(Instance.violation(EmptyEnum.self, json)?.keyword == "enum", "\(json)")
        }
    }

    /// Keywords beside `$ref` apply with it: the model's Swift type, the siblings checked.
    @Test func keywordsBesideRefApplyToo() throws {
        #expect(try Instance.decode(TwoTags.self, #"["a", "b"]"#).rawValue == ["a", "b"])
        #expect(Instance.violation(TwoTags.self, #"["a", "b", "c"]"#)?.keyword == "maxItems")
        #expect(!Instance.accepts(TwoTags.self, "[1]"))
        #expect(try Instance.decode(Tagged.self, #"{"tags": ["x"]}"#).tags == ["x"])
        #expect(Instance.violation(Tagged.self, #"{"tags": []}"#)?.keyword == "minItems")
    }

    /// Nullable items: each item is null or a value of the item's schema, checked.
    @Test func nullableArrayItems() throws {
        #expect(try Instance.decode(MaybeNames.self, #"["ab", null]"#).rawValue == [.string("ab"), .null])
        #expect(Instance.violation(MaybeNames.self, #"["a"]"#)?.keyword == "minLength")
        #expect(!Instance.accepts(MaybeNames.self, "[1]"))
    }

    /// `dependentSchemas`: with `card` present, `billing` is required; without, nothing is.
    @Test func dependentSchemasApplyWhenTheKeyIsPresent() throws {
        #expect(Instance.accepts(Payment.self, #"{"card": "4242", "billing": "Paris"}"#))
        #expect(Instance.accepts(Payment.self, "{}"))
        #expect(Instance.accepts(Payment.self, #"{"billing": "Paris"}"#))
        #expect(Instance.violation(Payment.self, #"{"card": "4242"}"#) != nil)
    }

    /// `contentEncoding`, `contentMediaType` and `contentSchema` are annotations, as 2020-12
    /// says by default: the string is kept as sent, base64 or not.
    @Test func contentKeywordsAreAnnotations() throws {
        #expect(try Instance.decode(Encoded.self, #""eyJhIjogMX0=""#) == "eyJhIjogMX0=")
        #expect(try Instance.decode(Encoded.self, #""not base64!""#) == "not base64!")
        #expect(!Instance.accepts(Encoded.self, "1"))
    }
}
