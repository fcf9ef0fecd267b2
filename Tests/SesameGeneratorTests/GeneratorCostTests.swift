import Foundation
@_spi(Generated) import SesameDescription
import Testing
import Yams

@testable import SesameGenerator

/// What keeps the generator's CPU time and memory down, checked by structure, never by
/// timing (docs/performance.md, "The generator's CPU, counted in instructions"):
/// `ConstraintsIR` holds its two `ModelCheck`s behind references, and the nesting check finds
/// the same first collection past the limit as the walk it replaced.
@Suite struct GeneratorCostTests {
    /// Every property, item, parameter and alias holds a `ConstraintsIR`, and models are copied
    /// often: with its two checks inline it was 848 bytes, and generating the 2,000-model
    /// peer schema took 45% more CPU and memory. Behind references it is two pointers.
    @Test func constraintsHoldTheirChecksBehindReferences() {
        #expect(MemoryLayout<ConstraintsIR>.size <= 2 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<ModelCheck>.size > 8 * MemoryLayout<Int>.size)  // why it matters
    }

    /// Setting keywords to nil leaves constraints empty and equal to new ones; a keyword set
    /// then cleared gives them back; any value (even `const: null`) makes them non-empty.
    @Test func keywordsSetAndClearedKeepEmptinessAndEquality() {
        var constraints = ConstraintsIR()
        constraints.minLength = nil
        constraints.const = nil
        constraints.items = nil
        #expect(constraints.isEmpty)
        #expect(constraints == ConstraintsIR())
        #expect(constraints == ConstraintsIR(typed: ModelCheck()))

        constraints.minLength = 1
        constraints.maxLength = 200
        #expect(!constraints.isEmpty)
        #expect(constraints.minLength == 1 && constraints.maxLength == 200)
        #expect(constraints.typed == ModelCheck(minLength: 1, maxLength: 200))
        #expect(constraints == ConstraintsIR(typed: ModelCheck(minLength: 1, maxLength: 200)))

        constraints.minLength = nil
        constraints.maxLength = nil
        #expect(constraints.isEmpty)
        #expect(constraints == ConstraintsIR())

        constraints.const = .null
        #expect(!constraints.isEmpty)
        #expect(constraints.const == .null)

        var withSchema = ConstraintsIR()
        withSchema.schema = ModelCheck(uniqueItems: true)
        #expect(!withSchema.isEmpty)
        #expect(withSchema.typed.isEmpty)
        withSchema.schema = nil
        #expect(withSchema.isEmpty)
    }

    /// A copy is independent: setting a keyword on it leaves the original as it was.
    @Test func aCopyIsIndependent() {
        var original = ConstraintsIR()
        original.minimum = 0
        var copy = original
        copy.minimum = 5
        copy.items = ConstraintsIR(typed: ModelCheck(maxLength: 3))
        #expect(original.minimum == 0)
        #expect(original.items == nil)
        #expect(copy.minimum == 5)
        #expect(copy.items?.maxLength == 3)
    }

    /// Coded as the two checks under `typed` and `schema`, as when they were stored inline.
    @Test func codingKeepsTheInlineShape() throws {
        var constraints = ConstraintsIR()
        constraints.pattern = "^a"
        constraints.schema = ModelCheck(multipleOf: 2)
        let data = try JSONEncoder().encode(constraints)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["typed", "schema"])
        #expect(try JSONDecoder().decode(ConstraintsIR.self, from: data) == constraints)
        let empty = try JSONDecoder().decode(ConstraintsIR.self, from: JSONEncoder().encode(ConstraintsIR()))
        #expect(empty.isEmpty)
    }

    /// The first collection past the limit in document order is reported, including one in
    /// a mapping's key, which comes before its value.
    @Test(
        arguments: [
            ("{ deep: \(Self.nested(65)), later: \(Self.nested(70)) }", 1, 72),
            ("[ \(Self.nested(63)), \(Self.nested(70)) ]", 1, 194),
            ("{ ? \(Self.nested(65)) : \(Self.nested(70)) }", 1, 68),
            ("{ a: \(Self.nested(63)) }", nil, nil),
        ] as [(String, Int?, Int?)])
    func nestingErrorIsAtTheFirstCollectionPastTheLimit(_ text: String, _ line: Int?, _ column: Int?) throws {
        let root = try #require(try Yams.compose(yaml: text, .basic))
        let source = SchemaSource(path: "Schema/models.yaml", relativePath: "models.yaml", text: text)
        let error = YAMLReader.nestingError(in: root, source: source)
        #expect(error?.location?.line == line)
        #expect(error?.location?.column == column)
        if line != nil { #expect(error?.message.contains("nest more than 64 levels deep") == true) }
    }

    /// `depth` lists, one inside the other, on one line.
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }
}
