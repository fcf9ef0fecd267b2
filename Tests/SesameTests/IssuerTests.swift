import Foundation
import HTTPTypes
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// ``TwoServerSchema`` whose authorization server declares its issuer and that it sends
/// `iss` in its authorization responses (RFC 9207).
enum IssuerSchema: SDKSchema {
    typealias Details = TestDetails
    typealias ServerError = TestServerError
    typealias Event = TestEvent

    static var description: SDKDescription {
        var description = TwoServerSchema.description
        description.authorizationIssuer = AuthorizationServerIssuer(issuer: "https://idp.test", sentInResponses: true)
        return description
    }
    static func userID(of details: TestDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
}

/// The `iss` of every authorization response is compared with the declared issuer before
/// anything else is done with it (RFC 9207 §2.4): a mismatch, or a missing `iss` from a
/// server declared to send one, is a typed error, and the code is never exchanged.
@Suite struct IssuerTests {
    let transport = TwoServerTransport()

    func service<Schema: SDKSchema>(
        _ schema: Schema.Type, iss: String?, error: String? = nil, issuer: AuthorizationServerIssuer? = nil
    ) -> AuthenticationService<Schema> where Schema.Details == TestDetails {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            let query = queryParameters(of: url)
            guard let challenge = query["code_challenge"], let state = query["state"] else { return nil }
            var answer = "code=\(await transport.issueCode(challenge: challenge))"
            if let error { answer = "error=\(error)" }
            let issued = iss.map { "&iss=\(FormField.encode($0))" } ?? ""
            return URL(string: "com.example.app://oauth/callback?\(answer)&state=\(state)\(issued)")
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                receivesServerEvents: false, browser: browser, authorizationServerIssuer: issuer))
    }

    /// Signs in with `service` and expects `failure` with nothing sent and nothing changed.
    func expectRefused<Schema: SDKSchema>(
        _ service: AuthenticationService<Schema>, _ failure: BrowserSignInError, sourceLocation: SourceLocation = #_sourceLocation
    ) async where Schema.Details == TestDetails {
        await #expect(throws: failure, sourceLocation: sourceLocation) { try await service.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await transport.sent.isEmpty, "a token request was sent", sourceLocation: sourceLocation)
        #expect(await service.state == .unauthenticated, sourceLocation: sourceLocation)
    }

    @Test func theDeclaredIssuerIsAccepted() async throws {
        let details = try await service(IssuerSchema.self, iss: "https://idp.test").authenticate(with: TwoServerMethod.oauth2)
        #expect(details.uid == "u3")
        #expect(await transport.sent.map(\.path) == ["/oauth/token", "/me"])
    }

    @Test func anotherServersIssuerIsRefusedBeforeTheCodeIsExchanged() async {
        await expectRefused(
            service(IssuerSchema.self, iss: "https://evil.test"),
            .issuerMismatch(expected: "https://idp.test", received: "https://evil.test"))
    }

    @Test func theComparisonIsExact() async {
        // No normalisation (RFC 9207 §2.4): a trailing slash or another case is another issuer.
        for iss in ["https://idp.test/", "HTTPS://idp.test", "https://IDP.test", " https://idp.test"] {
            await expectRefused(
                service(IssuerSchema.self, iss: iss), .issuerMismatch(expected: "https://idp.test", received: iss))
        }
    }

    @Test func aMissingIssuerIsRefusedWhenTheServerSendsOne() async {
        await expectRefused(service(IssuerSchema.self, iss: nil), .issuerMismatch(expected: "https://idp.test", received: nil))
    }

    @Test func aMissingIssuerIsAcceptedWhenTheServerIsNotDeclaredToSendOne() async throws {
        let issuer = AuthorizationServerIssuer(issuer: "https://idp.test", sentInResponses: false)
        let service = service(TwoServerSchema.self, iss: nil, issuer: issuer)
        #expect(try await service.authenticate(with: TwoServerMethod.oauth2).uid == "u3")
    }

    @Test func anErrorResponseIsCheckedToo() async {
        // A wrong `iss` on an error response: the error may be another server's (§2.4).
        await expectRefused(
            service(IssuerSchema.self, iss: "https://evil.test", error: "access_denied"),
            .issuerMismatch(expected: "https://idp.test", received: "https://evil.test"))
        // The right `iss` on an error response: the error itself.
        let denied = service(IssuerSchema.self, iss: "https://idp.test", error: "access_denied")
        await #expect(
            throws: TestServerError(response: ServerErrorResponse(status: 302, code: "access_denied", message: nil, category: .client))
        ) {
            try await denied.authenticate(with: TwoServerMethod.oauth2)
        }
        #expect(await transport.sent.isEmpty)
    }

    @Test func theConfigurationReplacesTheSchemasIssuer() async throws {
        let staging = AuthorizationServerIssuer(issuer: "https://staging.idp.test", sentInResponses: true)
        await expectRefused(
            service(IssuerSchema.self, iss: "https://idp.test", issuer: staging),
            .issuerMismatch(expected: "https://staging.idp.test", received: "https://idp.test"))
        let details = try await service(IssuerSchema.self, iss: "https://staging.idp.test", issuer: staging)
            .authenticate(with: TwoServerMethod.oauth2)
        #expect(details.uid == "u3")
    }

    @Test func withoutADeclaredIssuerIssIsNotChecked() async throws {
        // Nothing to compare with: documented in docs/runtime.md ("Issuer").
        let details = try await service(TwoServerSchema.self, iss: "https://anything.test").authenticate(with: TwoServerMethod.oauth2)
        #expect(details.uid == "u3")
    }

    @Test func theErrorSaysWhichIssuerItExpected() {
        #expect(
            BrowserSignInError.issuerMismatch(expected: "https://idp.test", received: nil).description
                == "the redirect has no issuer (iss), which the authorization server 'https://idp.test' sends; its code was not used")
        #expect(
            BrowserSignInError.issuerMismatch(expected: "https://idp.test", received: "https://evil.test").description
                == "the redirect's issuer 'https://evil.test' is not the authorization server's 'https://idp.test'; its code was not used")
    }
}
