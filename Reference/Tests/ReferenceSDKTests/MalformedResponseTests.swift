import Foundation
import HTTPTypes
import ReferenceSDK
import ReferenceSDKTestSupport
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// Every response the runtime reads (each operation of the reference SDK, each sign-in step,
/// the details read during a sign-in, the refresh) answered with a malformed body, over an
/// in-memory back-end: the failure is a typed error (`SesameError.decoding`, or the SDK's
/// `ReferenceSDKError` for an error status), the authentication state, the saved session and
/// the credential are unchanged, and neither the error nor the logs echo a secret from the
/// body or a token the back-end issued.
///
/// The bodies are large (10 MB, 6 × 1 MiB, 100,000 nested arrays) and take seconds of CPU
/// to build: each is built on a thread of its own (``onOwnThread(_:)``), never on Swift's
/// cooperative pool, and the cases run one at a time (`.serialized`), so that the suite holds
/// at most one of the pool's threads (reading a body is the runtime's work, and stays there).
/// Run in parallel on the pool, its 660 cases held both threads of a 2-core machine for
/// half a minute: the event streams' readers and the reference server's handlers of the
/// end-to-end suites waited over 20 s for a thread, and their events arrived too late.
@Suite(.serialized) struct MalformedResponseTests {
    /// A token-looking value that every malformed body carries somewhere.
    static let secret = "eyJhbGciOiJIUzI1NiJ9.bWFsZm9ybWVkLWJvZHk.c2VjcmV0LXNpZ25hdHVyZS0xMjM0NQ"

    // MARK: 2xx bodies

    @Test(arguments: MalformedResponseTarget.allCases, MalformedBody.allCases)
    func aMalformedSuccessBodyIsADecodingErrorThatChangesNothing(_ target: MalformedResponseTarget, _ body: MalformedBody) async throws {
        let world = try await MalformedResponseWorld.signedIn()
        await world.prepare(target)
        let before = try await world.snapshot()
        await world.backEnd.answerNext(target.route, with: try await onOwnThread { body.answer(for: target) })

        let failure = await thrownError { try await target.run(on: world) }

        if target.accepts(body) {
            #expect(failure == nil, "\(target) refused \(body): \(String(describing: failure))")
        } else {
            let error = try #require(failure, "\(target) accepted \(body)")
            guard case SesameError.decoding(let operation, let reason) = error else {
                Issue.record("expected SesameError.decoding, got \(type(of: error)): \(error)")
                return
            }
            #expect(operation == target.requestName)
            if body == .tenMegabytes { #expect(reason == "$: the response is larger than 8388608 bytes") }
            #expect(await world.service.ongoingAuthentication == nil)
            await world.expectNoSecret(in: error)
        }
        #expect(await !world.backEnd.hasPendingAnswers, "the malformed answer was never requested")
        try await world.expectUnchanged(since: before, after: target)
    }

    // MARK: Error bodies

    @Test(arguments: MalformedResponseTarget.allCases, MalformedBody.allCases)
    func aMalformedErrorBodyIsTheSDKsErrorWithItsStatus(_ target: MalformedResponseTarget, _ body: MalformedBody) async throws {
        let world = try await MalformedResponseWorld.signedIn()
        await world.prepare(target)
        let before = try await world.snapshot()
        var answer = try await onOwnThread { body.answer(for: target) }
        answer.status = 503
        await world.backEnd.answerNext(target.route, with: answer)

        let error = try #require(await thrownError { try await target.run(on: world) })
        guard case ReferenceSDKError.unknown(let response) = error else {
            Issue.record("expected ReferenceSDKError.unknown, got \(type(of: error)): \(error)")
            return
        }
        // The status survives a body that says nothing readable, so 503 stays transient.
        #expect(response == ServerErrorResponse(status: 503, code: nil, message: nil, category: .transient))
        await world.expectNoSecret(in: error)
        try await world.expectUnchanged(since: before, after: target)
    }

    @Test func anErrorBodyWithAHugeCodeIsCutShortInTheDescription() async throws {
        let world = try await MalformedResponseWorld.signedIn()
        let code = String(repeating: "x", count: 1 << 20)
        await world.backEnd.answerNext(
            "GET /me",
            with: .init(
                status: 400, contentType: "application/json",
                body: Data(#"{"error":"\#(code)"}"#.utf8)))

        let error = await #expect(throws: ReferenceSDKError.self) { try await world.service.me() }

        #expect(error?.code == code)
        #expect(error.map { "\($0)".count < 300 } == true, "the description carries the whole code")
    }

    // MARK: Token responses

    @Test(arguments: [#""NaN""#, #""inf""#, #""-infinity""#, "-5", #""soon""#, "true", #"{"s":1}"#])
    func aTokenResponseWhoseExpiryIsNoNumberOfSecondsIsRefused(_ expiresIn: String) async throws {
        let world = try await MalformedResponseWorld.signedIn()
        let before = try await world.snapshot()
        let body = #"{"access_token":"\#(Self.secret)","token_type":"Bearer","expires_in":\#(expiresIn)}"#
        await world.backEnd.answerNext("POST /auth/guest", with: .init(status: 200, contentType: "application/json", body: Data(body.utf8)))

        let error = await #expect(throws: SesameError.self) {
            try await world.service.authenticate(with: SingleStepMethod.guest)
        }

        #expect(error == .decoding(operation: "guest.authenticate", reason: "$.expires_in: expected a number of seconds"))
        try await world.expectUnchanged(since: before, after: .guest)
    }

    @Test func aMalformedRefreshResponseIsNeitherTerminalNorBackedOff() async throws {
        let world = try await MalformedResponseWorld.signedIn()
        world.clock.advance(by: Double(MalformedResponseWorld.tokenLifetime) + 1)
        await world.backEnd.answerNext(
            "POST /oauth/token",
            with: .init(
                status: 200, contentType: "application/json",
                body: Data(#"{"access_tok"#.utf8)))
        let events = await world.service.events()

        await #expect(throws: SesameError.decoding(operation: "refresh", reason: "$: the data is not valid JSON")) {
            try await world.service.me()
        }
        // The next request refreshes again at once (no back-off), and succeeds.
        #expect(try await world.service.me().uid == "guest-1")

        #expect(await world.backEnd.refreshCount == 2)
        #expect(await world.service.state.isAuthenticated)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .stateChanged(.authenticated(try #require(world.service.authenticationDetails))))
        guard case .refreshFailed(let failure)? = await iterator.next() else {
            Issue.record("the event after the current state is not refreshFailed")
            return
        }
        #expect(failure.kind == .failed)
    }

    // MARK: Coverage

    /// A request added to the schema must get a target here: the test reads the names of
    /// every request the generated schema declares.
    @Test func everyRequestOfTheSchemaHasATarget() throws {
        let source = try String(contentsOf: Self.generatedSchema, encoding: .utf8)
        let declared = Set(source.matches(of: /RequestDescription\(\s*name: "([^"]+)"/).map { String($0.output.1) })
        #expect(declared.count >= 15)
        // The event stream's body is read line by line as server-sent events, not decoded.
        // The browser step's authorization request is loaded by the browser, never read by
        // the runtime, and the revocation's body is never read (RFC 7009: only the status
        // counts). The browser step's token response goes through the token reader the
        // other methods' targets cover; the in-memory back-end has no authorization
        // endpoint, so a malformed one is not injected here (a known gap: issue 11's report).
        // The in-memory back-end has no device authorization endpoint either: a malformed
        // device authorization answer is DeviceAuthorizationTests' (the root's SesameTests),
        // and the device step's polled token response goes through the same token reader.
        // The openid method is the oauth2 one with an ID token: its malformed and bad ID
        // tokens are the end-to-end tests' (OpenIDEndToEndTests, SchemaOpenIDEndToEndTests).
        // userinfo needs a session signed in with it (its sub is checked against the session's
        // ID token before anything decodes it), which the in-memory back-end cannot make: its
        // responses are SchemaUserInfoEndToEndTests' (a known gap: a malformed UserInfo body).
        let covered = Set(MalformedResponseTarget.allCases.map(\.requestName))
            .union([
                "events", "oauth2.authenticate.authorize", "revoke", "oauth2.authenticate",
                "openid.authenticate.authorize", "openid.authenticate", "userinfo",
                "device.authenticate.deviceAuthorization", "device.authenticate",
            ])
        #expect(declared == covered)
    }

    static let generatedSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ReferenceSDK/Generated/ReferenceSDKSchema.swift")
}

/// The error `body` throws, nil when it returns.
private func thrownError(by body: () async throws -> Void) async -> (any Error)? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
