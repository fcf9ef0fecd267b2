import ConformanceSDK
import Foundation
import Sesame
import Testing

/// `unevaluatedItems`, and `unevaluatedProperties` beside `anyOf`/`oneOf` (issue 27, part D),
/// decoded through the generated fixture (Tests/Fixtures/Conformance/Schema/models.yaml).
@Suite struct UnevaluatedConformanceTests {
    /// With nothing else evaluating items, `unevaluatedItems` is the element type.
    @Test func unevaluatedItemsAloneIsTheItemType() throws {
        let strings: StringsOnly = try Instance.decode(StringsOnly.self, #"["a", "b"]"#)
        #expect(strings == ["a", "b"])
        #expect(!Instance.accepts(StringsOnly.self, #"["a", 1]"#))
    }

    /// The longest `prefixItems` of the schema and its `allOf` members is evaluated; `false`
    /// refuses any item after it, at that item.
    @Test func falseRefusesItemsAfterTheEvaluatedTuple() throws {
        #expect(try Instance.decode(ClosedPair.self, #"["a", 1]"#).rawValue == .array([.string("a"), .integer(1)]))
        let violation = Instance.violation(ClosedPair.self, #"["a", 1, true]"#)
        #expect(violation?.keyword == "items")
        #expect(violation?.path == "$[2]")
        #expect(Instance.violation(ClosedPair.self, #"["a", "b"]"#)?.keyword == "type")
        #expect(Instance.accepts(ClosedPair.self, "[]"))
    }

    /// `$ref` beside the keyword: the referenced model's tuple is evaluated too; the other
    /// items must match the schema. Encoding writes back what was decoded.
    @Test func aReferencedTupleIsEvaluated() throws {
        let value = try Instance.decode(PairAndFlags.self, #"["a", 1, true, false]"#)
        #expect(try Instance.encoded(value) == #"["a",1,true,false]"#)
        #expect(Instance.violation(PairAndFlags.self, #"["a", 1, "no"]"#)?.keyword == "type")
    }

    /// Items that match `contains` are evaluated (with `minContains: 0` too); the others must
    /// match the schema.
    @Test func itemsMatchingContainsAreEvaluated() {
        #expect(Instance.accepts(LabelsAndNumbers.self, #"["a", 1.5, "b", 2]"#))
        #expect(Instance.accepts(LabelsAndNumbers.self, "[]"))
        #expect(!Instance.accepts(LabelsAndNumbers.self, #"["a", true]"#))
    }

    /// `if`'s and `then`'s tuples count when `if` matches, and only then.
    @Test func theBranchThatMatchedIsEvaluated() {
        #expect(Instance.accepts(HeaderThenRows.self, #"["header", "csv", "rows"]"#))
        #expect(!Instance.accepts(HeaderThenRows.self, #"["header", "csv", "rows", "more"]"#))
        #expect(Instance.accepts(HeaderThenRows.self, #"["header"]"#))
        #expect(!Instance.accepts(HeaderThenRows.self, #"["header", "tsv"]"#))
    }

    /// `anyOf` alone stays a Swift enum (`Value`), wrapped in a struct that checks
    /// `unevaluatedItems` on the JSON with the branches that matched: `["a", "b"]` is all
    /// strings (evaluated by the first branch), `[1, 2]` only matches the second, which
    /// evaluates nothing, so each item must be an integer.
    @Test func aChoiceIsCheckedWithTheBranchesThatMatched() throws {
        #expect(try Instance.decode(TextsOrAnything.self, #"["a", "b", "c"]"#).rawValue == .array(["a", "b", "c"]))
        #expect(Instance.accepts(TextsOrAnything.self, "[1, 2]"))
        #expect(!Instance.accepts(TextsOrAnything.self, #"[1, "a"]"#))
    }

    /// `oneOf` of object models with `unevaluatedProperties: false`: the matched variant's
    /// properties are the evaluated keys, any other is refused; the enum is `rawValue`.
    @Test func unevaluatedPropertiesBesideOneOfSeesTheMatchedVariant() throws {
        let card = try Instance.decode(PaymentMethod.self, #"{"number": "4242"}"#)
        #expect(card.rawValue == .card(Card(number: "4242")))
        #expect(try Instance.encoded(card) == #"{"number":"4242"}"#)
        #expect(try Instance.decode(PaymentMethod.self, #"{"iban": "FR76"}"#).rawValue == .bank(Bank(iban: "FR76")))
        let extra = Instance.violation(PaymentMethod.self, #"{"iban": "FR76", "owner": "ada"}"#)
        #expect(extra?.keyword == "additionalProperties")
        #expect(extra?.path == "$.owner")
    }

    /// Beside `type: object` and `anyOf`, the keys of every branch that matched are evaluated;
    /// the struct keeps them (`additionalProperties`, as JSON values), so nothing is lost.
    @Test func unevaluatedPropertiesBesideAnyOfOnAStruct() throws {
        let transfer = try Instance.decode(Transfer.self, #"{"amount": 5, "number": "4242", "iban": "FR76"}"#)
        #expect(transfer.amount == 5)
        #expect(transfer.additionalProperties == ["number": .string("4242"), "iban": .string("FR76")])
        #expect(try Instance.encoded(transfer) == #"{"amount":5,"iban":"FR76","number":"4242"}"#)
        #expect(Instance.violation(Transfer.self, #"{"amount": 5, "number": "4242", "memo": "x"}"#)?.keyword == "additionalProperties")
        #expect(Instance.violation(Transfer.self, #"{"amount": 5}"#)?.keyword == "anyOf")
    }

    /// `$ref` beside `properties` applies too (it was dropped): `RequiredOnly` needs `a` and `b`.
    @Test func refBesidePropertiesIsChecked() throws {
        #expect(try Instance.decode(NamedPair.self, #"{"a": "x", "b": 1}"#).a == "x")
        #expect(Instance.violation(NamedPair.self, #"{"a": "x"}"#)?.keyword == "required")
    }
}
