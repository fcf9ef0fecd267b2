import Foundation
@_spi(Generated) import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// `SchemaCheck`, the runtime side of the keywords generated models check on their JSON:
/// JSON Schema's own rules where they are easy to get wrong. Each ``ModelCheck`` is compiled
/// into a `SchemaCheck` as generated code does (`matches` and `violation` below).
@Suite struct SchemaCheckTests {
    private func violation(_ check: ModelCheck, _ value: JSONValue) -> SchemaViolation? {
        violation(SchemaCheck(check), value)
    }

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

    /// Every JSON type decodes to its own case, numbers keeping their integer form when
    /// they have one (the order `JSONValue` tries the types in is tuned for speed).
    @Test func jsonValueDecodesEachTypeToItsCase() throws {
        let json = #"[null, true, false, "1", 1, -2.0, 1.5, 9007199254740993, 1e300, 10000000000000000000, {"a": [1]}, []]"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        #expect(
            value
                == .array([
                    .null, .bool(true), .bool(false), .string("1"), .integer(1), .integer(-2), .number(1.5),
                    .integer(9_007_199_254_740_993), .number(1e300), .number(1e19), .object(["a": .array([.integer(1)])]), .array([]),
                ]))
    }

    @Test func integerTypeAcceptsIntegralNumbersOnly() {
        let integer = ModelCheck(types: [.integer])
        #expect(integer.matches(.number(2.0)))
        #expect(integer.matches(.integer(-3)))
        #expect(!integer.matches(.number(2.5)))
        #expect(violation(integer, .string("2"))?.keyword == "type")
        #expect(ModelCheck(types: [.number]).matches(.integer(1)))
    }

    @Test func schemaEqualityIsByValue() {
        #expect(JSONValue.integer(1).schemaEquals(.number(1.0)))
        #expect(!JSONValue.integer(1).schemaEquals(.string("1")))
        #expect(!JSONValue.bool(true).schemaEquals(.integer(1)))
        #expect(JSONValue.object(["a": .array([.integer(1)])]).schemaEquals(.object(["a": .array([.number(1)])])))
        #expect(!JSONValue.array([.integer(1), .integer(2)]).schemaEquals(.array([.integer(2), .integer(1)])))
    }

    @Test func keywordsApplyToTheirTypeOnly() {
        let check = ModelCheck(multipleOf: 2, minLength: 3, uniqueItems: true, required: ["a"], minProperties: 2)
        for value: JSONValue in [
            .null, .bool(true), .integer(4), .string("abc"), .array([.integer(1)]), .object(["a": .null, "b": .null]),
        ] {
            #expect(check.matches(value), "\(value)")
        }
        #expect(violation(check, .integer(3))?.keyword == "multipleOf")
        #expect(violation(check, .object(["b": .null, "c": .null]))?.path == "$.root.a")
    }

    @Test func multipleOfWithAFraction() {
        let check = ModelCheck(multipleOf: 0.1)
        #expect(check.matches(.number(0.5)))
        #expect(check.matches(.integer(3)))
        #expect(!check.matches(.number(0.05)))
    }

    /// Decimals as the JSON writes them: in binary floating point 0.3 / 0.1 is 2.9999999999999996
    /// and 19.99 / 0.01 is 1998.9999999999998, yet both are multiples.
    @Test(arguments: [(0.3, 0.1), (0.6, 0.1), (0.7, 0.1), (19.99, 0.01), (4.35, 0.05), (1e300, 0.5)])
    func multipleOfIsExactForDecimals(value: Double, step: Double) {
        #expect(ModelCheck(multipleOf: step).matches(.number(value)))
    }

    @Test func multipleOfIsExactBeyondDoublePrecision() {
        let even = ModelCheck(multipleOf: 2)
        #expect(!even.matches(.integer(9_007_199_254_740_993)))  // 2^53 + 1: as a Double it is even
        #expect(even.matches(.integer(9_007_199_254_740_994)))
        #expect(!ModelCheck(multipleOf: 0.1).matches(.number(0.35000000000000003)))
    }

    @Test func neverMatchesNothingAndNamesAdditionalProperties() {
        #expect(!SchemaCheck.never.matches(.null))
        let closed = ModelCheck(properties: ["a": ModelCheck()], additionalProperties: .never)
        #expect(closed.matches(.object(["a": .integer(1)])))
        let extra = violation(closed, .object(["b": .integer(1)]))
        #expect(extra?.keyword == "additionalProperties")
        #expect(extra?.path == "$.root.b")
    }

    @Test func containsCountsAndDefaultMinimumOfOne() {
        let check = ModelCheck(contains: ModelCheck(constValue: .integer(1)))
        #expect(check.matches(.array([.integer(0), .number(1.0)])))
        #expect(violation(check, .array([]))?.keyword == "contains")
        let none = ModelCheck(contains: ModelCheck(constValue: .integer(1)), minContains: 0)
        #expect(none.matches(.array([])))
    }

    @Test func ifWithoutThenOrElseChecksNothing() {
        #expect(ModelCheck(ifSchema: ModelCheck(types: [.string])).matches(.integer(1)))
        let check = ModelCheck(ifSchema: ModelCheck(types: [.string]), elseSchema: ModelCheck(minimum: 10))
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
        let check = SchemaCheck(
            ModelCheck(items: ModelCheck(reference: "short")), references: ["short": ModelCoding.reference(Short.self)])
        let long = violation(check, .array([.string("ab"), .string("abc")]))
        #expect(long?.keyword == "maxLength")
        #expect(long?.path == "$.root[1]")
        // A value the model cannot decode at all fails on the keyword it breaks there, not on `$ref`.
        let wrongType = violation(check, .array([.string("a"), .integer(1)]))
        #expect(wrongType?.keyword == "type")
        #expect(wrongType?.path == "$.root[1]")
    }

    @Test func referenceNamesAMissingPropertyInsideTheModel() {
        struct Named: Decodable {
            var name: String
        }
        let check = SchemaCheck(
            ModelCheck(properties: ["owner": ModelCheck(reference: "named")]), references: ["named": ModelCoding.reference(Named.self)])
        #expect(violation(check, .object(["owner": .object(["name": .string("Ada")])])) == nil)
        let missing = violation(check, .object(["owner": .object([:])]))
        #expect(missing?.keyword == "required")
        #expect(missing?.path == "$.root.owner.name")
    }

    /// `uniqueItems` finds a repeat by hashing each item as JSON Schema compares values:
    /// numbers by value, objects whatever their key order, arrays item by item.
    @Test(arguments: [
        (JSONValue.integer(2), JSONValue.number(2.0)),
        (.object(["a": .integer(1), "b": .array([.number(1.0)])]), .object(["b": .array([.integer(1)]), "a": .number(1)])),
        (.array([.null, .bool(true)]), .array([.null, .bool(true)])),
        (.number(-0.0), .integer(0)),
    ])
    func uniqueItemsFindsEqualValues(first: JSONValue, second: JSONValue) {
        let check = ModelCheck(uniqueItems: true)
        let repeated = violation(check, .array([first, .string("x"), second]))
        #expect(repeated?.keyword == "uniqueItems")
        #expect(repeated?.path == "$.root[2]")
        #expect(repeated?.message == "the item equals the item at 0")
    }

    @Test func uniqueItemsTellsApartWhatJSONSchemaTellsApart() {
        let check = ModelCheck(uniqueItems: true)
        #expect(check.matches(.array([.integer(1), .string("1"), .bool(true), .array([.integer(1)]), .object(["1": .integer(1)])])))
        #expect(check.matches(.array([.integer(9_007_199_254_740_993), .integer(9_007_199_254_740_992)])))
        #expect(check.matches(.array([.array([.integer(1), .integer(2)]), .array([.integer(2), .integer(1)])])))
        #expect(check.matches(.array([.object(["a": .integer(1)]), .object(["b": .integer(1)])])))
        // Many distinct items, then one repeat far from its first: found at its index.
        var items = (0..<50_000).map { JSONValue.integer($0) }
        #expect(check.matches(.array(items)))
        items.append(.number(12_345.0))
        #expect(violation(check, .array(items))?.path == "$.root[50000]")
    }

    /// `minLength`/`maxLength` count code points (Unicode scalars), as JSON Schema does,
    /// not the characters (grapheme clusters) a Swift `String` counts.
    @Test func lengthsAreCountedInCodePoints() {
        let atMostOne = ModelCheck(maxLength: 1)
        #expect(atMostOne.matches(.string("\u{E9}")))  // é, one code point
        #expect(violation(atMostOne, .string("e\u{301}"))?.message == "expected at most 1 characters, found 2")
        let atLeastTwo = ModelCheck(minLength: 2)
        #expect(atLeastTwo.matches(.string("🇫🇷")))  // two regional indicators
        #expect(atLeastTwo.matches(.string("e\u{301}")))
        #expect(violation(atLeastTwo, .string("\u{E9}"))?.keyword == "minLength")
        // The check generated properties call.
        #expect(throws: SchemaViolation.self) { try ModelCoding.length("🇫🇷", min: nil, max: 1, codingPath: []) }
        #expect(throws: Never.self) { try ModelCoding.length("🇫🇷", min: 2, max: 2, codingPath: []) }
    }

    /// JSON Schema compares strings code point by code point: `é` (U+00E9) and `e` followed
    /// by U+0301 are different strings, though Swift's `==` equates them.
    @Test func stringsAreEqualByCodePoints() {
        let composed = JSONValue.string("\u{E9}")
        let decomposed = JSONValue.string("e\u{301}")
        #expect(!composed.schemaEquals(decomposed))
        #expect(composed.schemaEquals(.string("\u{E9}")))
        #expect(ModelCheck(uniqueItems: true).matches(.array([composed, decomposed])))
        #expect(!ModelCheck(uniqueItems: true).matches(.array([decomposed, .string("x"), decomposed])))
        #expect(violation(ModelCheck(constValue: composed), decomposed)?.keyword == "const")
        #expect(violation(ModelCheck(enumValues: [composed]), decomposed)?.keyword == "enum")
        // The `const` check generated string properties call.
        #expect(throws: SchemaViolation.self) { try ModelCoding.constant("e\u{301}", "\u{E9}", codingPath: []) }
        #expect(throws: Never.self) { try ModelCoding.constant("\u{E9}", "\u{E9}", codingPath: []) }
    }

    /// `pattern` reads as ECMA-262 reads it: `\d` and `\w` are ASCII, `.` is one code point.
    @Test func patternHasECMAScriptSemantics() {
        func matches(_ pattern: String, _ text: String) -> Bool { ModelCheck(pattern: pattern).matches(.string(text)) }
        #expect(matches(#"^\d$"#, "3"))
        #expect(!matches(#"^\d$"#, "٣"))  // ARABIC-INDIC DIGIT THREE
        #expect(!matches(#"^\d$"#, "３"))  // FULLWIDTH DIGIT THREE
        #expect(matches(#"^\w+$"#, "a_Z9"))
        #expect(!matches(#"^\w$"#, "é"))
        #expect(!matches(#"^\w$"#, "ß"))
        #expect(matches(#"^.$"#, "\u{E9}"))  // é, one code point
        #expect(!matches(#"^.$"#, "e\u{301}"))  // e and a combining acute accent: two
        #expect(matches(#"^..$"#, "e\u{301}"))
        #expect(matches(#"\bword\b"#, "a word."))
        #expect(matches(#"\bword\b"#, "éwordé"))  // é is no word character: boundaries on both sides
        #expect(!matches("^abc$", "abc\n"))
        #expect(matches("b", "abc"))  // not anchored
    }

    /// The same rules in the `pattern` check generated properties call, and in
    /// `patternProperties`.
    @Test func propertyPatternsHaveECMAScriptSemantics() {
        #expect(throws: SchemaViolation.self) { try ModelCoding.pattern("٣", #"^\d$"#, codingPath: []) }
        #expect(throws: Never.self) { try ModelCoding.pattern("3", #"^\d$"#, codingPath: []) }
        let check = ModelCheck(patternProperties: [#"^\d+$"#: ModelCheck(types: [.integer])], additionalProperties: .never)
        #expect(check.matches(.object(["12": .integer(1)])))
        let arabic = violation(check, .object(["١٢": .integer(1)]))
        #expect(arabic?.keyword == "additionalProperties")
    }

    @Test func formatsByName() {
        #expect(ModelCheck(format: "ipv4").matches(.string("10.0.0.1")))
        #expect(!ModelCheck(format: "ipv4").matches(.string("10.0.0.01")))
        #expect(!ModelCheck(format: "date").matches(.string("2023-02-29")))
        #expect(ModelCheck(format: "unknown-annotation").matches(.string("anything")))
    }

    /// A `$ref` names a model; the references the check is compiled with say what it checks.
    /// A name they leave out fails every value at `$ref` rather than passing it.
    @Test func aReferenceTheCheckWasNotGivenFailsAtRef() {
        let check = SchemaCheck(ModelCheck(properties: ["owner": ModelCheck(reference: "named")]))
        let unknown = violation(check, .object(["owner": .object([:])]))
        #expect(unknown?.keyword == "$ref")
        #expect(unknown?.path == "$.root.owner")
        #expect(check.matches(.object([:])))
    }

    /// The check is plain data: it lists the models its `$ref`s name, at any depth, and
    /// survives a round trip through JSON unchanged (the generator's IR embeds it).
    @Test func aModelCheckIsPlainData() throws {
        let check = ModelCheck(
            items: ModelCheck(reference: "a"), properties: ["p": ModelCheck(not: ModelCheck(reference: "b"))],
            anyOf: [ModelCheck(ifSchema: .never, thenSchema: ModelCheck(reference: "a"))], reference: "c")
        #expect(check.references == ["a", "b", "c"])
        #expect(ModelCheck.never.isNever)
        #expect(!ModelCheck(not: ModelCheck(reference: "a")).isNever)
        #expect(ModelCheck().isEmpty)
        let decoded = try JSONDecoder().decode(ModelCheck.self, from: JSONEncoder().encode(check))
        #expect(decoded == check)
        #expect(decoded.properties["p"]?.not?.reference == "b")
    }

    /// A value no member of a `oneOf` or `anyOf` takes is reported where the one member that
    /// got furthest into it failed; when none got further than the others, or two got
    /// equally far, at the choice. A missing property is a failure of its object.
    @Test func aChoiceNoMemberTakesIsReportedWhereTheFurthestMemberFailed() {
        let handle = ModelCheck(oneOf: [ModelCheck(types: [.string]), ModelCheck(types: [.string], maxLength: 64)])
        let user = ModelCheck(types: [.object], properties: ["id": handle], required: ["id"])
        let registration = ModelCheck(
            types: [.object], properties: ["publicKey": ModelCheck(types: [.object], properties: ["user": user])],
            required: ["publicKey"])
        let ceremony = ModelCheck(oneOf: [registration, ModelCheck(types: [.string])])
        let value: JSONValue = .object(["publicKey": .object(["user": .object(["id": .string("u1")])])])
        #expect(
            violation(ceremony, value)?.description
                == "$.root.publicKey.user.id: oneOf: the value matches 2 of the schemas; exactly one must match"
                + " (so the value at $.root matches none of the 2 schemas of its oneOf)")
        let either = ModelCheck(anyOf: [registration, ModelCheck(types: [.string])])
        #expect(violation(either, value)?.path == "$.root.publicKey.user.id")
        #expect(violation(either, value)?.keyword == "oneOf")
        // Both members fail at the value itself: the choice says it.
        #expect(violation(ceremony, .integer(1))?.description == "$.root: oneOf: the value matches none of the 2 schemas")
        // The registration only finds `publicKey` missing: no further than the string did.
        #expect(violation(ceremony, .object([:]))?.description == "$.root: oneOf: the value matches none of the 2 schemas")
        // Two members fail equally deep at different places: the choice says it.
        let twoDeep = ModelCheck(oneOf: [
            ModelCheck(properties: ["a": ModelCheck(types: [.string])]), ModelCheck(properties: ["b": ModelCheck(types: [.string])]),
        ])
        #expect(
            violation(twoDeep, .object(["a": .integer(1), "b": .integer(2)]))?.description
                == "$.root: oneOf: the value matches none of the 2 schemas")
        // Two values matching stays at the choice.
        #expect(
            violation(handle, .string("u"))?.description == "$.root: oneOf: the value matches 2 of the schemas; exactly one must match")
    }
}

extension ModelCheck {
    /// Whether `value` matches the check, compiled as generated code compiles it.
    fileprivate func matches(_ value: JSONValue) -> Bool { SchemaCheck(self).matches(value) }
}
