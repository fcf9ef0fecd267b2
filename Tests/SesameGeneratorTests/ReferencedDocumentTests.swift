import Testing

@testable import SesameGenerator

/// `$ref` to JSON Schema and OpenAPI documents (docs/format.md, "References"): pointers,
/// anchors, `$id`, mapped URIs, one Swift type per schema, errors in the file that holds them.
@Suite struct ReferencedDocumentTests {
    static let userDocument = """
        {
          "$id": "https://example.com/schemas/user.json",
          "title": "Profile",
          "type": "object",
          "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/Address" },
            "kind": { "$ref": "kind.json" }
          },
          "$defs": {
            "Address": { "type": "object", "properties": { "city": { "type": "string" } } },
            "Tagged": { "$anchor": "tagged", "type": "object", "properties": { "t": { "type": "string" } } }
          }
        }
        """

    static let kindDocument = #"{ "type": "string", "enum": ["person", "robot"] }"#

    static let sdkWithReferences =
        Fixture.sdk + "\nreferences:\n  roots: [../api]\n  map: { \"https://example.com/schemas/\": ../api/ }\n"

    /// The fixture with `extra` models, and `documents` read as referenced files.
    static func sources(models extra: String, documents: [String: String], sdk: String = sdkWithReferences) -> [SchemaSource] {
        Fixture.sources(["models.yaml": Fixture.models + "\n" + extra, "sdk.yaml": sdk])
            + documents.keys.sorted().map {
                SchemaSource(path: "Schema/\($0)", relativePath: $0, text: documents[$0]!, isReferencedDocument: true)
            }
    }

    static let referencingModels = """
        Card:
          type: object
          properties:
            home: { $ref: "./schemas/user.json#/$defs/Address" }
            work: { $ref: "schemas/user.json#/$defs/Address" }
            tagged: { $ref: "./schemas/user.json#tagged" }
            profile: { $ref: "./schemas/user.json" }
        """

    @Test func aPointerAnAnchorAndARootNameOneTypeEachHoweverOftenReferenced() {
        let generation = GeneratorPipeline.generate(
            Self.sources(
                models: Self.referencingModels,
                documents: ["schemas/user.json": Self.userDocument, "../api/kind.json": Self.kindDocument]))
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let card = Fixture.model("Card", in: generation)
        #expect(card.contains("public var home: Address?"))
        #expect(card.contains("public var work: Address?"))
        #expect(card.contains("public var tagged: Tagged?"))
        // The document's root is named by its title.
        #expect(card.contains("public var profile: Profile?"))
        // `#/$defs/Address` inside the document is the document's own, the same type.
        #expect(Fixture.model("Profile", in: generation).contains("public var address: Address?"))
        // `kind.json` resolved against the document's `$id`, mapped to ../api/kind.json.
        #expect(Fixture.model("Profile", in: generation).contains("public var kind: Kind?"))
        #expect(Fixture.model("Kind", in: generation).contains("enum Kind"))
        let names = generation.ir?.models.map(\.swiftName) ?? []
        #expect(names.filter { $0 == "Address" }.count == 1)
        #expect(names.filter { $0.hasPrefix("Address") }.count == 1, "\(names)")
    }

    /// Found by `make random-schemas` (seed 29): auth.yaml's `models.yaml#/User` named the
    /// models file, which was not parsed (its text names no other file), so it was listed as
    /// missing, read again as a referenced document, and every `#/Name` in it then meant
    /// the document ("points to nothing: models.yaml has no '#/Name'").
    @Test func aFileOfTheFolderIsNeverMissing() {
        var sources = Fixture.sources(["models.yaml": Fixture.models])
        let auth = "operations:\n  me: { request: GET /me, response: { $ref: \"models.yaml#/User\" } }\n"
        sources =
            sources.filter { $0.relativePath != "auth.yaml" }
            + Fixture.sources(["auth.yaml": auth]).filter { $0.relativePath == "auth.yaml" }
        #expect(ReferencedFiles.missing(in: sources).missing == [])
    }

    @Test func theFilesAReferenceNamesAreListedUntilNoneIsMissing() {
        let first = ReferencedFiles.missing(in: Self.sources(models: Self.referencingModels, documents: [:]))
        #expect(first.missing == ["schemas/user.json"])
        #expect(first.settings.roots == ["../api"])
        let second = ReferencedFiles.missing(
            in: Self.sources(models: Self.referencingModels, documents: ["schemas/user.json": Self.userDocument]))
        // Relative to the document's `$id`, through the map.
        #expect(second.missing == ["../api/kind.json"])
        #expect(second.settings.allows("../api/kind.json"))
        #expect(!second.settings.allows("../secrets/key.json"))
        #expect(!second.settings.allows("../api/../secrets/key.json"))
    }

    /// A search in rounds, as `sesame` reads: each round names the one file the last one
    /// added names, until none is missing; the files read first are not read again.
    @Test func aSearchInRoundsFindsAChainOneFileARound() {
        let chain = (0..<30).map { index in
            SchemaSource(
                path: "Schema/chain/\(index).json", relativePath: "chain/\(index).json",
                text: index < 29 ? #"{"allOf":[{"$ref":"\#(index + 1).json"}]}"# : #"{"type":"object"}"#,
                isReferencedDocument: true)
        }
        let folder = Self.sources(models: "Head:\n  type: object\n  properties:\n    link: { $ref: \"chain/0.json\" }\n", documents: [:])
        var search = ReferencedFiles.Search(folder)
        var rounds: [[String]] = []
        for document in chain {
            rounds.append(search.missing().missing)
            search.add([document])
        }
        rounds.append(search.missing().missing)
        #expect(rounds == (0..<30).map { ["chain/\($0).json"] } + [[]])
        // The same as a search that starts with every file.
        #expect(ReferencedFiles.missing(in: folder + chain).missing == [])
    }

    @Test func aPastedDocumentWithAnIDKeepsItsOwnDefinitions() {
        let generation = GeneratorPipeline.generate(
            Self.sources(
                models: """
                    Pasted:
                      $id: https://example.com/pasted
                      $defs:
                        Inner: { type: object, properties: { x: { type: string } } }
                      type: object
                      properties:
                        inner: { $ref: "#/$defs/Inner" }
                        user: { $ref: "#/User" }
                    """, documents: [:], sdk: Fixture.sdk))
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let pasted = Fixture.model("Pasted", in: generation)
        #expect(pasted.contains("public var inner: Inner?"))
        // `#/Name` the resource does not hold still names a model of the models files.
        #expect(pasted.contains("public var user: User?"))
    }

    static let openAPI30 = """
        openapi: 3.0.3
        info: { title: Accounts, version: "1" }
        paths: {}
        components:
          schemas:
            Account:
              type: object
              required: [id]
              properties:
                id: { type: string, example: acc_1 }
                nickname: { type: string, nullable: true }
                owner:
                  nullable: true
                  allOf: [{ $ref: "#/components/schemas/Owner" }]
                factor: { $ref: "#/components/schemas/Factor" }
            Owner:
              type: object
              properties:
                name: { type: string }
            Factor:
              oneOf: [{ $ref: "#/components/schemas/Totp" }, { $ref: "#/components/schemas/Sms" }]
              discriminator:
                propertyName: type
                mapping: { totp: Totp, sms: "#/components/schemas/Sms" }
            Totp:
              type: object
              required: [type]
              properties: { type: { type: string }, digits: { type: integer } }
            Sms:
              type: object
              required: [type]
              properties: { type: { type: string }, phone: { type: string } }
        """

    @Test func anOpenAPIDocumentsSchemasByPointerWithNullableAndADiscriminator() {
        let generation = GeneratorPipeline.generate(
            Self.sources(
                models: "Account: { $ref: \"../api/openapi.yaml#/components/schemas/Account\" }",
                documents: ["../api/openapi.yaml": Self.openAPI30]))
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let account = Fixture.model("Account", in: generation)
        // The model that is only a `$ref` is the document's schema, under its own name.
        #expect(account.contains("public struct Account"))
        #expect(account.contains("public var id: String\n"))
        #expect(account.contains("public var nickname: String?"))
        #expect(account.contains("public var owner: Owner?"))
        #expect(account.contains("public var factor: Factor?"))
        let factor = Fixture.model("Factor", in: generation)
        #expect(factor.contains("case totp(Totp)"))
        #expect(factor.contains("case sms(Sms)"))
        // The document's models are generated in a file named after it.
        #expect(generation.files.contains { $0.path.hasPrefix("Models/Parent_Api_Openapi") })
    }

    @Test func authYAMLNamesADocumentsSchemaThroughTheModelThatAdoptsIt() {
        let sources =
            Self.sources(
                models: "Account: { $ref: \"../api/openapi.yaml#/components/schemas/Account\" }",
                documents: ["../api/openapi.yaml": Self.openAPI30]
            )
            .map { source in
                guard source.relativePath == "auth.yaml" else { return source }
                var changed = source
                changed.text = """
                    operations:
                      me: { request: GET /me, response: User }
                      account: { request: GET /account, response: { $ref: "../api/openapi.yaml#/components/schemas/Account" } }
                      owner: { request: GET /owner, response: { $ref: "../api/openapi.yaml#/components/schemas/Nobody" } }
                    """
                return changed
            }
        let printed = GeneratorPipeline.validate(sources).diagnostics.map(\.description)
        // The adopted schema resolves; a schema no models file declares is an error that says what to do.
        #expect(
            printed == [
                "Schema/auth.yaml:4:51: error: $ref '../api/openapi.yaml#/components/schemas/Nobody' points to nothing: Schema/../api/openapi.yaml has no '#/components/schemas/Nobody'"
            ], "\(printed)")
    }

    @Test func nullableIsReadAsATypeListAndDroppedWhenFalse() {
        let generation = GeneratorPipeline.generate(
            Self.sources(
                models: "Thing: { $ref: \"../api/openapi.yaml#/components/schemas/Thing\" }",
                documents: [
                    "../api/openapi.yaml": """
                    openapi: 3.0.3
                    components:
                      schemas:
                        Thing:
                          type: object
                          required: [a, b]
                          properties:
                            a: { type: string, nullable: true }
                            b: { type: string, nullable: false }
                    """
                ]))
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let thing = Fixture.model("Thing", in: generation)
        #expect(thing.contains("public var a: String?"))
        #expect(thing.contains("public var b: String\n"))
    }

    /// `../` that climb past the root of the folder's file tree, and a relative `$ref` that a
    /// document's `$id` took to a server: each error says which, not "no file of the schema"
    /// or a bare "remote reference".
    @Test func aRefThatClimbsOutOfTheTreeOrFollowsAnIDSaysSo() {
        let climb = String(repeating: "../", count: 14) + "etc/x.json"
        let printed = GeneratorPipeline.validate(
            Self.sources(
                models: """
                    Climber:
                      type: object
                      properties:
                        up: { $ref: "\(climb)" }
                        hosted: { $ref: "./schemas/hosted.json" }
                    """,
                documents: [
                    "schemas/hosted.json":
                        ##"{ "$id": "https://example.com/s/hosted.json", "type": "object", "properties": { "p": { "$ref": "../other.json" } } }"##
                ])
        ).diagnostics.map(\.description)
        #expect(
            printed.contains(
                "Schema/models.yaml:16:17: error: $ref '\(climb)': '\(climb)' goes up out of the schema folder past the root of its file tree; "
                    + "a $ref names a file by its path from the file it is in, inside the schema folder or a root declared in sdk.yaml "
                    + "(references: { roots: [...] })"), "\(printed)")
        #expect(
            printed.contains {
                $0.hasPrefix("Schema/schemas/hosted.json:1:")
                    && $0.contains("$ref '../other.json': a remote reference (https://example.com/other.json)")
                    && $0.hasSuffix("(the $ref is relative to the $id 'https://example.com/s/hosted.json' of the schema it is in)")
            }, "\(printed)")
    }

    @Test func errorsArePositionedInTheFileThatHoldsThem() {
        let printed = GeneratorPipeline.validate(
            Self.sources(
                models: """
                    Card:
                      type: object
                      properties:
                        missing: { $ref: "./schemas/none.json" }
                        remote: { $ref: "https://other.example/x.json" }
                        outside: { $ref: "../secrets/x.json" }
                        bad: { $ref: "./schemas/bad.json" }
                        anchor: { $ref: "./schemas/bad.json#nothing" }
                        big: { $ref: "../api/big.json" }
                    """,
                documents: ["schemas/bad.json": ##"{ "type": "object", "properties": { "p": { "$ref": "#/$defs/Nope" } } }"##]),
            unreadable: ["../api/big.json": "it is larger than 16 MiB"]
        ).diagnostics.map(\.description)
        #expect(
            printed.contains(
                "Schema/models.yaml:16:22: error: $ref './schemas/none.json': no file 'schemas/none.json'"), "\(printed)")
        #expect(
            printed.contains(
                "Schema/models.yaml:17:21: error: $ref 'https://other.example/x.json': a remote reference (https://other.example/x.json), which Sesame does not fetch; map its URI to a local file in sdk.yaml (references: { map: { \"https://other.example/x.json\": path } })"
            ))
        #expect(
            printed.contains(
                "Schema/models.yaml:18:22: error: $ref '../secrets/x.json': '../secrets/x.json' is outside the schema folder; declare its folder in sdk.yaml (references: { roots: [../secrets] })"
            ))
        // A bad pointer inside the referenced document: at its `$ref`, in the document.
        #expect(
            printed.contains(
                "Schema/schemas/bad.json:1:52: error: $ref '#/$defs/Nope' points to nothing: Schema/schemas/bad.json has no '#/$defs/Nope'"
            ), "\(printed)")
        #expect(
            printed.contains(
                "Schema/models.yaml:20:21: error: $ref './schemas/bad.json#nothing': no $anchor 'nothing' in Schema/schemas/bad.json"))
        #expect(
            printed.contains(
                "Schema/models.yaml:21:18: error: $ref '../api/big.json': cannot read '../api/big.json': it is larger than 16 MiB"))
    }

    @Test func cyclesAcrossFilesAreBoxed() {
        let generation = GeneratorPipeline.generate(
            Self.sources(
                models: "Team: { $ref: \"schemas/team.json\" }",
                documents: [
                    "schemas/team.json": #"{ "type": "object", "properties": { "lead": { "$ref": "member.json" } } }"#,
                    "schemas/member.json": #"{ "type": "object", "properties": { "team": { "$ref": "team.json" } } }"#,
                ], sdk: Fixture.sdk))
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        #expect(Fixture.model("Team", in: generation).contains("public var lead: Member?"))
        #expect(Fixture.model("Member", in: generation).contains("public var team: Team?"))
    }

    @Test func theReleasedCopyHoldsTheReferencedFiles() {
        let release = GeneratorPipeline.release(
            Self.sources(
                models: Self.referencingModels,
                documents: ["schemas/user.json": Self.userDocument, "../api/kind.json": Self.kindDocument]))
        #expect(!release.diagnostics.hasErrors, "\(release.diagnostics)")
        let paths = release.files.map(\.path)
        #expect(paths.contains("released/schema/schemas/user.json"))
        #expect(paths.contains("released/schema/.references/%2E%2E/api/kind.json"))
    }
}
