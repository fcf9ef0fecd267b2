import Foundation
@testable import SesameGenerator
import Testing
@_spi(Generated) import SesameDescription

/// The device authorization grant (RFC 8628) as a step kind: what the generator accepts,
/// the description it writes, and each mistake at its line and column.
@Suite struct DeviceStepTests {
    static let deviceAuth = """
        methods:
          device:
            parameters: { scope: { type: string, default: profile } }
            steps:
              - device:
                  request: POST /oauth/device_authorization
                  parameters: { scope: "{scope}" }
                request: POST /oauth/token
                encoding: form
                clientAuthentication: basic
                body: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: "{deviceCode}" }
                response: Token
        operations:
          me: { request: GET /me, response: User }
        """

    @Test func deviceStepRendersItsDeviceAuthorizationRequest() throws {
        let files = ["sdk.yaml": ServerAndBrowserTests.twoServers, "auth.yaml": Self.deviceAuth]
        let validation = Fixture.validate(files)
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        let ir = try #require(validation.ir)
        let step = try #require(ir.methods.first?.runtimeDescription.steps.first)
        #expect(
            step.kind
                == .deviceAuthorization(
                    DeviceAuthorization(
                        request: RequestDescription(
                            name: "device.authenticate.deviceAuthorization", method: .post, path: "/oauth/device_authorization",
                            authenticated: false, encoding: .form, clientAuthentication: .basic, server: .authorization),
                        parameters: [TemplateField("scope", .variable(.parameter("scope")))])))
        // The token request goes to the authorization server and reads the device code,
        // which the runtime supplies: it is no parameter of the method.
        #expect(step.request.server == .authorization)
        #expect(step.body.map(\.value).contains(.variable(.deviceCode)))
        let generation = Fixture.generate(files)
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        #expect(Fixture.file("Methods.swift", in: generation).contains("case device(scope: String = \"profile\")"))
        // The generic printer writes the new type without a renderer of its own.
        let schema = Fixture.file("TestSDKSchema.swift", in: generation)
        #expect(schema.contains(".deviceAuthorization("))
        #expect(schema.contains("DeviceAuthorization("))
        #expect(schema.contains(".variable(.deviceCode)"))
    }

    @Test func deviceStepMistakesArePositioned() {
        let auth = """
            methods:
              device:
                steps:
                  - device:
                      request: GET /oauth/device/{id}
                      parameters: { client_id: app, scope: "{scop}" }
                    browser:
                      request: GET /oauth/authorize
                      redirectURI: com.example.app://oauth/callback
                    request: POST /oauth/token
                    encoding: json
                    body: { grant_type: device_code }
                    response: Token
              later:
                steps:
                  - request: POST /oauth/token
                    body: { device_code: "{deviceCode}" }
                    response: Token
              plain:
                steps:
                  - device: { request: POST /oauth/device_authorization }
                    request: POST /oauth/token
                    body: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: "{deviceCode}" }
                    response: Token
            operations:
              me: { request: GET /me, response: User }
            """
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:4:9: error: a step is a browser step or a device step, not both: remove browser or device",
                "Schema/auth.yaml:5:20: error: the device authorization request must be a POST request (RFC 8628 §3.1)",
                "Schema/auth.yaml:5:20: error: the device authorization request's path cannot have parameters",
                "Schema/auth.yaml:6:36: error: the runtime sets 'client_id' of the device authorization request itself; remove it from parameters",
                "Schema/auth.yaml:6:48: error: no parameter, need or earlier step provides '{scop}'",
                "Schema/auth.yaml:11:19: error: the token request of a device step is form-encoded (RFC 8628 §3.4): use encoding: form",
                // With both kinds, the browser's values are what the token request can read.
                "Schema/auth.yaml:12:9: error: the token request of a browser step must send {code}, {codeVerifier}, {redirectURI} (RFC 6749 §4.1.3, RFC 7636 §4.5)",
                "Schema/auth.yaml:12:9: error: the token request of a device step must send {deviceCode} (RFC 8628 §3.4)",
                "Schema/auth.yaml:12:9: error: the token request of a device step must send grant_type: urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4)",
                "Schema/auth.yaml:17:30: error: no parameter, need or earlier step provides '{deviceCode}'",
                "Schema/auth.yaml:23:9: error: the token request of a device step is form-encoded (RFC 8628 §3.4): add encoding: form",
            ])
    }

    @Test func theGrammarDeclaresTheDeviceKey() throws {
        let step = try #require(Grammar.all.first { $0.name == "step" })
        #expect(step.key("device") != nil)
        let device = try #require(Grammar.all.first { $0.name == "device" })
        #expect(device.key("request") != nil && device.key("parameters") != nil && device.key("server") != nil)
    }
}
