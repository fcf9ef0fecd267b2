@_spi(Generated) import SesameDescription
@testable import SesameGenerator
import Testing

/// sdk.yaml's `openID.userInfo` (issue 26): the operation that is the provider's UserInfo
/// endpoint (OpenID Connect Core §5.3), what reaches the runtime and the generated code, and
/// each mistake at the position of the key's value.
@Suite struct OpenIDUserInfoSchemaTests {
    /// `Fixture.models` with the UserInfo models: a good one, one whose `sub` is optional and
    /// one whose `sub` is a number.
    static let models =
        Fixture.models + """

            Claims:
              type: object
              required: [sub]
              properties:
                sub: { type: string }
                name: { type: string }
            OptionalSubject:
              type: object
              properties:
                sub: { type: string }
            NumericSubject:
              type: object
              required: [sub]
              properties:
                sub: { type: integer }
            """

    /// `browserAuth` with the UserInfo operation `userinfo` declared as `line` says.
    static func auth(
        _ line: String = "{ request: GET /userinfo, server: authorization, authenticated: true, response: Claims }"
    )
        -> String
    {
        ServerAndBrowserTests.browserAuth.replacingOccurrences(
            of: "  userinfo: { request: GET /userinfo, server: authorization, response: User }", with: "  userinfo: \(line)")
    }

    static func files(userInfo: String? = "userinfo", auth: String = auth()) -> [String: String?] {
        let block = "{ keys: /oauth/jwks" + (userInfo.map { ", userInfo: \($0)" } ?? "") + " }"
        return ["sdk.yaml": OpenIDSchemaTests.sdk(openID: block), "auth.yaml": auth, "models.yaml": models]
    }

    @Test func userInfoReachesTheRuntimeAndTheGeneratedCode() throws {
        let generation = Fixture.generate(Self.files())
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let validation = Fixture.validate(Self.files())
        let ir = try #require(validation.ir)
        let userinfo = try #require(ir.operations.first { $0.name == "userinfo" })
        #expect(ir.runtimeDescription.openID?.userInfo == userinfo.request.value)
        #expect(userinfo.request.value.server == .authorization && userinfo.request.value.authenticated)
        let schema = Fixture.file("TestSDKSchema.swift", in: generation)
        #expect(schema.contains("userInfo: Requests.userinfo"))
        // The runtime reads the ID token's sub through the SDK, which links SesameOpenID.
        #expect(
            schema.contains(
                """
                    @_spi(Generated) public static func idTokenSubject(ofValidated idToken: String) -> String? {
                        IDTokenClaims.subject(ofValidated: idToken)
                    }
                """))
        let operations = Fixture.file("Operations.swift", in: generation)
        #expect(operations.contains("///   `UserInfoRejection` when the response's `sub` is not the session's ID token's"))
        #expect(operations.components(separatedBy: "UserInfoRejection").count == 2, "only userinfo() documents it")

        // Without userInfo: no subject hook, no check.
        let plain = Fixture.generate(Self.files(userInfo: nil))
        #expect(plain.diagnostics.isEmpty, "\(plain.diagnostics)")
        #expect(!Fixture.file("TestSDKSchema.swift", in: plain).contains("idTokenSubject"))
        #expect(try #require(Fixture.validate(Self.files(userInfo: nil)).ir).runtimeDescription.openID?.userInfo == nil)
    }

    @Test func userInfoMistakesArePositioned() {
        // The value of userInfo starts on line 4, column 40 of sdk.yaml.
        #expect(
            Fixture.printed(Self.files(userInfo: "userInfo")) == [
                "Schema/sdk.yaml:4:40: error: unknown operation 'userInfo' for userInfo; did you mean 'userinfo'?"
            ])
        #expect(
            Fixture.printed(Self.files(auth: Self.auth("{ request: GET /userinfo, authenticated: true, response: Claims }"))) == [
                "Schema/sdk.yaml:4:40: error: the UserInfo operation 'userinfo' must be on the authorization server, the OpenID provider (OpenID Connect Core §5.3): add server: authorization to it"
            ])
        #expect(
            Fixture.printed(Self.files(auth: Self.auth("{ request: GET /userinfo, server: authorization, response: Claims }"))) == [
                "Schema/sdk.yaml:4:40: error: the UserInfo operation 'userinfo' must send the access token (OpenID Connect Core §5.3.1): add authenticated: true to it"
            ])
        let noSubject =
            "Schema/sdk.yaml:4:40: error: the UserInfo operation 'userinfo' must return a model of the models files with a required string property 'sub', which is compared with the ID token's (OpenID Connect Core §5.3.2)"
        for response in [
            "User", "OptionalSubject", "NumericSubject", "{ type: array, items: { $ref: \"#/Claims\" } }", "true", "{}",
            "{ type: object, required: [sub], properties: { sub: { type: string } } }",
        ] {
            let line = "{ request: GET /userinfo, server: authorization, authenticated: true, response: \(response) }"
            #expect(Fixture.printed(Self.files(auth: Self.auth(line))) == [noSubject], "\(response)")
        }
        // Without a response at all.
        #expect(
            Fixture.printed(Self.files(auth: Self.auth("{ request: GET /userinfo, server: authorization, authenticated: true }")))
                == [noSubject])
    }

    @Test func addingUserInfoIsAWarning() throws {
        let old = try #require(Fixture.validate(Self.files(userInfo: nil)).ir)
        let new = try #require(Fixture.validate(Self.files()).ir)
        let changes = SchemaDiff.compare(old: old, new: new)
        #expect(changes.map(\.kind) == ["openid.changed"], "\(changes)")
        #expect(changes.allSatisfy { $0.grade == .warning })
    }
}
