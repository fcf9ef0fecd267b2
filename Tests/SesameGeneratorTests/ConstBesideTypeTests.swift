import Testing

@testable import SesameGenerator

/// Issue 27: `const` and `enum` beside a typed model's keywords are kept, each one checked, or
/// refused at their position; never silently dropped. `const` beside an object's `properties`
/// was dropped (the struct decoded any object).
@Suite struct ConstBesideTypeTests {
    private func model(_ yaml: String, file: String) -> String {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\n" + yaml])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        return Fixture.model(file, in: generation)
    }

    @Test func anObjectConstBesidePropertiesIsTheObjectsCheckAndKeepsItsKeys() {
        let swift = model("Fixed: { type: object, properties: { b: { type: integer } }, const: { a: 1, b: 2 } }", file: "Fixed")
        #expect(swift.contains(#"ModelCheck(constValue: JSONValue.object(["a": JSONValue.integer(1), "b": JSONValue.integer(2)]))"#))
        // Checked on decode and on encode.
        #expect(swift.contains("ModelCoding.checkedContainer(decoder, Self.schemaCheck"))
        #expect(swift.contains("try ModelCoding.checkEncoding(self, Self.schemaCheck"))
        // The key the value names and `properties` does not is kept, so a decoded value encodes back.
        #expect(swift.contains("public var a: JSONValue?"))
        #expect(swift.contains("public var b: Int?"))
    }

    @Test func anObjectConstWithoutPropertiesOrBesideAdditionalPropertiesIsChecked() {
        let bare = model("Bare: { type: object, const: { a: 1 } }", file: "Bare")
        #expect(bare.contains(#"ModelCheck(constValue: JSONValue.object(["a": JSONValue.integer(1)]))"#))
        let map = model("Map: { type: object, additionalProperties: { type: integer }, const: { x: 1 } }", file: "Map")
        #expect(map.contains(#"ModelCheck(constValue: JSONValue.object(["x": JSONValue.integer(1)]))"#))
        #expect(map.contains("try ModelCoding.checkEncoding(self, Self.schemaCheck, codingPath: encoder.codingPath)"))
        // A value no object equals is kept too: nothing decodes, as JSON Schema says.
        let never = model("Never: { type: object, properties: { b: { type: integer } }, const: 5 }", file: "Never")
        #expect(never.contains("ModelCheck(constValue: JSONValue.integer(5))"))
    }

    @Test func anInlineObjectConstIsItsNestedModelsCheck() {
        let swift = model(
            "Holder: { type: object, properties: { inner: { type: object, properties: { b: { type: integer } }, const: { b: 3 } } } }",
            file: "Holder")
        #expect(swift.contains(#"ModelCheck(constValue: JSONValue.object(["b": JSONValue.integer(3)]))"#))
    }

    /// An inline object with a `const` and no `properties` was a dictionary, and its `const`
    /// an error: it is a nested struct now, whose check the `const` is.
    @Test func anInlineObjectConstWithoutPropertiesIsANestedStruct() {
        let swift = model(
            "Holder: { type: object, properties: { map: { type: object, additionalProperties: { type: integer }, const: { x: 1 } } } }",
            file: "Holder")
        #expect(swift.contains("public var map: Holder.Map?"))
        #expect(swift.contains("public var additionalProperties: [String: Int]"))
        #expect(swift.contains(#"ModelCheck(constValue: JSONValue.object(["x": JSONValue.integer(1)]))"#))
    }

    /// Kept before this fix: an object, array or number `enum`, and an array or number
    /// `const`, each a check of the value.
    @Test func enumsAndConstsBesideOtherTypesAreChecked() {
        let objectEnum = model("Listed: { type: object, properties: { b: { type: integer } }, enum: [{ b: 3 }] }", file: "Listed")
        #expect(objectEnum.contains(#"enumValues: [JSONValue.object(["b": JSONValue.integer(3)])]"#))
        let arrayEnum = model("Pairs: { type: array, items: { type: integer }, enum: [[1, 2]] }", file: "Pairs")
        #expect(arrayEnum.contains("enumValues: [JSONValue.array([JSONValue.integer(1), JSONValue.integer(2)])]"))
        let arrayConst = model("Pair: { type: array, items: { type: integer }, const: [1, 2] }", file: "Pair")
        #expect(arrayConst.contains("try ModelCoding.constant(self.rawValue, [1, 2], codingPath: decoder.codingPath)"))
        #expect(arrayConst.contains("try ModelCoding.constant(self.rawValue, [1, 2], codingPath: encoder.codingPath)"))
        let numberEnum = model("Rates: { type: number, enum: [1.5, 2] }", file: "Rates")
        #expect(numberEnum.contains("enumValues: [JSONValue.number(1.5), JSONValue.integer(2)]"))
        let numberConst = model("Rate: { type: number, const: 1.5 }", file: "Rate")
        #expect(numberConst.contains("try ModelCoding.constant(self.rawValue, 1.5, codingPath: decoder.codingPath)"))
    }

    /// An object `const` that compares the text of a `Date`, `UUID`, … property would refuse on
    /// encode what it accepted on decode (the Swift value re-encodes the text its own way).
    @Test func anObjectConstNamingAPropertyThatRewritesItsTextIsRefused() {
        let stamped =
            "Stamped: { type: object, properties: { at: { type: string, format: date-time } }, const: { at: \"2020-01-01T00:00:00+00:00\" } }"
        #expect(
            Fixture.printed(models: stamped) == [
                "Schema/models.yaml:13:90: error: const is not supported on an object whose property 'at' is a string (date-time): the Swift value does not keep the JSON text the const compares with; make it a plain string or drop the const"
            ])
        let ids =
            "Ids: { type: object, additionalProperties: { type: string, format: uuid }, const: { x: \"00000000-0000-0000-0000-00000000000A\" } }"
        #expect(Fixture.printed(models: ids).count == 1)
        // A checked string keeps its text, and a key the const does not name is not compared.
        #expect(
            Fixture.printed(models: "Mail: { type: object, properties: { to: { type: string, format: email } }, const: { to: a@b.c } }")
                .isEmpty)
        #expect(
            Fixture.printed(models: "Other: { type: object, properties: { at: { type: string, format: date-time } }, const: { b: 1 } }")
                .isEmpty)
    }

    /// What cannot be checked as written is refused at its position, not dropped.
    @Test func constsAndEnumsSesameCannotCheckAreRefusedAtTheirPosition() {
        #expect(
            Fixture.printed(models: "Stamp: { type: string, format: date-time, const: \"2020-01-01T00:00:00Z\" }")
                == ["Schema/models.yaml:13:50: error: const is not supported on a date-time string"])
        #expect(
            Fixture.printed(models: "Stamps: { type: string, format: date-time, enum: [\"2020-01-01T00:00:00Z\"] }")
                == ["Schema/models.yaml:13:25: error: 'format' is not supported on an enum"])
        #expect(
            Fixture.printed(
                models: "Objects: { type: array, items: { type: object, properties: { b: { type: integer } } }, const: [{ b: 1 }] }")
                == ["Schema/models.yaml:13:95: error: const is supported on strings, numbers, booleans, enums and arrays of them"])
        // An inline array (a model of its own checks its const).
        #expect(
            Fixture.printed(
                models: "Holder: { type: object, properties: { list: { type: array, items: { type: integer }, const: [1, 2] } } }")
                == ["Schema/models.yaml:13:86: error: const is supported on plain strings, numbers, booleans and schemas without a type"])
    }
}
