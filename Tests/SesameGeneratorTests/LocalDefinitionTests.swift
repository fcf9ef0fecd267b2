import Testing

@testable import SesameGenerator

/// `$defs` are local to their schema: models that each keep a `$defs` entry under one name
/// generate, each entry named after its owner, and an entry that clashes with nothing keeps
/// its own name.
@Suite struct LocalDefinitionTests {
    /// Two models whose `$defs` both hold `item`: a string in A, an integer in B.
    static let twoItems = """
        A:
          type: object
          properties:
            x: { $ref: '#/A/$defs/item' }
          $defs:
            item: { type: string }
        B:
          type: object
          properties:
            y: { $ref: '#/B/$defs/item' }
          $defs:
            item: { type: integer }
        """

    private func generate(_ files: [String: String]) -> GeneratorPipeline.Generation {
        var overrides: [String: String?] = [:]
        for (name, text) in files { overrides[name] = text }
        return Fixture.generate(overrides)
    }

    @Test func sameNamedDefinitionsOfTwoModelsAreEachTheirOwnersOwn() {
        let generation = generate(["models.yaml": Fixture.models + "\n" + Self.twoItems])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        #expect(Fixture.model("A", in: generation).contains("public var x: AItem?"))
        #expect(Fixture.model("B", in: generation).contains("public var y: BItem?"))
        #expect(Fixture.model("AItem", in: generation).contains("public typealias AItem = String"))
        #expect(Fixture.model("BItem", in: generation).contains("public typealias BItem = Int"))
    }

    /// `#/A/$defs/item` names A's item from any model; `#/$defs/item` is the file's own
    /// `$defs` (`#` is the models file, a model is a resource only with an `$id`).
    @Test func aPointerToADefinitionNamesItFromAnywhere() {
        let generation = generate([
            "models.yaml": Fixture.models + "\n" + Self.twoItems + "\n"
                + """
                C:
                  type: object
                  properties:
                    fromA: { $ref: '#/A/$defs/item' }
                    fromB: { $ref: 'models.yaml#/B/$defs/item' }
                    own: { $ref: '#/$defs/item' }
                $defs:
                  item: { type: boolean }
                """,
            "other.yaml": "D: { type: object, properties: { fromA: { $ref: 'models.yaml#/A/$defs/item' } } }\n",
        ])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let c = Fixture.model("C", in: generation)
        #expect(c.contains("public var fromA: AItem?"), "\(c)")
        #expect(c.contains("public var fromB: BItem?"), "\(c)")
        // The file's own `$defs` entry clashes too: it is named after the file.
        #expect(c.contains("public var own: ModelsItem?"), "\(c)")
        #expect(Fixture.model("ModelsItem", in: generation).contains("public typealias ModelsItem = Bool"))
        #expect(Fixture.model("D", in: generation).contains("public var fromA: AItem?"))
    }

    @Test func aTopLevelModelKeepsItsNameBesideADefinitionOfIt() {
        let generation = generate([
            "models.yaml": Fixture.models + "\n"
                + """
                item: { type: object, properties: { n: { type: number } } }
                A:
                  type: object
                  properties:
                    x: { $ref: '#/A/$defs/item' }
                    top: { $ref: '#/item' }
                  $defs:
                    item: { type: string }
                """
        ])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let a = Fixture.model("A", in: generation)
        #expect(a.contains("public var x: AItem?"), "\(a)")
        #expect(a.contains("public var top: Item?"), "\(a)")
        #expect(Fixture.model("Item", in: generation).contains("public var n: Double?"))
    }

    /// The names do not depend on the order the files are read in, nor on the order of the
    /// keys: a name that is still taken is numbered in the order of files and pointers.
    @Test func clashingDefinitionsAreNamedTheSameWhateverTheOrder() {
        let one = """
            A:
              type: object
              properties: { x: { $ref: '#/A/$defs/item' } }
              $defs: { item: { type: string } }
            AItem: { type: integer }
            """
        let two = """
            B:
              type: object
              properties: { y: { $ref: '#/B/$defs/item' } }
              $defs: { item: { type: boolean } }
            """
        let sources = Fixture.sources(["one.yaml": one, "two.yaml": two])
        let forward = GeneratorPipeline.generate(sources)
        let backward = GeneratorPipeline.generate(sources.reversed())
        #expect(forward.diagnostics.isEmpty, "\(forward.diagnostics)")
        #expect(Fixture.model("A", in: forward).contains("public var x: AItem2?"))
        #expect(Fixture.model("B", in: forward).contains("public var y: BItem?"))
        #expect(Fixture.model("AItem", in: forward).contains("public typealias AItem = Int"))
        #expect(forward.files.map(\.path) == backward.files.map(\.path))
        #expect(forward.files.map(\.contents) == backward.files.map(\.contents))
    }

    /// Beside a clash, a `$defs` entry no other declaration shares a name with keeps its
    /// key's name, as does a `$ref` to it by its bare name: its generated code is what it was.
    @Test func aDefinitionThatClashesWithNothingKeepsItsName() {
        let generation = generate([
            "models.yaml": Fixture.models + "\n" + Self.twoItems + "\n"
                + """
                C:
                  type: object
                  properties:
                    x: { $ref: '#/C/$defs/Point' }
                    y: { $ref: '#/Point' }
                    z: { $ref: '#/$defs/Address' }
                  $defs:
                    Point: { type: object, properties: { n: { type: integer } } }
                $defs:
                  Address: { type: object, properties: { city: { type: string } } }
                """
        ])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let c = Fixture.model("C", in: generation)
        #expect(c.contains("public var x: Point?"), "\(c)")
        #expect(c.contains("public var y: Point?"), "\(c)")
        #expect(c.contains("public var z: Address?"), "\(c)")
        #expect(Fixture.model("Point", in: generation).contains("public struct Point"))
        #expect(Fixture.model("Address", in: generation).contains("public struct Address"))
    }

    /// A bare name that is the key of several `$defs` entries names none of them: the error
    /// says which pointers to write.
    @Test func aBareNameOfClashingDefinitionsSaysWhichPointersToWrite() {
        #expect(
            Fixture.printed(models: Self.twoItems + "\nC: { type: object, properties: { z: { $ref: '#/item' } } }\n") == [
                "Schema/models.yaml:25:45: error: no model is named 'item' in $ref '#/item': the $defs entries of that key are named after their owners; name one by its pointer (models.yaml#/A/$defs/item, models.yaml#/B/$defs/item)"
            ])
    }
}
