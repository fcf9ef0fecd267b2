import ConformanceSDK
import Foundation
import Sesame
import Testing

/// Valid and invalid instances for each keyword of the conformance fixture
/// (Tests/Fixtures/Conformance/Schema/models.yaml); every refusal names its path and keyword.
@Suite struct KeywordConformanceTests {
    @Test func commentIsIgnoredAndIntegralCountsApply() {
        #expect(Instance.accepts(Commented.self, #""abc""#))
        #expect(Instance.violation(Commented.self, #""a""#)?.keyword == "minLength")
        #expect(Instance.violation(Commented.self, #""abcde""#)?.keyword == "maxLength")
    }

    @Test func requiredNamesWithoutPropertySchemaMustBePresent() {
        #expect(Instance.accepts(RequiredNames.self, #"{"id": "1", "extra": [true]}"#))
        #expect(Instance.accepts(RequiredNames.self, #"{"id": "1", "extra": null}"#))
        let missing = Instance.violation(RequiredNames.self, #"{"id": "1"}"#)
        #expect(missing?.keyword == "required")
        #expect(missing?.path == "$.extra")
    }

    @Test func anyOfTakesTheFirstSchemaThatMatches() throws {
        #expect(try Instance.decode(AnyOfValue.self, #""abc""#) == .option1(AnyOfValue.Option1(rawValue: "abc")))
        #expect(try Instance.decode(AnyOfValue.self, "7") == .integer(7))
        #expect(Instance.violation(AnyOfValue.self, #""abcd""#)?.keyword == "anyOf")
        #expect(Instance.violation(AnyOfValue.self, "true")?.keyword == "anyOf")
        #expect(try Instance.encoded(AnyOfValue.integer(7)) == "7")
    }

    @Test func oneOfWithoutDiscriminatorNeedsExactlyOneMatch() throws {
        #expect(try Instance.decode(OneOfValue.self, "4") == .option1(OneOfValue.Option1(rawValue: 4)))
        #expect(try Instance.decode(OneOfValue.self, "9") == .option2(OneOfValue.Option2(rawValue: 9)))
        let both = Instance.violation(OneOfValue.self, "6")
        #expect(both?.keyword == "oneOf")
        #expect(both?.message.contains("2 of the schemas") == true)
        let none = Instance.violation(OneOfValue.self, "7")
        #expect(none?.keyword == "oneOf")
        #expect(none?.message.contains("none") == true)
    }

    /// The variants differ only by their format, which a runtime parser checks: each value
    /// matches exactly one, and a value neither parser accepts matches none.
    @Test func variantsToldApartByTheirFormat() throws {
        #expect(Instance.accepts(IPAddress.self, #""10.0.0.1""#))
        #expect(Instance.accepts(IPAddress.self, #""::1""#))
        #expect(Instance.violation(IPAddress.self, #""example.com""#)?.keyword == "oneOf")
        #expect(Instance.accepts(Contact.self, #""ada@example.com""#))
        #expect(Instance.accepts(Contact.self, "7"))
        #expect(Instance.violation(Contact.self, #""x""#)?.keyword == "anyOf")
    }

    @Test func oneOfOfModelsRefusesAValueBothDecode() throws {
        #expect(try Instance.decode(OneOfModels.self, #"{"city": "Paris"}"#) == .address(Address(city: "Paris")))
        #expect(try Instance.decode(OneOfModels.self, #"{"id": "u1"}"#) == .me(Me(id: "u1")))
        #expect(Instance.violation(OneOfModels.self, #"{"id": "u1", "city": "Paris"}"#)?.keyword == "oneOf")
        #expect(Instance.violation(OneOfModels.self, "{}")?.keyword == "oneOf")
    }

    @Test func oneOfThatHoldsItselfDecodesAndEncodes() throws {
        let tree = try Instance.decode(Tree.self, #"{"left": 1, "right": {"left": 2}}"#)
        #expect(tree == .branch(Branch(left: .integer(1), right: .branch(Branch(left: .integer(2))))))
        #expect(try Instance.decode(Tree.self, "3") == .integer(3))
        #expect(Instance.violation(Tree.self, #""a""#)?.keyword == "oneOf")
        #expect(try Instance.encoded(Tree.branch(Branch(left: .integer(1)))) == #"{"left":1}"#)
    }

    @Test func anyOfAndOneOfBesideATypeOnlyCheck() throws {
        #expect(try Instance.decode(OneOfTwoKeys.self, #"{"phone": "1"}"#).phone == "1")
        #expect(Instance.accepts(OneOfTwoKeys.self, #"{"email": "a", "phone": "1"}"#))
        #expect(Instance.violation(OneOfTwoKeys.self, "{}")?.keyword == "anyOf")
        #expect(try Instance.decode(ShortOrX.self, #""ab""#).rawValue == "ab")
        #expect(Instance.accepts(ShortOrX.self, #""xyz""#))
        #expect(Instance.violation(ShortOrX.self, #""xy""#)?.keyword == "oneOf")
        #expect(Instance.violation(ShortOrX.self, #""abc""#)?.keyword == "oneOf")
    }

    @Test func typeListIsAnEnumOfTheTypes() throws {
        #expect(try Instance.decode(TypeList.self, #""a""#) == .string("a"))
        #expect(try Instance.decode(TypeList.self, "3") == .integer(3))
        #expect(try Instance.decode(TypeList.self, "null") == .null)
        #expect(Instance.violation(TypeList.self, "1.5")?.keyword == "type")
        #expect(Instance.violation(TypeList.self, "[]")?.keyword == "type")
        #expect(try Instance.encoded(TypeList.null) == "null")
    }

    @Test func multipleOf() {
        #expect(Instance.accepts(MultipleOf.self, "2.5"))
        #expect(Instance.accepts(MultipleOf.self, "-3"))
        #expect(Instance.violation(MultipleOf.self, "2.25")?.keyword == "multipleOf")
    }

    @Test func uniqueItemsComparesAsJSONSchemaDoes() {
        #expect(Instance.accepts(UniqueItems.self, #"[1, "1", [1], {"a": 1}, {"a": 2}]"#))
        let duplicate = Instance.violation(UniqueItems.self, "[1, 2, 1.0]")
        #expect(duplicate?.keyword == "uniqueItems")
        #expect(duplicate?.path == "$[2]")
        #expect(Instance.violation(UniqueItems.self, #"[{"a": 1, "b": 2}, {"b": 2, "a": 1}]"#)?.keyword == "uniqueItems")
    }

    @Test func propertyCountsDependenciesAndNames() {
        #expect(Instance.accepts(PropertyCounts.self, #"{"card": "x", "billing": "y"}"#))
        #expect(Instance.violation(PropertyCounts.self, "{}")?.keyword == "minProperties")
        #expect(Instance.violation(PropertyCounts.self, #"{"a": 1, "b": 2, "c": 3, "d": 4}"#)?.keyword == "maxProperties")
        let dependent = Instance.violation(PropertyCounts.self, #"{"card": "x"}"#)
        #expect(dependent?.keyword == "dependentRequired")
        #expect(dependent?.path == "$.billing")
        let name = Instance.violation(PropertyCounts.self, #"{"Card": "x"}"#)
        #expect(name?.keyword == "propertyNames")
        #expect(name?.path == "$.Card")
    }

    @Test func patternPropertiesBesideAdditionalPropertiesFalse() {
        #expect(Instance.accepts(Patterns.self, #"{"id": 1, "x-trace": "t"}"#))
        let typed = Instance.violation(Patterns.self, #"{"x-trace": 3}"#)
        #expect(typed?.keyword == "type")
        #expect(typed?.path == #"$["x-trace"]"#)
        let undeclared = Instance.violation(Patterns.self, #"{"other": 1}"#)
        #expect(undeclared?.keyword == "additionalProperties")
        #expect(undeclared?.path == "$.other")
    }

    @Test func prefixItemsTypeATuple() throws {
        #expect(
            try Instance.decode(Tuple.self, #"["a", 1, true, false]"#).rawValue == [.string("a"), .integer(1), .bool(true), .bool(false)])
        #expect(Instance.accepts(Tuple.self, #"["a"]"#))
        let second = Instance.violation(Tuple.self, #"["a", "b"]"#)
        #expect(second?.keyword == "type")
        #expect(second?.path == "$[1]")
        #expect(Instance.violation(Tuple.self, #"["a", 1, 2]"#)?.path == "$[2]")
    }

    @Test func itemsFalseAfterPrefixItemsAllowsNoMore() {
        #expect(Instance.accepts(Pair.self, #"["a", 1]"#))
        let third = Instance.violation(Pair.self, #"["a", 1, null]"#)
        #expect(third?.keyword == "items")
        #expect(third?.path == "$[2]")
    }

    @Test func containsWithMinimumAndMaximumCounts() {
        #expect(Instance.accepts(Contains.self, "[10, 11, 1]"))
        #expect(Instance.violation(Contains.self, "[10, 1]")?.keyword == "minContains")
        #expect(Instance.violation(Contains.self, "[10, 11, 12, 13]")?.keyword == "maxContains")
    }

    @Test func not() {
        #expect(Instance.accepts(Forbidden.self, #""alice""#))
        #expect(Instance.violation(Forbidden.self, #""root""#)?.keyword == "not")
    }

    @Test func ifThenElse() {
        #expect(Instance.accepts(Conditional.self, #"{"country": "FR", "postcode": "75001"}"#))
        #expect(Instance.violation(Conditional.self, #"{"country": "FR", "postcode": "SW1A"}"#)?.keyword == "pattern")
        #expect(Instance.accepts(Conditional.self, #"{"country": "GB", "postcode": "SW1A"}"#))
        let empty = Instance.violation(Conditional.self, #"{"country": "GB", "postcode": ""}"#)
        #expect(empty?.keyword == "minLength")
        #expect(empty?.path == "$.postcode")
    }

    @Test func keywordsOnPropertiesAndItems() throws {
        let value = try Instance.decode(Nested.self, #"{"tags": ["a", "b"], "step": 10, "either": {"id": "u"}}"#)
        #expect(value.tags == ["a", "b"])
        #expect(value.either == .me(Me(id: "u")))
        #expect(value.defaulted == "ok")
        let emptyTag = Instance.violation(Nested.self, #"{"tags": ["a", ""]}"#)
        #expect(emptyTag?.keyword == "not")
        #expect(emptyTag?.path == "$.tags[1]")
        #expect(Instance.violation(Nested.self, #"{"tags": ["a", "a"]}"#)?.path == "$.tags[1]")
        let step = Instance.violation(Nested.self, #"{"step": 7}"#)
        #expect(step?.keyword == "multipleOf")
        #expect(step?.path == "$.step")
        #expect(try Instance.decode(Nested.self, #"{"either": true}"#).either == .boolean(true))
    }

    /// `pattern` as ECMA-262 reads it, in the generated models: ASCII `\d` and `\w`, and
    /// `.` for one code point, not one character.
    @Test func patternsReadAsECMAScriptReadsThem() {
        #expect(Instance.accepts(Digit.self, #""7""#))
        let arabic = Instance.violation(Digit.self, #""٣""#)
        #expect(arabic?.keyword == "pattern")
        #expect(arabic?.path == "$")
        #expect(Instance.accepts(Word.self, #""snake_case9""#))
        #expect(Instance.violation(Word.self, #""café""#)?.keyword == "pattern")
        #expect(Instance.accepts(OneCodePoint.self, #""\u00e9""#))
        #expect(Instance.violation(OneCodePoint.self, #""e\u0301""#)?.keyword == "pattern")
    }
}
