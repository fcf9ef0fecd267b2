import Testing

@testable import SesameGenerator
@_spi(Generated) import SesameDescription

/// The naming pass: the Swift names it stores in the IR, and the references between
/// declarations that carry them (`ModelRef`, `OperationRef`).
@Suite struct NamingPassTests {
    static let sdk = """
        sdk: TestSDK
        server: { baseURL: https://auth.example.com }
        credential:
          token: { model: token_response, accessToken: access_token }
          rejected: { status: 401, wwwAuthenticate: { error: invalid_token } }
          details: get_me
          userID: id
        lifecycle:
          signOut: log_out
        """

    static let auth = """
        operations:
          get_me: { request: GET /me, response: User }
          log_out: { request: POST /logout }
        methods:
          guest_sign_in:
            steps:
              - { request: POST /guest, response: token_response }
        """

    static let models = """
        token_response:
          type: object
          required: [access_token]
          properties:
            access_token: { type: string }
        User:
          type: object
          required: [id]
          properties:
            id: { type: string }
        """

    @Test func referencesCarryTheSwiftNamesOfWhatTheyName() throws {
        let validation = Fixture.validate(["sdk.yaml": Self.sdk, "auth.yaml": Self.auth, "models.yaml": Self.models])
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        let ir = try #require(validation.ir)
        let token = ModelRef(declaredName: "token_response", swiftPath: "TokenResponse")
        #expect(ir.credential.tokenModel == token)
        #expect(ir.methods.map(\.swiftName) == ["guestSignIn"])
        #expect(ir.methods.first?.steps.map(\.response) == [token])
        #expect(ir.operations.map(\.swiftName) == ["getMe", "logOut"])
        #expect(ir.operations.first?.response == .model(ModelRef(declaredName: "User", swiftPath: "User")))
        #expect(ir.credential.detailsOperation == OperationRef(name: "get_me", swiftName: "getMe"))
        #expect(ir.lifecycle.signOut == OperationRef(name: "log_out", swiftName: "logOut"))
        #expect(ir.lifecycle.destroyAccount == nil)
    }

    @Test func theGeneratedSchemaPrintsTheReferencesSwiftNames() {
        let generation = Fixture.generate(["sdk.yaml": Self.sdk, "auth.yaml": Self.auth, "models.yaml": Self.models])
        let schema = Fixture.file("TestSDKSchema.swift", in: generation)
        #expect(schema.contains("public typealias Details = User\n"))
        #expect(schema.contains("details: Requests.getMe,\n"))
        #expect(schema.contains("lifecycle: LifecycleDescription(signOut: Requests.logOut)\n"))
    }

    @Test func membersAreNamedAfterEveryPartOfAnAllOf() throws {
        // Each part names `a_b` and `aB` alike; merged, they must stay two properties.
        let models =
            Self.models + """

                Merged:
                  allOf:
                    - { type: object, properties: { a_b: { type: string } } }
                    - { type: object, properties: { aB: { type: string } } }
                """
        let validation = Fixture.validate(["sdk.yaml": Self.sdk, "auth.yaml": Self.auth, "models.yaml": models])
        let merged = try #require(validation.ir?.models.first { $0.name == "Merged" })
        guard case .object(let object) = merged.kind else {
            Issue.record("Merged is not an object")
            return
        }
        #expect(object.properties.map(\.swiftName) == ["aB", "aB_"])
    }

    @Test func theStorageAndTheUndeclaredKeysTakeNoPropertysName() throws {
        let models =
            Self.models + """

                Node:
                  type: object
                  additionalProperties: true
                  properties:
                    parent: { $ref: "#/Node" }
                    additionalProperties: { type: string }
                    additional_properties: { type: string }
                """
        let validation = Fixture.validate(["sdk.yaml": Self.sdk, "auth.yaml": Self.auth, "models.yaml": models])
        let node = try #require(validation.ir?.models.first { $0.name == "Node" })
        guard case .object(let object) = node.kind else {
            Issue.record("Node is not an object")
            return
        }
        #expect(object.properties.map(\.swiftName) == ["parent", "additionalProperties", "additionalProperties_"])
        #expect(object.properties.map(\.storageName) == ["_parent", "", ""])
        #expect(object.additionalPropertiesName == "additionalProperties__")
    }

    /// Found by the random schemas (scripts/random-schemas.sh, seed 29): a model `10_y` is the
    /// type `_10Y`, and its case in a union was `_10Y` too, so inside the enum
    /// `_10Y(from: decoder)` called the case and the SDK did not compile. So with a name that
    /// has no case (`名前`). A case never takes the name of a variant's type.
    @Test func aCaseNeverTakesTheNameOfItsVariantsType() throws {
        let models =
            Self.models + """

                10_y: { type: object, required: [kind], properties: { kind: { type: string } } }
                名前: { type: object, required: [kind], properties: { kind: { type: string } } }
                Choice: { anyOf: [{ $ref: "#/10_y" }, { $ref: "#/名前" }, { type: integer }] }
                Tagged: { oneOf: [{ $ref: "#/10_y" }, { $ref: "#/名前" }], discriminator: { propertyName: kind } }
                """
        let generation = Fixture.generate(["sdk.yaml": Self.sdk, "auth.yaml": Self.auth, "models.yaml": models])
        #expect(!generation.diagnostics.hasErrors, "\(generation.diagnostics)")
        let choice = Fixture.model("Choice", in: generation)
        #expect(choice.contains("case _10YValue(_10Y)\n"), "\(choice)")
        #expect(choice.contains("case 名前Value(名前)\n"))
        #expect(choice.contains("case integer(Int)\n"))
        let tagged = Fixture.model("Tagged", in: generation)
        #expect(tagged.contains("case _10YValue(_10Y)\n"), "\(tagged)")
        #expect(tagged.contains("case 名前Value(名前)\n"))
    }

    /// Found by the random schemas (scripts/random-schemas.sh, seed 29, schema 18): a property
    /// `*/` is `_2A_2F`, as the model `*/` is; beside a property of that model's type, the
    /// struct's `_2A_2F.self` named the property and the SDK did not compile. A property
    /// never takes the name of a model type its struct spells.
    @Test func aPropertyNeverTakesTheNameOfATypeItsStructUses() throws {
        let models =
            Self.models + """

                "*/": { type: object, properties: { a: { type: string } } }
                Other: { type: object, properties: { b: { type: string } } }
                Holder: { type: object, properties: { x: { $ref: "#/*~1" }, "*/": { $ref: "#/Other" }, y: { type: array, items: { $ref: "#/Other" } } } }
                """
        let generation = Fixture.generate(["sdk.yaml": Self.sdk, "auth.yaml": Self.auth, "models.yaml": models])
        #expect(!generation.diagnostics.hasErrors, "\(generation.diagnostics)")
        let holder = Fixture.model("Holder", in: generation)
        #expect(holder.contains("public var _2A_2FValue: Other?"), "\(holder)")
        #expect(!holder.contains("var _2A_2F:"))
        #expect(holder.contains("(_2A_2F.self, forKey: \"x\")"))
    }

    /// Found by the random schemas (seed 29, schema 14): the storage of an indirect property
    /// `_` is `_` + `_`, the type of a model `__`; beside it, the struct's `__.self` named the
    /// storage. The storage never takes a type's name either.
    @Test func anIndirectPropertysStorageNeverTakesTheNameOfATypeItsStructUses() throws {
        let models =
            Self.models + """

                __: { type: object, properties: { a: { type: string } } }
                Holder: { type: object, properties: { _: { $ref: "#/__" } } }
                """
        let generation = Fixture.generate(["sdk.yaml": Self.sdk, "auth.yaml": Self.auth, "models.yaml": models])
        #expect(!generation.diagnostics.hasErrors, "\(generation.diagnostics)")
        let holder = Fixture.model("Holder", in: generation)
        #expect(!holder.contains("private var __:"), "\(holder)")
        #expect(holder.contains("private var ___: Indirect<__>?"))
    }

    /// Types hoisted from inline schemas of auth.yaml are top-level types, named in one scope
    /// by the naming pass: a parameter's type never takes the name of a type hoisted before it
    /// (another method's parameter `aB` + `c` and `a` + `bC` both want `ABC`; an operation's
    /// body `signInBody`). They were each named in a scope of their own, and the SDK declared
    /// two types `ABC`.
    @Test func typesHoistedFromParametersTakeNoNameAnotherHoistedTypeHas() throws {
        let auth = """
            operations:
              me: { request: GET /me, response: User }
              signIn: { request: POST /sign-in, body: { type: object, properties: { a: { type: string } } } }
            methods:
              aB:
                parameters: { c: { type: string, enum: [x, y] } }
                steps: [ { request: POST /ab, response: Token } ]
              a:
                parameters: { bC: { type: string, enum: [x, z] } }
                steps: [ { request: POST /a, response: Token } ]
              sign:
                parameters: { inBody: { type: string, enum: [p, q] } }
                steps: [ { request: POST /sign, response: Token } ]
            """
        let validation = Fixture.validate(["auth.yaml": auth])
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        let ir = try #require(validation.ir)
        let names = ir.models.map(\.swiftName)
        #expect(Set(names).count == names.count, "\(names.sorted())")
        let parameterTypes = ir.methods.flatMap(\.parameters).map(\.type)
        #expect(
            parameterTypes == [
                .model(ModelRef(declaredName: nil, swiftPath: "ABC")), .model(ModelRef(declaredName: nil, swiftPath: "ABC2")),
                .model(ModelRef(declaredName: nil, swiftPath: "SignInBody2")),
            ])
        let generation = Fixture.generate(["auth.yaml": auth])
        let code = generation.files.map(\.contents).joined()
        #expect(code.components(separatedBy: "public enum ABC:").count == 2)
        #expect(code.components(separatedBy: "public enum ABC2:").count == 2)
    }
}
