@_spi(Generated) import SesameDescription
@testable import SesameGenerator
import Testing

/// `browser.pushed`: the pushed authorization request endpoint (RFC 9126).
@Suite struct PushedAuthorizationSchemaTests {
    static func auth(_ pushed: String) -> String {
        ServerAndBrowserTests.browserAuth.replacingOccurrences(
            of: "          request: GET /oauth/authorize\n", with: "          request: GET /oauth/authorize\n          pushed: \(pushed)\n")
    }

    @Test func thePushedRequestIsAFormPostWithTheStepsClientAuthentication() throws {
        let validation = Fixture.validate(["sdk.yaml": ServerAndBrowserTests.twoServers, "auth.yaml": Self.auth("POST /oauth/par")])
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        let step = try #require(validation.ir?.methods.first?.steps.first?.value)
        let pushed = try #require(step.browser?.pushed)
        #expect(pushed.path == "/oauth/par")
        #expect(pushed.method == .post)
        #expect(pushed.encoding == .form)
        #expect(pushed.server == .authorization)
        #expect(pushed.clientAuthentication == .basic)
    }

    @Test func aBrowserStepWithoutItGeneratesAsBefore() {
        let generation = Fixture.generate(["sdk.yaml": ServerAndBrowserTests.twoServers, "auth.yaml": ServerAndBrowserTests.browserAuth])
        #expect(!Fixture.file("TestSDKSchema.swift", in: generation).contains("pushed:"))
        let pushed = Fixture.generate(["sdk.yaml": ServerAndBrowserTests.twoServers, "auth.yaml": Self.auth("POST /oauth/par")])
        #expect(Fixture.file("TestSDKSchema.swift", in: pushed).contains("pushed: RequestDescription("))
    }

    @Test func aPushedRequestThatIsNoPostIsAnError() {
        let printed = Fixture.printed(["sdk.yaml": ServerAndBrowserTests.twoServers, "auth.yaml": Self.auth("GET /oauth/par")])
        #expect(
            printed.contains { $0.contains("error: the pushed authorization request must be a POST request (RFC 9126 §2.1)") }, "\(printed)"
        )
    }
}
