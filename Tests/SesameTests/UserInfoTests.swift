import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
@_spi(Generated) import SesameDescription
import Testing

/// The schema's UserInfo operation (`openID.userInfo`, OpenID Connect Core §5.3): its
/// response is returned only when its `sub` is the `sub` of the ID token the session holds
/// (§5.3.2); otherwise a typed error, nothing returned and nothing changed. The end-to-end
/// tests (Reference/) cover it over HTTP with the generated SDK; these cover the runtime's
/// rule alone, against ``TwoServerTransport``'s `GET /userinfo`.
@Suite struct UserInfoTests {
    /// ``TwoServerSchema`` with a UserInfo operation on its authorization server.
    enum UserInfoSchema: SDKSchema {
        typealias Details = TestDetails
        typealias ServerError = TestServerError
        typealias Event = TestEvent

        static let userInfo = RequestDescription(
            name: "userinfo", method: .get, path: "/userinfo", authenticated: true, server: .authorization)
        static var description: SDKDescription {
            var description = TwoServerSchema.description
            description.openID = OpenIDDescription(keys: "/jwks", userInfo: userInfo)
            return description
        }
        static func userID(of details: TestDetails) -> String { details.uid }
        static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
        /// The generated SDK reads the validated token's `sub` with SesameOpenID's parser; the
        /// tokens here are opaque names of their subject.
        static func idTokenSubject(ofValidated idToken: String) -> String? {
            idToken.hasPrefix("id-token-of-") ? String(idToken.dropFirst("id-token-of-".count)) : nil
        }
    }

    let transport = TwoServerTransport()
    let logs = LogCapture()

    func service() -> AuthenticationService<UserInfoSchema> {
        let transport = self.transport
        let browser = ScriptedBrowser { url in
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(query["state"] ?? "")")!
        }
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport, logger: logs.logger(),
                receivesServerEvents: false, browser: browser, idTokenValidator: EndSessionTests.AcceptingValidator()))
    }

    /// A session signed in in the browser, holding the ID token of `ada`.
    func signedIn() async throws -> AuthenticationService<UserInfoSchema> {
        let service = service()
        await transport.setIDToken("id-token-of-ada")
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        return service
    }

    @Test func theResponseOfTheIDTokensSubjectIsReturned() async throws {
        let service = try await signedIn()
        let response = try await service.perform(OperationRequest(UserInfoSchema.userInfo))
        #expect(response.status == 200)
        #expect(try response.decode(JSONValue.self) == .object(["sub": .string("ada"), "name": .string("Ada")]))
        // The access token went to the authorization server, for this request.
        let sent = try #require(await transport.sent.last)
        #expect(sent.url == "https://idp.test/userinfo")
        #expect(sent.headerFields[.authorization]?.hasPrefix("Bearer ") == true)
    }

    @Test func anotherSubjectIsRefusedAndNothingChanges() async throws {
        let service = try await signedIn()
        let before = await service.session
        await transport.setUserInfo(#"{"sub":"eve","name":"Eve"}"#)
        await #expect(throws: UserInfoRejection.subjectMismatch(operation: "userinfo")) {
            try await service.perform(OperationRequest(UserInfoSchema.userInfo))
        }
        #expect(await service.session == before)
        #expect(!logs.text.contains("Eve") && !logs.text.contains("eve"))
    }

    @Test func aBodyWithoutAStringSubIsMalformed() async throws {
        let service = try await signedIn()
        for body in [#"{"name":"Ada"}"#, #"{"sub":42}"#, #"["ada"]"#, "not json"] {
            await transport.setUserInfo(body)
            do {
                _ = try await service.perform(OperationRequest(UserInfoSchema.userInfo))
                Issue.record("\(body) was returned")
            } catch SesameError.decoding(let operation, _) {
                #expect(operation == "userinfo")
            }
        }
        #expect(await service.state.isAuthenticated)
    }

    @Test func aSessionWithoutAnIDTokenGetsNoUserInfo() async throws {
        let service = service()
        _ = try await service.authenticate(with: TwoServerMethod.password)
        #expect(await service.session?.credential.idToken == nil)
        let sentBefore = await transport.sent.count
        await #expect(throws: UserInfoRejection.noIDToken(operation: "userinfo")) {
            try await service.perform(OperationRequest(UserInfoSchema.userInfo))
        }
        // Refused before sending: the access token did not go to the provider for nothing.
        #expect(await transport.sent.count == sentBefore)
        #expect(await !transport.sent.contains { $0.path == "/userinfo" })
    }

    @Test func anotherOperationIsNotChecked() async throws {
        let service = try await signedIn()
        await transport.setUserInfo(#"{"sub":"eve"}"#)
        // The same request under another name is not the schema's UserInfo operation.
        let other = RequestDescription(name: "profile", method: .get, path: "/userinfo", authenticated: true, server: .authorization)
        #expect(try await service.perform(OperationRequest(other)).status == 200)
    }
}
