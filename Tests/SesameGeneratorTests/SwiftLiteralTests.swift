@_spi(Generated) import SesameDescription
import Testing
@testable import SesameGenerator

/// The one printer of the descriptions (`SwiftLiteral`), on the values whose stored
/// properties are not their initialiser's labels.
@Suite struct SwiftLiteralTests {
    /// `ModelCheck` keeps its single subschemas behind private references: printed by its
    /// stored properties it would name `itemsStorage`, which no initialiser takes, and list
    /// every keyword at its default.
    @Test func aModelCheckPrintsItsInitialisersArgumentsInOrder() {
        let check = ModelCheck(
            types: [.array], minimum: 1, prefixItems: [ModelCheck(pattern: "^a\"")], items: ModelCheck(maxLength: 3),
            uniqueItems: true, properties: ["b": ModelCheck(), "a": .never], not: ModelCheck(reference: "Pet"))
        #expect(
            SwiftLiteral(width: .max).print(check)
                == #"ModelCheck(types: [.array], minimum: 1.0, prefixItems: [ModelCheck(pattern: "^a\"")], items: ModelCheck(maxLength: 3), uniqueItems: true, properties: ["a": ModelCheck(not: ModelCheck()), "b": ModelCheck()], not: ModelCheck(reference: "Pet"))"#
        )
    }

    /// The model renderer's form: `ModelCheck.never`, JSON values and numbers as its other
    /// literals write them, on one line.
    @Test func theModelRendererPrintsNeverJSONAndNumbersItsWay() {
        let types = TypeRendering(models: [])
        let check = ModelCheck(
            constValue: .object(["k": .array([.null, .integer(2)])]), enumValues: [.string("x")], multipleOf: 0.5,
            maximum: 1e20, anyOf: [.never, ModelCheck(minimum: 2)])
        #expect(
            types.modelCheck(check)
                == #"ModelCheck(constValue: JSONValue.object(["k": JSONValue.array([JSONValue.null, JSONValue.integer(2)])]), enumValues: [JSONValue.string("x")], multipleOf: 0.5, maximum: 1e+20, anyOf: [ModelCheck.never, ModelCheck(minimum: 2.0)])"#
        )
        #expect(types.modelCheck(.never) == "ModelCheck.never")
    }
}
