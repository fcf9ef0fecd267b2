@_spi(Generated) import SesameDescription
@testable import SesameGenerator
import Testing

/// sdk.yaml's `credential: { details: idToken, userID: sub }` (issue 26): the ID token's claims
/// (`openID.claims`) as the user's details and id, what reaches the runtime and the generated
/// code, each mistake at its position, and what `sesame diff` says of the switch.
@Suite struct ClaimsDetailsSchemaTests {
    /// `OpenIDSchemaTests.sdk` with `openID` as `block` and the credential's details as `details`.
    static func sdk(openID block: String = "{ keys: /oauth/jwks, claims: Claims }", details: String = "details: idToken") -> String {
        OpenIDSchemaTests.sdk(openID: block).replacingOccurrences(of: "details: me\n  userID: id", with: details)
    }

    static func files(
        sdk: String = sdk(), auth: String = OpenIDSchemaTests.openIDAuth
    ) -> [String: String?] {
        ["sdk.yaml": sdk, "auth.yaml": auth, "models.yaml": OpenIDUserInfoSchemaTests.models]
    }

    @Test func theClaimsAreTheDetailsInTheRuntimeAndTheGeneratedCode() throws {
        let validation = Fixture.validate(Self.files())
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        let ir = try #require(validation.ir)
        #expect(ir.runtimeDescription.credential.details == nil)
        #expect(ir.runtimeDescription.credential.userIDField == "sub")
        #expect(ir.credential.detailsClaims?.schemaName == "Claims")
        let generation = Fixture.generate(Self.files())
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let schema = Fixture.file("TestSDKSchema.swift", in: generation)
        #expect(schema.contains("    public typealias Details = Claims\n"))
        #expect(schema.contains("    public static func userID(of details: Details) -> String {\n        details.sub\n    }"))
        #expect(
            schema.contains(
                """
                    @_spi(Generated) public static func details(fromValidatedIDToken idToken: String) throws -> Details {
                        do {
                            return try IDTokenClaims.decode(Details.self, fromValidated: idToken)
                        } catch {
                            throw SesameError.decoding(operation: "id_token", reason: error.reason)
                        }
                    }
                """), "\(schema)")
        #expect(!schema.contains("details: Requests."))
        // Written out, sub is the same.
        let named = try #require(Fixture.validate(Self.files(sdk: Self.sdk(details: "details: idToken\n  userID: sub"))).ir)
        #expect(named.runtimeDescription == ir.runtimeDescription)
        // A details operation keeps its request, and the SDK has no claims hook.
        let operation = Fixture.generate(Self.files(sdk: Self.sdk(details: "details: me\n  userID: id")))
        #expect(operation.diagnostics.isEmpty, "\(operation.diagnostics)")
        let plain = Fixture.file("TestSDKSchema.swift", in: operation)
        #expect(plain.contains("details: Requests.me"))
        #expect(!plain.contains("fromValidatedIDToken"))
    }

    @Test func claimsDetailsMistakesArePositioned() {
        // Without openID.claims: nothing to decode the claims into.
        #expect(
            Fixture.printed(Self.files(sdk: Self.sdk(openID: "{ keys: /oauth/jwks }"))) == [
                "Schema/sdk.yaml:13:12: error: details: idToken needs openID.claims, the model the ID token's claims decode into (openID: { claims: OpenIDClaims })"
            ])
        // A user id that is no claim of the model, or not a required string.
        #expect(
            Fixture.printed(Self.files(sdk: Self.sdk(details: "details: idToken\n  userID: email"))) == [
                "Schema/sdk.yaml:14:11: error: the claims model 'Claims' has no property 'email' to be the user id"
            ])
        #expect(
            Fixture.printed(Self.files(sdk: Self.sdk(details: "details: idToken\n  userID: name"))) == [
                "Schema/sdk.yaml:14:11: error: the user id 'name' must be a required, non-null string property of the claims model 'Claims'"
            ])
        #expect(
            Fixture.printed(Self.files(sdk: Self.sdk(openID: "{ keys: /oauth/jwks, claims: NumericSubject }"))) == [
                "Schema/models.yaml:27:5: error: the user id 'sub' must be a required, non-null string property of the claims model 'NumericSubject'"
            ])
        #expect(
            Fixture.printed(
                Self.files(
                    sdk: Self.sdk(openID: "{ keys: /oauth/jwks, claims: OptionalSubject }", details: "details: idToken\n  userID: sub"))
            ) == [
                "Schema/sdk.yaml:14:11: error: the user id 'sub' must be a required, non-null string property of the claims model 'OptionalSubject'"
            ])
        // A method that is no OpenID Connect sign-in returns no ID token to read.
        #expect(
            Fixture.printed(Self.files(auth: ServerAndBrowserTests.browserAuth)) == [
                "Schema/auth.yaml:5:9: error: 'oauth2' is no OpenID Connect sign-in, but sdk.yaml's credential reads the user's details from the ID token (details: idToken): end it with a browser or device step with openID: true, or name a details operation"
            ])
        // idToken is reserved there: no operation may be named so.
        let reserved = OpenIDSchemaTests.openIDAuth + "\n  idToken: { request: GET /id, response: User }"
        #expect(
            Fixture.printed(Self.files(auth: reserved)) == [
                "Schema/sdk.yaml:13:12: error: details: idToken reads the ID token's claims, so no operation can be named 'idToken': rename it"
            ])
    }

    /// A device sign-in (RFC 8628) with `openID: true`, beside the browser one: with `openid`
    /// in its scope, its token response carries an ID token whose claims are the details.
    static func deviceMethod(openID: Bool) -> String {
        """
          device:
            steps:
              - device:
                  request: POST /oauth/device_authorization
                  parameters: { scope: "openid profile" }
        \(openID ? "          openID: true\n" : "")        request: POST /oauth/token
                server: authorization
                encoding: form
                clientAuthentication: basic
                body: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: "{deviceCode}" }
                response: Token

        """
    }

    static func authWithDevice(openID: Bool) -> String {
        OpenIDSchemaTests.openIDAuth.replacingOccurrences(of: "operations:\n", with: deviceMethod(openID: openID) + "operations:\n")
    }

    @Test func aDeviceSignInWithOpenIDReadsTheDetailsFromItsIDToken() throws {
        let generation = Fixture.generate(Self.files(auth: Self.authWithDevice(openID: true)))
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let ir = try #require(Fixture.validate(Self.files(auth: Self.authWithDevice(openID: true))).ir)
        let device = try #require(ir.methods.first { $0.name == "device" }?.steps.last?.value.deviceAuthorization)
        #expect(device.openID)
        // The browser step's flag and the device step's.
        #expect(Fixture.file("TestSDKSchema.swift", in: generation).components(separatedBy: "openID: true").count == 3)
        // Without openID: true its response carries no ID token to read.
        let printed = Fixture.printed(Self.files(auth: Self.authWithDevice(openID: false)))
        #expect(printed.count == 1, "\(printed)")
        #expect(printed.first?.contains("error: 'device' is no OpenID Connect sign-in") == true, "\(printed)")
        // A device step without the flag prints as before: no `openID:` argument (the
        // browser step keeps its own).
        let plain = Fixture.generate(
            Self.files(sdk: Self.sdk(details: "details: me\n  userID: id"), auth: Self.authWithDevice(openID: false)))
        #expect(plain.diagnostics.isEmpty, "\(plain.diagnostics)")
        #expect(Fixture.file("TestSDKSchema.swift", in: plain).components(separatedBy: "openID: true").count == 2)
        // Turning the device step into an OpenID Connect sign-in is a warning for shipped apps.
        let old = try #require(
            Fixture.validate(Self.files(sdk: Self.sdk(details: "details: me\n  userID: id"), auth: Self.authWithDevice(openID: false))).ir)
        let new = try #require(
            Fixture.validate(Self.files(sdk: Self.sdk(details: "details: me\n  userID: id"), auth: Self.authWithDevice(openID: true))).ir)
        let changes = SchemaDiff.compare(old: old, new: new)
        #expect(changes.map(\.kind) == ["step.openid-changed"], "\(changes)")
        #expect(changes.first?.grade == .warning)
    }

    @Test func switchingTheDetailsSourceIsBreaking() throws {
        let operation = try #require(Fixture.validate(Self.files(sdk: Self.sdk(details: "details: me\n  userID: id"))).ir)
        let claims = try #require(Fixture.validate(Self.files()).ir)
        let changes = SchemaDiff.compare(old: operation, new: claims)
        #expect(changes.map(\.kind).sorted() == ["credential.details-source-changed", "credential.user-id-changed"], "\(changes)")
        #expect(changes.allSatisfy { $0.grade == .breaking })
        #expect(SchemaDiff.compare(old: claims, new: claims).isEmpty)
        let back = SchemaDiff.compare(old: claims, new: operation)
        #expect(back.map(\.kind).sorted() == ["credential.details-source-changed", "credential.user-id-changed"], "\(back)")
    }
}
