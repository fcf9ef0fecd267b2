import Foundation
import Sesame
import Testing

/// `SchemaCheck`, the runtime side of the keywords generated models check on their JSON:
/// JSON Schema's own rules where they are easy to get wrong.
@Suite struct SchemaCheckTests {
    private func violation(_ check: SchemaCheck, _ value: JSONValue) -> SchemaViolation? {
        do {
            try check.validate(value, codingPath: [AnyCodingKey("root")])
            return nil
        } catch let violation as SchemaViolation {
            return violation
        } catch {
            return nil
        }
    }

    @Test func integerTypeAcceptsIntegralNumbersOnly() {
        let integer = SchemaCheck(types: [.integer])
        #expect(integer.matches(.number(2.0)))
        #expect(integer.matches(.integer(-3)))
        #expect(!integer.matches(.number(2.5)))
        #expect(violation(integer, .string("2"))?.keyword == "type")
        #expect(SchemaCheck(types: [.number]).matches(.integer(1)))
    }

    @Test func schemaEqualityIsByValue() {
        #expect(JSONValue.integer(1).schemaEquals(.number(1.0)))
        #expect(!JSONValue.integer(1).schemaEquals(.string("1")))
        #expect(!JSONValue.bool(true).schemaEquals(.integer(1)))
        #expect(JSONValue.object(["a": .array([.integer(1)])]).schemaEquals(.object(["a": .array([.number(1)])])))
        #expect(!JSONValue.array([.integer(1), .integer(2)]).schemaEquals(.array([.integer(2), .integer(1)])))
    }

    @Test func keywordsApplyToTheirTypeOnly() {
        let check = SchemaCheck(multipleOf: 2, minLength: 3, uniqueItems: true, required: ["a"], minProperties: 2)
        for value: JSONValue in [
            .null, .bool(true), .integer(4), .string("abc"), .array([.integer(1)]), .object(["a": .null, "b": .null]),
        ] {
            #expect(check.matches(value), "\(value)")
        }
        #expect(violation(check, .integer(3))?.keyword == "multipleOf")
        #expect(violation(check, .object(["b": .null, "c": .null]))?.path == "$.root.a")
    }

    @Test func multipleOfWithAFraction() {
        let check = SchemaCheck(multipleOf: 0.1)
        #expect(check.matches(.number(0.5)))
        #expect(check.matches(.integer(3)))
        #expect(!check.matches(.number(0.05)))
    }

    /// Decimals as the JSON writes them: in binary floating point 0.3 / 0.1 is 2.9999999999999996
    /// and 19.99 / 0.01 is 1998.9999999999998, yet both are multiples.
    @Test(arguments: [(0.3, 0.1), (0.6, 0.1), (0.7, 0.1), (19.99, 0.01), (4.35, 0.05), (1e300, 0.5)])
    func multipleOfIsExactForDecimals(value: Double, step: Double) {
        #expect(SchemaCheck(multipleOf: step).matches(.number(value)))
    }

    @Test func multipleOfIsExactBeyondDoublePrecision() {
        let even = SchemaCheck(multipleOf: 2)
        #expect(!even.matches(.integer(9_007_199_254_740_993)))  // 2^53 + 1: as a Double it is even
        #expect(even.matches(.integer(9_007_199_254_740_994)))
        #expect(!SchemaCheck(multipleOf: 0.1).matches(.number(0.35000000000000003)))
    }

    @Test func neverMatchesNothingAndNamesAdditionalProperties() {
        #expect(!SchemaCheck.never.matches(.null))
        let closed = SchemaCheck(properties: ["a": SchemaCheck()], additionalProperties: .never)
        #expect(closed.matches(.object(["a": .integer(1)])))
        let extra = violation(closed, .object(["b": .integer(1)]))
        #expect(extra?.keyword == "additionalProperties")
        #expect(extra?.path == "$.root.b")
    }

    @Test func containsCountsAndDefaultMinimumOfOne() {
        let check = SchemaCheck(contains: SchemaCheck(constValue: .integer(1)))
        #expect(check.matches(.array([.integer(0), .number(1.0)])))
        #expect(violation(check, .array([]))?.keyword == "contains")
        let none = SchemaCheck(contains: SchemaCheck(constValue: .integer(1)), minContains: 0)
        #expect(none.matches(.array([])))
    }

    @Test func ifWithoutThenOrElseChecksNothing() {
        #expect(SchemaCheck(ifSchema: SchemaCheck(types: [.string])).matches(.integer(1)))
        let check = SchemaCheck(ifSchema: SchemaCheck(types: [.string]), elseSchema: SchemaCheck(minimum: 10))
        #expect(check.matches(.string("x")))
        #expect(violation(check, .integer(1))?.keyword == "minimum")
    }

    @Test func referencePrefixesThePathOfTheModelsViolation() {
        struct Short: Decodable {
            init(from decoder: any Decoder) throws {
                let text = try decoder.singleValueContainer().decode(String.self)
                try ModelCoding.length(text, min: nil, max: 2, codingPath: decoder.codingPath)
            }
        }
        let check = SchemaCheck(items: SchemaCheck(reference: ModelCoding.reference(Short.self)))
        let long = violation(check, .array([.string("ab"), .string("abc")]))
        #expect(long?.keyword == "maxLength")
        #expect(long?.path == "$.root[1]")
        #expect(violation(check, .array([.integer(1)]))?.keyword == "$ref")
    }

    @Test func formatsByName() {
        #expect(SchemaCheck(format: "ipv4").matches(.string("10.0.0.1")))
        #expect(!SchemaCheck(format: "ipv4").matches(.string("10.0.0.01")))
        #expect(!SchemaCheck(format: "date").matches(.string("2023-02-29")))
        #expect(SchemaCheck(format: "unknown-annotation").matches(.string("anything")))
    }
}
