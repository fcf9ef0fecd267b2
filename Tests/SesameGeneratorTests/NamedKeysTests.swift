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

/// Issue 27, the two cases "Keys named only by the checks" listed as still lost on encode: the
/// keys a `$ref` requires through the models it names, and the undeclared keys the checks count
/// or match without naming them.
@Suite struct NamedKeysThroughReferencesTests {
    private func generated(_ yaml: String) -> GeneratorPipeline.Generation {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + yaml])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        return generation
    }

    @Test func theKeysAReferencedModelRequiresAreKept() {
        let generation = generated(
            """
            RequiredOnly: { required: [a, b] }
            Pair: { properties: { a: { type: string } }, $ref: "#/RequiredOnly" }
            """)
        let swift = Fixture.model("Pair", in: generation)
        #expect(swift.contains("public var a: String?"))
        #expect(swift.contains("public var b: JSONValue?"))
        #expect(swift.contains("public init(a: String? = nil, b: JSONValue? = nil)"))
    }

    /// Through an alias (its check and the model it is), a branch's `$ref`, an object model's
    /// declared properties and its own `$ref`; not through a `$ref` of a property's value.
    @Test func referencesAreFollowedToTheEnd() {
        let generation = generated(
            """
            Base: { type: object, properties: { d: { type: string } }, $ref: "#/Deepest" }
            Deepest: { dependentRequired: { e: [f] } }
            Middle: { $ref: "#/Base", required: [c] }
            Top:
              type: object
              properties: { a: { type: string }, inner: { $ref: "#/Other" } }
              anyOf: [{ $ref: "#/Middle" }, { not: { $ref: "#/Other" } }]
            Other: { required: [g] }
            OwnValue: { type: object, properties: { p: { $ref: "#/Other" } }, required: [p] }
            """)
        let top = Fixture.model("Top", in: generation)
        for key in ["c", "d", "e", "f", "g"] { #expect(top.contains("public var \(key): JSONValue?"), "\(key)") }
        #expect(top.contains("public var a: String?"))
        // `Other` checks the value of `p`, not `OwnValue`: `g` is not `OwnValue`'s key.
        #expect(!Fixture.model("OwnValue", in: generation).contains("public var g"))
    }

    /// A cycle of references ends (each model is walked once), with the keys of the whole cycle.
    @Test func aCycleOfReferencesEnds() {
        let validation = Fixture.validate(
            [
                "models.yaml": Fixture.models
                    + "\nA: { type: object, properties: { a: { type: string } }, anyOf: [{ $ref: '#/B' }] }\nB: { required: [b, c], if: { $ref: '#/A' } }\n"
            ])
        guard case .object(let object)? = validation.ir?.models.first(where: { $0.name == "A" })?.kind else {
            Issue.record("A is not an object: \(validation.diagnostics)")
            return
        }
        #expect(object.properties.map(\.name) == ["a", "b", "c"])
    }

    /// The keys of an object `const` or `enum` value in a check are named by it.
    @Test func theKeysOfAnObjectConstOrEnumAreKept() {
        let swift = Fixture.model(
            "Listed",
            in: generated(
                "Listed: { type: object, properties: { b: { type: integer } }, anyOf: [{ const: { a: 1, b: 2 } }, { enum: [{ c: 3 }, 4] }] }"
            ))
        #expect(swift.contains("public var a: JSONValue?"))
        #expect(swift.contains("public var c: JSONValue?"))
        #expect(swift.contains("public var b: Int?"))
    }

    @Test func minPropertiesKeepsEveryUndeclaredKey() {
        let swift = Fixture.model("Counted", in: generated("Counted: { type: object, minProperties: 1 }"))
        #expect(swift.contains("public var additionalProperties: [String: JSONValue]"))
        #expect(swift.contains("for key in extra.allKeys where !known.contains(key.stringValue) {"))
        #expect(swift.contains("try extra.encode(additionalProperties[key]!, forKey: AnyCodingKey(key))"))
    }

    /// A `minProperties` the required properties meet counts no undeclared key: nothing kept.
    @Test func minPropertiesTheRequiredPropertiesMeetKeepsNothing() {
        let swift = Fixture.model(
            "Met",
            in: generated(
                "Met: { type: object, required: [a, b], properties: { a: { type: string }, b: { type: string } }, minProperties: 2 }"))
        #expect(!swift.contains("additionalProperties"))
    }

    @Test func maxPropertiesKeepsNothingUnlessANotOrOneOfTellsKeysApart() {
        let plain = Fixture.model("AtMost", in: generated("AtMost: { type: object, maxProperties: 1 }"))
        #expect(!plain.contains("additionalProperties"))
        let negated = Fixture.model("NotAtMost", in: generated("NotAtMost: { type: object, not: { maxProperties: 1 } }"))
        #expect(negated.contains("public var additionalProperties: [String: JSONValue]"))
    }

    @Test func patternPropertiesKeepsTheUndeclaredKeysItsPatternsMatch() {
        let swift = Fixture.model(
            "Extensions",
            in: generated(
                #"Extensions: { type: object, properties: { id: { type: integer } }, patternProperties: { "^x-": { type: string }, "^y-": true } }"#
            ))
        #expect(swift.contains("public var additionalProperties: [String: JSONValue]"))
        #expect(swift.contains(#"SchemaCheck(ModelCheck(anyOf: [ModelCheck(pattern: "^x-"), ModelCheck(pattern: "^y-")]))"#))
        #expect(swift.contains("where !known.contains(key.stringValue) && Self.keptKeysCheck.matches(.string(key.stringValue))"))
    }

    /// An `allOf` member's kept keys are not the composition's declaration: it keeps them for
    /// its own merged checks, and `additionalProperties: false` beside them still refuses.
    @Test func allOfDoesNotMergeAMembersKeptKeys() {
        let generation = generated(
            """
            Counted: { type: object, properties: { a: { type: string } }, minProperties: 2 }
            Both: { allOf: [{ $ref: "#/Counted" }, { type: object, properties: { b: { type: string } }, additionalProperties: false }] }
            """)
        let both = Fixture.model("Both", in: generation)
        #expect(!both.contains("public var additionalProperties"))
        #expect(both.contains("the schema allows no undeclared property"))
    }
}
