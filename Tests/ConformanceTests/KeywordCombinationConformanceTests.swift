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
}
