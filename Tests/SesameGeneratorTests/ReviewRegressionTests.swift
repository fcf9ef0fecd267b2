import Testing
import SesameGenerator

/// Schemas that once validated but generated Swift that did not compile, or that were
/// silently misread: each is now an error at its position, or means what it says.
@Suite struct ReviewRegressionTests {
    private func printed(models extra: String) -> [String] {
        Fixture.printed(["models.yaml": Fixture.models + "\n" + extra])
    }

    @Test func mixedEnumValuesAreAnError() {
        #expect(printed(models: "Mixed: { enum: [a, 1] }") ==
            ["Schema/models.yaml:13:16: error: enum mixes strings and integers; declare 'type: string' to treat every value as text"])
        // With a declared string type, 1 is the text "1".
        #expect(printed(models: "Mixed: { type: string, enum: [a, 1] }").isEmpty)
    }

    @Test func defaultOnAFormattedStringIsAnError() {
        #expect(printed(models: "Stamp: { type: object, properties: { at: { type: string, format: date-time, default: \"2020-01-01T00:00:00Z\" } } }") ==
            ["Schema/models.yaml:13:86: error: default is not supported on a date-time string"])
    }

    @Test func defaultMustBeAValueOfTheEnum() {
        let yaml = "Color: { type: string, enum: [red, blue] }\nPaint: { type: object, properties: { color: { $ref: \"#/Color\", default: green } } }"
        #expect(printed(models: yaml) == ["Schema/models.yaml:14:73: error: default must be one of the enum's values (red, blue)"])
        let inline = "Paint: { type: object, properties: { color: { type: string, enum: [red], default: blue } } }"
        #expect(printed(models: inline) == ["Schema/models.yaml:13:83: error: default must be one of the enum's values (red)"])
    }

    @Test func defaultOfTheWrongTypeIsAnError() {
        #expect(printed(models: "Limits: { type: object, properties: { max: { type: integer, default: lots } } }") ==
            ["Schema/models.yaml:13:70: error: default does not match the type integer"])
        let auth = Fixture.auth + "\nmethods:\n  pw:\n    parameters: { scope: { type: string, default: [a] } }\n    steps: [ { request: POST /t, response: Token } ]\n"
        #expect(Fixture.printed(["auth.yaml": auth]) == ["Schema/auth.yaml:5:51: error: default does not match the type string"])
    }

    @Test func constOfTheWrongTypeIsAnError() {
        #expect(printed(models: "Kind: { type: object, properties: { kind: { type: integer, const: text } } }") ==
            ["Schema/models.yaml:13:67: error: const does not match the type integer"])
    }

    @Test func modelsThatWouldShadowSwiftTypesAreRenamed() throws {
        let generation = Fixture.generate(["models.yaml": Fixture.models + "\nDate: { type: object, properties: { at: { type: string, format: date-time } } }\n"])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let swift = Fixture.file("Models/DateModel.swift", in: generation)
        #expect(swift.contains("public struct DateModel: Codable, Hashable, Sendable {"))
        #expect(swift.contains("public var at: Date?"))
    }

    @Test func modelThatClashesWithAGeneratedTypeIsAnError() {
        #expect(printed(models: "TestSDKError: { type: string }") ==
            ["Schema/models.yaml:13:1: error: model 'TestSDKError' would be the Swift type TestSDKError, which the SDK itself declares; rename it"])
    }

    @Test func lastStepMustReturnTheTokenModel() {
        let auth = Fixture.auth + "\nmethods:\n  guest: { steps: [ { request: POST /g, response: User } ] }\n"
        #expect(Fixture.printed(["auth.yaml": auth]) == ["Schema/auth.yaml:4:21: error: the last step of 'guest' must return the token model 'Token', not 'User'"])
    }

    @Test func credentialRulesAreChecked() {
        let badStatus = Fixture.sdk.replacingOccurrences(of: "status: 401", with: "status: 200")
        #expect(Fixture.printed(["sdk.yaml": badStatus]) == ["Schema/sdk.yaml:5:23: error: the rejection status must be a client error (400–499), found 200"])
        let noToken = Fixture.sdk + "\n  apply: { header: Authorization, format: Bearer }\n"
        #expect(Fixture.printed(["sdk.yaml": noToken]) == ["Schema/sdk.yaml:8:43: error: the credential format must hold {accessToken}"])
    }

    @Test func allOfPropertiesAreVisibleToStepPlaceholders() {
        let models = Fixture.models + """

        Base: { type: object, required: [challengeId], properties: { challengeId: { type: string } } }
        Challenge: { allOf: [ { $ref: "#/Base" }, { type: object, properties: { channel: { type: string } } } ] }
        """
        let auth = Fixture.auth + """

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

    @Test func queryInAPathIsAnError() {
        let auth = "operations:\n  me: { request: GET /me, response: User }\n  search: { request: GET /search?q=x }\n"
        #expect(Fixture.printed(["auth.yaml": auth]) ==
            ["Schema/auth.yaml:3:22: error: the path of the request of 'search' must not hold a query or a fragment; declare query parameters with 'in: query'"])
    }

    @Test func swappedLettersStillGetASuggestion() {
        let models = Fixture.models.replacingOccurrences(of: "required: [id]", with: "required: [di]")
        #expect(Fixture.printed(["models.yaml": models]) ==
            ["Schema/models.yaml:10:14: error: required property 'di' is not declared in properties; did you mean 'id'?"])
    }

    @Test func anOperationThatFailsIsNotReportedAgainWhereItIsUsed() {
        let auth = "operations:\n  me: { request: GET /me, response: User, bogus: 1 }\n"
        #expect(Fixture.printed(["auth.yaml": auth]) == ["Schema/auth.yaml:2:43: error: unknown key 'bogus' in operation 'me'"])
    }
}
