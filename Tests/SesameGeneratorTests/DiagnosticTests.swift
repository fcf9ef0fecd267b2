import Testing
@testable import SesameGenerator

/// Each kind of schema mistake is reported once, as `file:line:column: error: message`, at
/// the node that caused it.
@Suite struct DiagnosticTests {
    @Test func validSchemaHasNoDiagnostics() {
        let validation = Fixture.validate()
        #expect(validation.diagnostics.isEmpty)
        #expect(validation.ir?.name == "TestSDK")
    }

    @Test func yamlSyntaxErrorPointsAtLibyamlPosition() {
        let printed = Fixture.printed(["models.yaml": "User:\n  type: object\n  properties: { id: { type: string }\n"])
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:4:1: error: invalid YAML:") == true)
    }

    @Test func duplicateKeyPointsAtTheRepeat() {
        let models = Fixture.models + "\nUser:\n  type: object\n"
        let printed = Fixture.printed(["models.yaml": models])
        #expect(printed == ["Schema/models.yaml:13:1: error: duplicate key 'User'; a mapping may name each key once"])
    }

    @Test func unknownReferenceSuggestsTheClosestModel() {
        let models = Fixture.models + "\nProfile:\n  type: object\n  properties:\n    owner: { $ref: \"#/Usr\" }\n"
        #expect(
            Fixture.printed(["models.yaml": models]) == [
                "Schema/models.yaml:16:20: error: unknown model 'Usr' in $ref '#/Usr'; did you mean '#/User'?"
            ])
    }

    @Test func referenceToTheWrongFileIsAnError() {
        let other = "Extra:\n  type: object\n  properties:\n    user: { $ref: \"billing.yaml#/User\" }\n"
        #expect(
            Fixture.printed(["extra.yaml": other]) == [
                "Schema/extra.yaml:4:19: error: model 'User' is declared in models.yaml, not in billing.yaml"
            ])
    }

    /// Found by the random schemas (scripts/random-schemas.sh, seed 29): `#/Name` is a JSON
    /// pointer, so a model named `a/b~c` is `#/a~1b~0c`, from its own file and from any other
    /// (from another file it was "unknown model 'a~1b~0c'").
    @Test func anEscapedPointerNamesAModelOfAnotherFile() {
        let more = "\"a/b~c\": { type: string, minLength: 1 }\nOwn: { type: object, properties: { p: { $ref: \"#/a~1b~0c\" } } }\n"
        let extra = """
            Extra:
              type: object
              properties:
                p: { $ref: "#/a~1b~0c" }
                q: { $ref: "more.yaml#/a~1b~0c" }
            """
        let validation = Fixture.validate(["more.yaml": more, "extra.yaml": extra])
        #expect(validation.diagnostics.map(\.description) == [])
        // A suggestion is spelt as a pointer too.
        #expect(
            Fixture.printed(["more.yaml": more, "extra.yaml": "Extra: { $ref: \"#/a~1b~0d\" }\n"]) == [
                "Schema/extra.yaml:1:16: error: unknown model 'a/b~d' in $ref '#/a~1b~0d'; did you mean '#/a~1b~0c'?"
            ])
    }

    /// A bare `$ref: Name` names the model as written, `/` included: `a/b` is the model
    /// `a/b`, not the pointer `#/a/b` (it was "points to nothing: no 'b' in its file"). A
    /// bare reference that names no model and holds a `/` is still read as a pointer.
    @Test func aBareReferenceNamesAModelWhoseNameHoldsASlash() {
        let models = "\"a/b\": { type: string, minLength: 1 }\nOwn: { type: object, properties: { p: { $ref: \"a/b\" } } }"
        #expect(Fixture.printed(models: models) == [])
        let pointer = "Own: { type: object, properties: { p: { $ref: \"Own/properties/q\" }, q: { type: string } } }"
        #expect(Fixture.printed(models: pointer) == [])
    }

    /// Found by the random schemas (a fresh seed, 2658179573, schema 8): a model that is an
    /// array of itself was accepted and generated `typealias A = [A]`, which Swift refuses.
    @Test func aModelThatIsAnArrayOfItselfIsAnError() {
        let error =
            "error: model 'A' is an array or dictionary of itself (a type alias cannot contain itself); declare an object with a property that holds it"
        #expect(Fixture.printed(models: "A: { type: array, items: { $ref: \"#/A\" } }") == ["Schema/models.yaml:13:1: \(error)"])
        let mutual = "A: { type: array, items: { type: array, items: { $ref: \"#/B\" } } }\nB: { $ref: \"#/A\" }"
        #expect(Fixture.printed(models: mutual) == ["Schema/models.yaml:13:1: \(error)"])
        // Through an object it is a recursive model, and fine.
        let object = "A: { type: array, items: { $ref: \"#/O\" } }\nO: { type: object, properties: { a: { $ref: \"#/A\" } } }"
        #expect(Fixture.printed(models: object) == [])
    }

    @Test func modelDeclaredInTwoFiles() {
        #expect(
            Fixture.printed(["more.yaml": "User: { type: string }\n"]) == [
                "Schema/more.yaml:1:1: error: model 'User' is already declared at Schema/models.yaml:8:1"
            ])
    }

    @Test func unknownKeySuggestsTheRightOne() {
        let auth = "operations:\n  me: { reqest: GET /me, response: User }\n"
        let printed = Fixture.printed(["auth.yaml": auth])
        #expect(printed.contains("Schema/auth.yaml:2:9: error: unknown key 'reqest' in operation 'me'; did you mean 'request'?"))
    }

    @Test func unsupportedKeywordIsAnErrorNotIgnored() {
        let models = Fixture.models + "\nTags: { type: array, items: { type: string }, $dynamicAnchor: tags }\n"
        #expect(
            Fixture.printed(["models.yaml": models]) == [
                "Schema/models.yaml:13:47: error: $dynamicAnchor is not supported"
            ])
    }

    @Test func keywordOfAnotherTypeIsAnError() {
        let models = Fixture.models + "\nAge: { type: integer, maxLength: 3 }\n"
        #expect(Fixture.printed(["models.yaml": models]) == ["Schema/models.yaml:13:23: error: 'maxLength' does not apply to integer"])
    }

    @Test func unsupportedFormat() {
        let models = Fixture.models + "\nAddress: { type: string, format: iri }\n"
        #expect(
            Fixture.printed(["models.yaml": models]) == [
                "Schema/models.yaml:13:34: error: unsupported format 'iri'; Sesame supports date-time, date, uuid, uri, email, uri-reference, hostname, ipv4, ipv6, byte, password, binary, int32, int64, float, double"
            ])
    }

    @Test func placeholderThatNoStepProvides() {
        let auth =
            Fixture.auth + """

                methods:
                  otp:
                    parameters: { phone: { type: string } }
                    steps:
                      - { name: start, request: POST /otp, body: { phone: "{phone}" }, response: User }
                      - { name: finish, needs: [code], request: POST /otp/verify, body: { user: "{start.id}", code: "{cod}", other: "{start.nope}" }, response: Token }
                """
        let printed = Fixture.printed(["auth.yaml": auth])
        #expect(
            printed == [
                "Schema/auth.yaml:8:101: error: no parameter, need or earlier step provides '{cod}'; did you mean '{code}'?",
                "Schema/auth.yaml:8:117: error: the response of step 'start' has no property 'nope'",
            ])
    }

    @Test func invalidIdentifierForAMethod() {
        let auth = Fixture.auth + "\nmethods:\n  sign-in: { steps: [ { request: POST /a, response: Token } ] }\n"
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:4:3: error: method 'sign-in' is not a valid identifier: use letters, digits and _, not starting with a digit"
            ])
    }

    @Test func cycleWithNoIndirection() {
        let models =
            Fixture.models + """

                A: { type: object, required: [b], properties: { b: { $ref: "#/B" } } }
                B: { type: object, required: [a], properties: { a: { $ref: "#/A" } } }
                """
        let printed = Fixture.printed(["models.yaml": models])
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("Schema/models.yaml:13:49: error: cycle with no indirection through A, B") == true)
    }

    @Test func optionalCycleIsStoredIndirectly() throws {
        let models =
            Fixture.models
            + "\nNode: { type: object, required: [name], properties: { name: { type: string }, parent: { $ref: \"#/Node\" } } }\n"
        let generation = Fixture.generate(["models.yaml": models])
        #expect(generation.diagnostics.isEmpty)
        let node = Fixture.model("Node", in: generation)
        #expect(node.contains("private var _parent: Indirect<Node>?"))
        #expect(node.contains("public var parent: Node? {"))
    }

    @Test func requiredPropertyThatIsNotDeclaredMustBePresentWithAnyValue() {
        // JSON Schema allows it (swappedLettersStillGetASuggestion: a likely typo is a warning).
        let models = Fixture.models.replacingOccurrences(of: "required: [id]", with: "required: [id, extra]")
        #expect(Fixture.printed(["models.yaml": models]).isEmpty)
        let swift = Fixture.model("User", in: Fixture.generate(["models.yaml": models]))
        #expect(swift.contains("private static let schemaCheck = SchemaCheck(ModelCheck(required: [\"extra\"]))"))
        #expect(swift.contains("try ModelCoding.checkedContainer(decoder, Self.schemaCheck, declared: Self.schemaCheckKeys)"))
    }

    @Test func oneOfWithoutADiscriminatorIsAChoice() {
        let models = Fixture.models + "\nEither: { oneOf: [ { $ref: \"#/User\" }, { $ref: \"#/Token\" } ] }\n"
        #expect(Fixture.printed(["models.yaml": models]).isEmpty)
        let swift = Fixture.model("Either", in: Fixture.generate(["models.yaml": models]))
        #expect(swift.contains("case user(User)"))
        #expect(swift.contains("guard matches == 1, let match else"))
    }

    @Test func rejectionMustSayWhichResponseIsTheAuthServers() {
        let sdk = Fixture.sdk.replacingOccurrences(
            of: "rejected: { status: 401, wwwAuthenticate: { error: invalid_token } }", with: "rejected: { status: 401 }")
        let printed = Fixture.printed(["sdk.yaml": sdk])
        #expect(printed.count == 1)
        #expect(
            printed.first?.hasPrefix(
                "Schema/sdk.yaml:5:13: error: credential.rejected must say how to recognise the auth server's rejection") == true)
    }

    @Test func everyProblemOfEveryFileInOneRun() {
        let printed = Fixture.printed([
            "auth.yaml": "operations:\n  me: { request: GET /me, response: Usr }\n  bad: { request: FETCH /x }\n",
            "models.yaml": Fixture.models + "\nX: { type: strng }\n",
            "errors.yaml": "errors:\n  oops: { status: 200, category: client }\n",
        ])
        #expect(printed.count == 4, "\(printed)")
        #expect(printed.contains { $0.hasPrefix("Schema/auth.yaml:2:37: error: unknown model 'Usr'") })
        #expect(printed.contains { $0.hasPrefix("Schema/auth.yaml:3:19: error: the request of 'bad' must be '<METHOD> <path>'") })
        #expect(printed.contains { $0.hasPrefix("Schema/errors.yaml:2:19: error: status must be an HTTP error status") })
        #expect(printed.contains { $0.hasPrefix("Schema/models.yaml:13:12: error: unknown type 'strng'") })
        // Sorted by file, then line.
        #expect(printed == printed.sorted())
    }

    @Test func missingSDKFileIsReported() {
        let validation = Fixture.validate(["sdk.yaml": nil])
        #expect(validation.ir == nil)
        #expect(validation.diagnostics.map(\.message) == ["the schema folder has no sdk.yaml (it names the SDK and its credential)"])
    }

    @Test func lastStepMustReturnTheTokenModel() {
        let auth = Fixture.auth + "\nmethods:\n  guest: { steps: [ { request: POST /g, response: User } ] }\n"
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:4:21: error: the last step of 'guest' must return the token model 'Token', not 'User'"
            ])
    }

    @Test func credentialRulesAreChecked() {
        let badStatus = Fixture.sdk.replacingOccurrences(of: "status: 401", with: "status: 200")
        #expect(
            Fixture.printed(["sdk.yaml": badStatus]) == [
                "Schema/sdk.yaml:5:23: error: the rejection status must be a client error (400–499), found 200"
            ])
        let noToken = Fixture.sdk + "\n  apply: { header: Authorization, format: Bearer }\n"
        #expect(Fixture.printed(["sdk.yaml": noToken]) == ["Schema/sdk.yaml:8:43: error: the credential format must hold {accessToken}"])
    }

    @Test func allOfPropertiesAreVisibleToStepPlaceholders() {
        let models =
            Fixture.models + """

                Base: { type: object, required: [challengeId], properties: { challengeId: { type: string } } }
                Challenge: { allOf: [ { $ref: "#/Base" }, { type: object, properties: { channel: { type: string } } } ] }
                """
        let auth =
            Fixture.auth + """

                methods:
                  otp:
                    steps:
                      - { name: start, request: POST /otp, response: Challenge }
                      - { name: finish, needs: code, request: POST /otp/verify, body: { id: "{start.challengeId}", code: "{code}" }, response: Token }
                """
        #expect(Fixture.printed(["models.yaml": models, "auth.yaml": auth]).isEmpty)
    }

    @Test func filesInSubfoldersDeclareModels() {
        let validation = Fixture.validate(["models/auth.yaml": "Extra: { type: string }\n"])
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        #expect(validation.ir?.models.contains { $0.name == "Extra" } == true)
    }

    @Test func aPlaceholderInTheQueryOfAPathIsAnError() {
        let auth = "operations:\n  me: { request: GET /me, response: User }\n  search: { request: \"GET /search?q={q}\" }\n"
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:3:22: error: the query of the request of 'search' is constant: declare a value the app gives as a parameter with 'in: query'"
            ])
    }

    @Test func swappedLettersStillGetASuggestion() {
        let models = Fixture.models.replacingOccurrences(of: "required: [id]", with: "required: [di]")
        #expect(
            Fixture.printed(["models.yaml": models]) == [
                "Schema/models.yaml:10:14: warning: required property 'di' has no property schema, so it must be present with any value; did you mean 'id'?"
            ])
    }

    @Test func anOperationThatFailsIsNotReportedAgainWhereItIsUsed() {
        let auth = "operations:\n  me: { request: GET /me, response: User, bogus: 1 }\n"
        #expect(Fixture.printed(["auth.yaml": auth]) == ["Schema/auth.yaml:2:43: error: unknown key 'bogus' in operation 'me'"])
    }
}
