import ConformanceSDK
import Foundation
import Sesame
import Testing

/// Issue 30, part 3: a choice tells, from the value's keys, that a variant cannot match (a
/// required key absent, or the value not of the variant's shape) and skips it undecoded.
/// What each value decodes to, and the violation when none or two variants match, are the
/// same as when every variant is decoded.
@Suite struct ChoiceSkipConformanceTests {
    /// The violation, or the value, of `json` decoded as `Model`, as text.
    private static func outcome<Model: Decodable>(_ result: Result<Model, any Error>) -> String {
        switch result {
        case .success(let value): return "value \(value)"
        case .failure(let violation as SchemaViolation): return "violation \(violation)"
        case .failure(let error): return "error \(error)"
        }
    }

    /// The same outcome through a plain `JSONDecoder` and through the counting decoder.
    private static func failedAttempts<Model: Decodable>(_ model: Model.Type, _ json: String) -> Int {
        let (counted, failures) = CountingDecoder.decode(model, json)
        let plain = Result { try Instance.decode(model, json) }
        #expect(outcome(counted) == outcome(plain), "\(json)")
        return failures
    }

    /// The failed attempts a decode makes: each variant that does not match, decoded, threw
    /// a `DecodingError` (built with its context and coding path) that was thrown away.
    /// Without the skip, `{}` costs 3 (`MaybeNamed`'s missing `name`, the string, the array).
    @Test func aVariantThatCannotMatchIsNotDecoded() {
        #expect(Self.failedAttempts(SizedOrNamed.self, "{}") == 0)
        #expect(Self.failedAttempts(SizedOrNamed.self, #"{"name": null}"#) == 0)
        #expect(Self.failedAttempts(SizedOrNamed.self, #"{"size": 2, "name": "x"}"#) == 0)
        // Not an object: reading the keys fails once, and neither object variant is decoded
        // (3 without the skip: both objects and the array; 2 with it: the keys and the array).
        #expect(Self.failedAttempts(SizedOrNamed.self, #""a""#) == 2)
        #expect(Self.failedAttempts(SizedOrNamed.self, "[1, 2]") == 2)
        #expect(Self.failedAttempts(OneOfModels.self, #"{"city": "Paris"}"#) == 0)
        #expect(Self.failedAttempts(OneOfModels.self, #"{"id": "u1"}"#) == 0)
        // anyOf tries its first variant as it is; a union without its tag and an enum are
        // then skipped for an object.
        #expect(Self.failedAttempts(NumberShapeOrColor.self, #"{"radius": 1}"#) == 1)
        #expect(Self.failedAttempts(NumberShapeOrColor.self, "7") == 0)
    }

    @Test func eachValueDecodesToTheVariantItMatches() throws {
        #expect(try Instance.decode(SizedOrNamed.self, "{}") == .sized(Sized(size: 1)))
        #expect(try Instance.decode(SizedOrNamed.self, #"{"size": 2}"#) == .sized(Sized(size: 2)))
        #expect(try Instance.decode(SizedOrNamed.self, #"{"name": null}"#) == .maybeNamed(MaybeNamed(name: nil)))
        #expect(try Instance.decode(SizedOrNamed.self, #"{"size": 2, "name": "x"}"#) == .maybeNamed(MaybeNamed(name: "x")))
        #expect(try Instance.decode(SizedOrNamed.self, #""a""#) == .string("a"))
        #expect(try Instance.decode(SizedOrNamed.self, "[1, 2]") == .array([1, 2]))
        #expect(try Instance.decode(NumberShapeOrColor.self, "3") == .integer(3))
        #expect(try Instance.decode(NumberShapeOrColor.self, #"{"kind": "circle", "radius": 1}"#) == .shape(.circle(Circle(radius: 1))))
        #expect(try Instance.decode(NumberShapeOrColor.self, #""red""#) == .color(.red))
        #expect(try Instance.decode(PaletteOrName.self, #"{"main": "red"}"#) == .palette(Palette(main: .red)))
        for json in ["{}", #"{"name": null}"#, #""a""#, "[1, 2]", "3", #"{"name": 1}"#] {
            _ = Self.failedAttempts(SizedOrNamed.self, json)
        }
    }

    /// A value no variant matches, none getting further into it than the others: the violation
    /// names the choice's keyword and path, and says it matches none, whether the variants
    /// were skipped or decoded and failed.
    @Test func aValueMatchingNoVariantIsRefusedAsBefore() throws {
        let none4 = "$: oneOf: the value matches none of the 4 schemas"
        // `{"name": 1}`: `Sized` refuses the extra `name` as deep as `MaybeNamed` its type.
        for json in ["3", "true", "null", #"{"name": 1}"#] {
            #expect(Instance.violation(SizedOrNamed.self, json)?.description == none4, "\(json)")
            _ = Self.failedAttempts(SizedOrNamed.self, json)
        }
        let none3 = "$: anyOf: the value matches none of the 3 schemas"
        for json in [#"{"radius": 1}"#, #"{"kind": "square"}"#, #""blue""#, "[1]", "null"] {
            #expect(Instance.violation(NumberShapeOrColor.self, json)?.description == none3, "\(json)")
            _ = Self.failedAttempts(NumberShapeOrColor.self, json)
        }
        #expect(Instance.violation(OneOfModels.self, "{}")?.description == "$: oneOf: the value matches none of the 2 schemas")
        #expect(Instance.violation([SizedOrNamed].self, #"[{}, 3]"#)?.description == "$[1]: oneOf: the value matches none of the 4 schemas")
    }

    /// A value no variant matches, one of which got further into it than the others: the
    /// violation is that variant's, where it failed, and names the choice it belongs to.
    @Test func aValueMatchingNoVariantIsReportedWhereTheFurthestVariantFailed() throws {
        let deeper: [(json: String, description: String)] = [
            (#"{"size": "2"}"#, "$.size: type: expected an integer"),
            ("[true]", "$[0]: type: expected an integer"),
        ]
        for (json, description) in deeper {
            #expect(
                Instance.violation(SizedOrNamed.self, json)?.description
                    == "\(description) (so the value at $ matches none of the 4 schemas of its oneOf)", "\(json)")
            _ = Self.failedAttempts(SizedOrNamed.self, json)
        }
        #expect(
            Instance.violation([SizedOrNamed].self, #"[{}, {"size": "2"}]"#)?.description
                == "$[1].size: type: expected an integer (so the value at $[1] matches none of the 4 schemas of its oneOf)")
        // Two matches of a oneOf deep inside a member: said there, not at the outer oneOf.
        let registration = #"{"publicKey": {"user": {"id": "u1"}}}"#
        #expect(
            Instance.violation(Ceremony.self, registration)?.description
                == "$.publicKey.user.id: oneOf: the value matches 2 of the schemas; exactly one must match"
                + " (so the value at $ matches none of the 2 schemas of its oneOf)")
        #expect(Instance.violation(Ceremony.self, "{}")?.description == "$: oneOf: the value matches none of the 2 schemas")
    }

    /// A value two variants match, both decoded (their required keys are there): refused,
    /// with the count, as before.
    @Test func aValueMatchingTwoVariantsIsRefusedAsBefore() throws {
        let two = "$: oneOf: the value matches 2 of the schemas; exactly one must match"
        #expect(Instance.violation(OneOfModels.self, #"{"id": "u1", "city": "Paris"}"#)?.description == two)
        // `Palette` takes any object; the inline variant requires `name` in its check.
        #expect(Instance.violation(PaletteOrName.self, #"{"name": "x"}"#)?.description == two)
        #expect(Self.failedAttempts(OneOfModels.self, #"{"id": "u1", "city": "Paris"}"#) == 0)
        #expect(Self.failedAttempts(PaletteOrName.self, #"{"name": "x"}"#) == 0)
    }
}
