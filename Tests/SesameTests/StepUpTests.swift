import Foundation
import HTTPTypes
import OpenAPIRuntime
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// ``TestSchema`` whose rejection rule is any 401 (no `WWW-Authenticate` condition): the
/// loosest rule a schema may declare, under which a step-up challenge used to refresh.
enum AnyUnauthorizedSchema: SDKSchema {
    typealias Details = TestDetails
    typealias ServerError = TestServerError
    typealias Event = TestEvent

    static var description: SDKDescription {
        var description = TestRequests.description()
        description.credential.rejection = RejectionRule(status: 401)
        return description
    }
    static func userID(of details: TestDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
}

/// RFC 9470: a step-up challenge is a typed error, never a reason to refresh, and leaves
/// the session as it was.
@Suite struct StepUpTests {
    let notes = OperationRequest(TestRequests.notes)
    static let challenge =
        #"Bearer error="insufficient_user_authentication", error_description="MFA needed", acr_values="urn:mfa", max_age=120"#

    @Test(arguments: [HTTPResponse.Status.unauthorized, .forbidden])
    func aStepUpChallengeIsATypedErrorAndNoRefresh(status: HTTPResponse.Status) async throws {
        let env = TestEnvironment(AnyUnauthorizedSchema.self)
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let stored = try #require(try env.store.load())
        await env.backEnd.set { $0.notesChallenge = (status, Self.challenge) }
        await #expect(
            throws: SesameError.stepUpRequired(operation: "listNotes", challenge: StepUpChallenge(acrValues: ["urn:mfa"], maxAge: 120))
        ) {
            try await env.service.perform(notes)
        }
        #expect(await env.backEnd.count("/oauth/token") == 0)
        #expect(await env.backEnd.count("/notes") == 1)
        #expect(await env.service.state.isAuthenticated)
        #expect(try env.store.load() == stored)
    }

    @Test func theMiddlewareReturnsAStepUpChallengeUntouched() async throws {
        let env = TestEnvironment(AnyUnauthorizedSchema.self)
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        let sent = LogCapture()
        let (response, _) = try await env.service.credentialMiddleware.intercept(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil,
            baseURL: URL(string: "https://auth.test")!, operationID: "x"
        ) { request, _, _ in
            sent.append(request.headerFields[.authorization] ?? "none")
            return (HTTPResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: Self.challenge]), nil)
        }
        #expect(response.status == .unauthorized)
        #expect(StepUpChallenge(headerFields: response.headerFields)?.acrValues == ["urn:mfa"])
        #expect(sent.text == "Bearer at-1")  // sent once, never retried
        #expect(await env.backEnd.count("/oauth/token") == 0)
    }

    @Test func anyOtherUnauthorizedStillRefreshesUnderThatRule() async throws {
        // The control: the same schema refreshes on a plain 401, so the test above can fail.
        let env = TestEnvironment(AnyUnauthorizedSchema.self)
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        await env.backEnd.revokeAccessTokens()
        _ = try await env.service.perform(notes)
        #expect(await env.backEnd.count("/oauth/token") == 1)
    }

    @Test func aChallengeFromAnEndpointSentWithoutTheSessionIsAnErrorResponse() async throws {
        // A sign-in step (no session credential) answered with a step-up challenge: about no session.
        let transport = RoutingTransport()
        await transport.setRoute { sent in
            sent.path == "/auth/guest" ? .init(status: 401, headerFields: [.wwwAuthenticate: Self.challenge]) : nil
        }
        let service = makeService(transport: transport, clock: ManualClock())
        let error = await #expect(throws: (any Error).self) { try await service.authenticate(with: TestSingleStepMethod.guest) }
        #expect(error is TestServerError, "\(String(describing: error))")
        #expect(await service.state == .unauthenticated)
    }

    @Test func aChallengeFromAnotherOriginAfterARedirectIsAnErrorResponse() async throws {
        // The API redirects off its origin (the credential dropped); that origin's challenge
        // is not the API asking this session for a step-up.
        let transport = RoutingTransport()
        await transport.setRoute { sent in
            if sent.url == "https://auth.test/notes" { return .redirect(307, to: "https://elsewhere.test/moved") }
            if sent.url.hasPrefix("https://elsewhere.test/") { return .init(status: 401, headerFields: [.wwwAuthenticate: Self.challenge]) }
            return nil
        }
        let service = makeService(transport: transport, clock: ManualClock())
        _ = try await service.authenticate(with: TestSingleStepMethod.guest)
        let error = await #expect(throws: (any Error).self) { try await service.perform(notes) }
        #expect(error is TestServerError, "\(String(describing: error))")
        let hop = await transport.sent.last { $0.url.hasPrefix("https://elsewhere.test/") }
        #expect(hop != nil)
        #expect(hop?.authorization == nil)
        #expect(await service.state.isAuthenticated)
    }

    @Test func theErrorSaysWhatIsAskedAndNothingSecret() {
        let error = SesameError.stepUpRequired(operation: "notes", challenge: StepUpChallenge(acrValues: ["urn:mfa"], maxAge: 120))
        #expect(error.description == "notes: step-up required, acr_values urn:mfa, max_age 120s")
    }
}
