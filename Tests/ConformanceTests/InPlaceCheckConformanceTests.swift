import ConformanceSDK
import Foundation
import SesameTestSupport
import Testing

@testable @_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

/// A check of an object model told on the model's own decoder (issue 30, part 5): a `$ref`
/// under the check itself, `allOf`, `then` or `else` decodes the referenced model from the
/// decoder in hand, and `if`, `not`, `required` are answered by the model's container, with no
/// `JSONValue` of the object. What is accepted or refused, and the violation, are what the
/// whole check on the `JSONValue` gives.
@Suite struct InPlaceCheckConformanceTests {
    static let checkKey = CodingUserInfoKey(rawValue: "sesame.check")!
    static let inPlaceKey = CodingUserInfoKey(rawValue: "sesame.inPlace")!

    /// An object model whose check is in the decoder's `userInfo`: decoded as generated
    /// models are (`checkedContainer`), or, with `inPlace` false, as before part 5 (the whole
    /// check on the `JSONValue`, then the container).
    struct Probe: Decodable {
        init(from decoder: any Decoder) throws {
            let check = decoder.userInfo[InPlaceCheckConformanceTests.checkKey] as! SchemaCheck
            if decoder.userInfo[InPlaceCheckConformanceTests.inPlaceKey] as? Bool == true {
                _ = try ModelCoding.checkedContainer(decoder, check, declared: [])
            } else {
                try ModelCoding.check(decoder, check)
                _ = try decoder.container(keyedBy: PropertyKey.self)
            }
        }
    }

    /// Refuses to decode from a `JSONValue`: decodes only from the model's own decoder.
    struct NotFromTheTree: Decodable {
        init(from decoder: any Decoder) throws {
            if decoder is JSONValueDecoder {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decoded from a JSONValue"))
            }
            _ = try decoder.container(keyedBy: AnyCodingKey.self)
        }
    }

    /// What decoding `[value]` as `[Probe]` with `check` says: accepted, or the violation.
    static func outcome(_ check: SchemaCheck, _ text: String, inPlace: Bool) -> String {
        let decoder = JSONDecoder()
        decoder.userInfo = [checkKey: check, inPlaceKey: inPlace]
        do {
            _ = try decoder.decode([Probe].self, from: Data("[\(text)]".utf8))
            return "accepted"
        } catch let violation as SchemaViolation {
            return "\(violation.path) \(violation.keyword): \(violation.message)"
        } catch {
            return "not a violation: \(error)"
        }
    }

    /// The checks compared, each with a `$ref` to "M": in place (in `allOf`, `then`, `else`,
    /// with `required`, `not`, `type`, `dependentRequired`) and not (under `if` or `not`,
    /// beside `minProperties`).
    static let checks: [ModelCheck] = {
        let reference = ModelCheck(reference: "M")
        var checks = [reference, ModelCheck(allOf: [reference])]
        for name in ["a", "city", "main", "kind", "size"] {
            // What `dependentSchemas: { name: { $ref: M } }` compiles to.
            checks.append(
                ModelCheck(allOf: [ModelCheck(ifSchema: ModelCheck(types: [.object], required: [name]), thenSchema: reference)]))
            checks.append(ModelCheck(ifSchema: ModelCheck(required: [name]), elseSchema: reference))
        }
        checks += [
            ModelCheck(required: ["b"], allOf: [reference], not: ModelCheck(required: ["c"])),
            ModelCheck(allOf: [reference], not: ModelCheck(required: ["size"])),
            ModelCheck(types: [.string], reference: "M"),
            ModelCheck(types: [.object, .null], dependentRequired: ["a": ["b"]], reference: "M"),
            ModelCheck(allOf: [ModelCheck(not: ModelCheck(types: [.array])), reference]),
            ModelCheck(ifSchema: reference, thenSchema: ModelCheck(required: ["x"])),
            ModelCheck(not: reference),
            ModelCheck(minProperties: 2, allOf: [reference]),
        ]
        return checks
    }()

    /// Object models of the conformance fixture, some with checks of their own.
    static let models: [(String, SchemaCheck.Reference)] = [
        ("Parcel", ModelCoding.reference(Parcel.self)), ("Shape", ModelCoding.reference(Shape.self)),
        ("Circle", ModelCoding.reference(Circle.self)), ("Palette", ModelCoding.reference(Palette.self)),
        ("PaletteChecked", ModelCoding.reference(PaletteChecked.self)), ("Contact", ModelCoding.reference(Contact.self)),
        ("Sized", ModelCoding.reference(Sized.self)), ("MaybeNamed", ModelCoding.reference(MaybeNamed.self)),
        ("Extended", ModelCoding.reference(Extended.self)), ("Counted", ModelCoding.reference(Counted.self)),
        ("Conditional", ModelCoding.reference(Conditional.self)), ("Nested", ModelCoding.reference(Nested.self)),
        ("PropertyCounts", ModelCoding.reference(PropertyCounts.self)), ("Forbidden", ModelCoding.reference(Forbidden.self)),
        ("Tree", ModelCoding.reference(Tree.self)), ("Optionals", ModelCoding.reference(Optionals.self)),
    ]

    struct Compared: Sendable {
        var what: String
        var inPlace: String
        var before: String
        var toldInPlace: Bool
    }

    @Test func everyValueIsAcceptedAndRefusedAsTheWholeCheckDoes() async throws {
        // About 30,000 decodes: on a thread of its own, off the cooperative pool.
        let comparisons = try await onOwnThread {
            Self.models.flatMap { name, reference in
                Self.checks.enumerated().flatMap { index, check in
                    let compiled = SchemaCheck(check, references: ["M": reference])
                    return ReferenceDecodingConformanceTests.values.map { text in
                        Compared(
                            what: "\(name), check \(index), \(text)",
                            inPlace: Self.outcome(compiled, text, inPlace: true),
                            before: Self.outcome(compiled, text, inPlace: false), toldInPlace: compiled.inPlace != nil)
                    }
                }
            }
        }
        for compared in comparisons {
            #expect(compared.inPlace == compared.before, "\(compared.what)")
        }
        // Both outcomes are exercised where the check is told in place.
        let toldInPlace = comparisons.filter(\.toldInPlace)
        #expect(toldInPlace.filter { $0.before == "accepted" }.count > 300)
        #expect(toldInPlace.filter { $0.before != "accepted" }.count > 300)
    }

    @Test func aReferenceToTheModelsOwnValueDecodesFromTheModelsDecoder() throws {
        // dependentSchemas: { updatedAt: { $ref: M } }, as the benchmark's notes declare.
        let check = SchemaCheck(
            ModelCheck(
                allOf: [
                    ModelCheck(ifSchema: ModelCheck(types: [.object], required: ["updatedAt"]), thenSchema: ModelCheck(reference: "M"))
                ]),
            references: ["M": ModelCoding.reference(NotFromTheTree.self)])
        #expect(check.inPlace == .whenMet)
        // Decoded from the JSON decoder, never from a JSONValue of the note.
        #expect(Self.outcome(check, #"{"updatedAt": "x"}"#, inPlace: true) == "accepted")
        #expect(Self.outcome(check, #"{"updatedAt": "x"}"#, inPlace: false) != "accepted")
        // Not edited: the `$ref` does not apply.
        #expect(Self.outcome(check, #"{"id": "x"}"#, inPlace: true) == "accepted")
    }

    @Test func onlyWhatTheContainerAndTheDecoderTellIsToldInPlace() {
        let references = ["M": ModelCoding.reference(Sized.self)]
        func inPlace(_ check: ModelCheck) -> SchemaCheck.InPlace? { SchemaCheck(check, references: references).inPlace }
        let reference = ModelCheck(reference: "M")
        #expect(inPlace(ModelCheck(required: ["a"], dependentRequired: ["a": ["b"]])) == .exact)
        #expect(inPlace(ModelCheck(types: [.object], not: ModelCheck(required: ["a"]))) == .exact)
        #expect(inPlace(ModelCheck(allOf: [reference])) == .whenMet)
        #expect(inPlace(ModelCheck(ifSchema: ModelCheck(required: ["a"]), thenSchema: reference, elseSchema: reference)) == .whenMet)
        // A `$ref` whose failure would decide (under `if` or `not`) needs the JSONValue.
        #expect(inPlace(ModelCheck(ifSchema: reference)) == nil)
        #expect(inPlace(ModelCheck(not: reference)) == nil)
        // Keywords that read values, count properties or try alternatives.
        #expect(inPlace(ModelCheck(properties: ["a": ModelCheck(types: [.string])], allOf: [reference])) == nil)
        #expect(inPlace(ModelCheck(minProperties: 1)) == nil)
        #expect(inPlace(ModelCheck(anyOf: [reference])) == nil)
        #expect(inPlace(ModelCheck(constValue: .object([:]))) == nil)
        // A name the check does not know, or a reference that checks only a JSONValue.
        #expect(inPlace(ModelCheck(reference: "N")) == nil)
        #expect(SchemaCheck(reference, references: ["M": SchemaCheck.Reference { _, _ in }]).inPlace == nil)
    }
}
