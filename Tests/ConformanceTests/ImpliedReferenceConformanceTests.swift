import ConformanceSDK
import Foundation
import SesameTestSupport
import Testing

@testable @_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

/// A `$ref` inside an object model's check told by the presence of the referenced model's
/// required keys (issue 30, part 6: `ModelCoding.reference(_:inPlaceRequires:)`, emitted when
/// the model declares every property of the referenced one alike). Nothing is decoded for the
/// `$ref` there, and what the model accepts or refuses is what it was: the whole check on the
/// `JSONValue`, then the model's properties.
@Suite struct ImpliedReferenceConformanceTests {
    /// What `dependentSchemas: { updatedAt: { $ref: Stamped } }` compiles to, as `Edit` declares
    /// it, with the reference that decodes `Stamped` (what `Edit` passed before part 6).
    static let wholeCheck = SchemaCheck(
        ModelCheck(allOf: [
            ModelCheck(ifSchema: ModelCheck(types: [.object], required: ["updatedAt"]), thenSchema: ModelCheck(reference: "Stamped"))
        ]),
        references: ["Stamped": ModelCoding.reference(Stamped.self)])

    /// Objects made of every combination of absent, valid, invalid and null values of `Edit`'s
    /// properties (3,600), and values that are not objects.
    static let values: [String] = {
        let choices: [(String, [String?])] = [
            ("id", [nil, #""n1""#, "5"]),
            ("createdAt", [nil, #""2024-01-02T03:04:05Z""#, #""yesterday""#, "null"]),
            ("updatedAt", [nil, #""2024-02-03T04:05:06.5+01:00""#, #""2024-13-01T00:00:00Z""#, "null", "7"]),
            ("editor", [nil, #""ab""#, #""a""#, "null"]),
            ("revision", [nil, "null", "0", "2", #""x""#]),
            ("color", [nil, #""red""#, #""blue""#]),
        ]
        var objects: [[String]] = [[]]
        for (name, options) in choices {
            objects = objects.flatMap { members in options.map { $0.map { members + ["\"\(name)\": \($0)"] } ?? members } }
        }
        return objects.map { "{\($0.joined(separator: ", "))}" } + ["[]", #""x""#, "null", "1"]
    }()

    /// Accepted, a violation (path, keyword, message), or another error.
    static func outcome(_ decode: () throws -> Void) -> String {
        do {
            try decode()
            return "accepted"
        } catch let violation as SchemaViolation {
            return "\(violation.path) \(violation.keyword): \(violation.message)"
        } catch {
            return "not a violation"
        }
    }

    struct Compared: Sendable {
        var text: String
        var after: String
        var check: String
        var properties: String
    }

    @Test func everyValueIsAcceptedAndRefusedAsTheWholeCheckThenThePropertiesDo() async throws {
        let comparisons = try await onOwnThread {
            try Self.values.map { text in
                let data = Data(text.utf8)
                let value = try JSONDecoder().decode(JSONValue.self, from: data)
                return Compared(
                    text: text, after: Self.outcome { _ = try JSONDecoder().decode(Edit.self, from: data) },
                    check: Self.outcome { try Self.wholeCheck.validate(value, codingPath: []) },
                    properties: Self.outcome { _ = try JSONDecoder().decode(EditPlain.self, from: data) })
            }
        }
        for compared in comparisons {
            // Before part 6: the whole check first, then the properties.
            let before = compared.check != "accepted" ? compared.check : compared.properties
            #expect((compared.after == "accepted") == (before == "accepted"), "\(compared.text): \(compared.after), \(before)")
            if compared.properties == "accepted" {
                // Where the properties decode, the check decides, and names the same failure.
                #expect(compared.after == before, "\(compared.text)")
            }
        }
        // Every side is exercised: accepted, refused by the `$ref`'s required key alone, and
        // refused by a property value both the `$ref` and the model refuse.
        #expect(comparisons.filter { $0.after == "accepted" }.count > 40)
        #expect(comparisons.filter { $0.properties == "accepted" && $0.check != "accepted" }.count > 10)
        #expect(comparisons.filter { $0.properties != "accepted" && $0.check != "accepted" }.count > 100)
    }

    /// Refuses to decode, from any decoder.
    struct Undecodable: Decodable {
        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "never decodes"))
        }
    }

    /// What decoding `text` as a model whose check is `check` says (the model's properties are
    /// not decoded: only the check, as `checkedContainer` tells it).
    static func checkedOutcome(_ check: SchemaCheck, _ text: String) -> String {
        outcome {
            let decoder = JSONDecoder()
            decoder.userInfo = [InPlaceCheckConformanceTests.checkKey: check, InPlaceCheckConformanceTests.inPlaceKey: true]
            _ = try decoder.decode(InPlaceCheckConformanceTests.Probe.self, from: Data(text.utf8))
        }
    }

    @Test func theReferenceIsToldByPresenceWithoutDecodingTheModel() {
        let check = SchemaCheck(
            ModelCheck(allOf: [
                ModelCheck(ifSchema: ModelCheck(types: [.object], required: ["u"]), thenSchema: ModelCheck(reference: "M"))
            ]),
            references: ["M": ModelCoding.reference(Undecodable.self, inPlaceRequires: ["a", "b"])])
        #expect(check.inPlace == .whenMet)
        // The required keys present: met, and `Undecodable` never decoded.
        #expect(Self.checkedOutcome(check, #"{"u": 1, "a": 1, "b": null}"#) == "accepted")
        // One missing: the whole check decides, decoding the model from the JSONValue.
        #expect(Self.checkedOutcome(check, #"{"u": 1, "a": 1}"#) == "$ type: the value does not decode")
        // The `$ref` does not apply.
        #expect(Self.checkedOutcome(check, #"{"a": 1}"#) == "accepted")
        // On a JSONValue (anywhere but the model's own decoder) the model is decoded.
        #expect(!check.matches(.object(["u": .integer(1), "a": .integer(1), "b": .null])))
    }
}
