import Testing

@testable import SesameGenerator

/// Issue 27: an object model that ignores its undeclared keys keeps those its own checks name
/// (`required`, `dependentRequired`, `properties`, in `oneOf`/`anyOf`/`allOf`/`not`/`if`
/// branches), each a `JSONValue?` property decoded and encoded as received, so that what it
/// decoded encodes back (`oneOf/8` of the JSON-Schema-Test-Suite).
@Suite struct NamedKeysTests {
    private func model(_ yaml: String, file: String) -> String {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + yaml])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        return Fixture.model(file, in: generation)
    }

    @Test func theKeysOfOneOfBranchesAreKeptAsJSONValues() {
        let swift = model(
            "T: { type: object, oneOf: [{ required: [foo, bar] }, { required: [foo, baz] }] }", file: "T")
        for key in ["bar", "baz", "foo"] {
            #expect(swift.contains("public var \(key): JSONValue?"))
            // Kept as received, `null` included: not `decodeIfPresent`, which reads null as absent.
            let decode = #"try container.contains("\#(key)") ? container.decode(JSONValue.self, forKey: "\#(key)") : nil"#
            #expect(swift.contains("self.\(key) = \(decode)"))
            #expect(swift.contains(#"try container.encodeIfPresent(self.\#(key), forKey: "\#(key)")"#))
            #expect(swift.contains(#"case "\#(key)": return self.\#(key) != nil"#))
        }
        #expect(swift.contains("public init(bar: JSONValue? = nil, baz: JSONValue? = nil, foo: JSONValue? = nil)"))
        #expect(swift.contains("Named by the schema's checks"))
        #expect(!swift.contains("_ = encoder.container(keyedBy: PropertyKey.self)"))
    }

    @Test func declaredKeysAndKeysOfOtherValuesAreNotAdded() {
        let swift = model(
            """
            U:
              type: object
              properties: { a: { type: object, properties: { b: { type: string } } } }
              dependentRequired: { a: [c] }
              not: { properties: { a: { required: [deep] } } }
              if: { required: [a] }
              then: { properties: { d: { type: integer } } }
              else: { anyOf: [{ required: [e] }, { allOf: [{ required: [f] }] }] }
            """, file: "U")
        for key in ["c", "d", "e", "f"] { #expect(swift.contains("public var \(key): JSONValue?")) }
        #expect(!swift.contains("public var a: JSONValue?"))
        // `deep` is a key of `a`'s value, not of the object's.
        #expect(!swift.contains("deep: JSONValue"))
    }

    /// Keeping or refusing every undeclared key already: nothing added.
    @Test func aModelThatKeepsOrRefusesUndeclaredKeysGainsNothing() {
        let kept = model("Kept: { type: object, additionalProperties: true, required: [foo] }", file: "Kept")
        #expect(!kept.contains("public var foo"))
        #expect(kept.contains("public var additionalProperties: [String: JSONValue]"))
        let refused = model(
            "Refused: { type: object, properties: { a: { type: string } }, additionalProperties: false, anyOf: [{ required: [a] }, { required: [b] }] }",
            file: "Refused")
        #expect(!refused.contains("public var b"))
    }

    /// A member's kept keys are not declarations: a composition that declares one with a type
    /// has it with that type (no "declares property twice" error), and one that does not
    /// keeps it, named by the member's check it merges.
    @Test func allOfMergesDeclarationsNotKeptKeys() {
        let yaml = """
            Base: { type: object, properties: { id: { type: string } }, required: [x] }
            Typed: { allOf: [{ $ref: "#/Base" }, { type: object, properties: { x: { type: integer } } }] }
            Untyped: { allOf: [{ $ref: "#/Base" }, { type: object, properties: { y: { type: string } } }] }
            """
        #expect(model(yaml, file: "Base").contains("public var x: JSONValue?"))
        let typed = model(yaml, file: "Typed")
        #expect(typed.contains("public var x: Int\n"))
        #expect(!typed.contains("x: JSONValue"))
        let untyped = model(yaml, file: "Untyped")
        #expect(untyped.contains("public var x: JSONValue?"))
        #expect(untyped.contains("public var y: String?"))
    }
}
