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

    @Test(arguments: Target.allCases, MalformedBody.allCases)
    func aMalformedSuccessBodyIsADecodingErrorThatChangesNothing(_ target: Target, _ body: MalformedBody) async throws {
        let world = try await World.signedIn()
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

    @Test(arguments: Target.allCases, MalformedBody.allCases)
    func aMalformedErrorBodyIsTheSDKsErrorWithItsStatus(_ target: Target, _ body: MalformedBody) async throws {
        let world = try await World.signedIn()
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
        let world = try await World.signedIn()
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
        let world = try await World.signedIn()
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
        let world = try await World.signedIn()
        world.clock.advance(by: Double(World.tokenLifetime) + 1)
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
        let covered = Set(Target.allCases.map(\.requestName))
            .union([
                "events", "oauth2.authenticate.authorize", "revoke", "oauth2.authenticate",
                "device.authenticate.deviceAuthorization", "device.authenticate",
            ])
        #expect(declared == covered)
    }

    static let generatedSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ReferenceSDK/Generated/ReferenceSDKSchema.swift")
}

// MARK: - Targets

/// A response the runtime reads, and how a test gets the runtime to read it.
enum Target: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case me, logout, identities, detachIdentity, destroyAccount, listNotes, createNote, serverStatus
    case guest = "guest.authenticate"
    case internalInitialize = "internal.initialize"
    case internalContinue = "internal.continue"
    case password = "password.authenticate"
    case custom = "custom.authenticate"
    case refresh
    /// The details the runtime fetches with the new credential at the end of a sign-in.
    case detailsDuringSignIn = "me (during sign-in)"

    var testDescription: String { rawValue }

    /// A UUID for the bodies that need one (a challenge's, a note's).
    static let someUUID = "3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55"

    /// The name of the request, as errors report it.
    var requestName: String { self == .detailsDuringSignIn ? "me" : rawValue }

    /// `METHOD /path` of the request.
    var route: String {
        switch self {
        case .me, .detailsDuringSignIn: "GET /me"
        case .logout: "POST /auth/logout"
        case .identities: "GET /identities"
        case .detachIdentity: "DELETE /identities/guest"
        case .destroyAccount: "DELETE /account"
        case .listNotes: "GET /notes"
        case .createNote: "POST /notes"
        case .serverStatus: "GET /status"
        case .guest: "POST /auth/guest"
        case .internalInitialize: "POST /auth/internal/challenge"
        case .internalContinue: "POST /auth/internal/verify"
        case .password, .refresh: "POST /oauth/token"
        case .custom: "POST /auth/custom"
        }
    }

    /// A well-formed body, nil when the runtime does not read it (the operation declares no response).
    var wellFormed: JSONValue? {
        let token: JSONValue = .object(["access_token": .string("at"), "token_type": .string("Bearer"), "expires_in": .integer(60)])
        let identity: JSONValue = .object(["provider": .string("guest"), "providerUID": .string("p1"), "attachedOn": .string("2024-05-01")])
        let note: JSONValue = .object([
            "id": .string(Target.someUUID), "text": .string("milk"), "createdAt": .string("2024-05-01T12:00:00Z"),
        ])
        switch self {
        case .me, .detailsDuringSignIn:
            return .object(["uid": .string("u1"), "provider": .string("guest"), "providerUID": .string("p1")])
        case .logout, .destroyAccount: return nil
        case .identities: return .array([identity])
        case .detachIdentity: return .object(["accountDestroyed": .bool(false)])
        case .listNotes: return .array([note])
        case .createNote: return note
        case .serverStatus: return .object(["status": .string("ok")])
        case .guest, .internalContinue, .password, .custom, .refresh: return token
        case .internalInitialize: return .object(["challengeId": .string(Target.someUUID)])
        }
    }

    /// The fields the runtime needs (in the object, or in each item of an array).
    var requiredFields: [String] {
        switch self {
        case .me, .detailsDuringSignIn: ["uid", "provider", "providerUID"]
        case .logout, .destroyAccount: []
        case .identities: ["provider", "providerUID", "attachedOn"]
        case .detachIdentity: ["accountDestroyed"]
        case .listNotes, .createNote: ["id", "text", "createdAt"]
        case .serverStatus: ["status"]
        case .guest, .internalContinue, .password, .custom, .refresh: ["access_token"]
        case .internalInitialize: ["challengeId"]
        }
    }

    /// Whether the runtime rightly accepts this 2xx body: an operation without a response
    /// ignores any body within the size limit, and the runtime checks only that the fields
    /// a later step reads from `initialize` are there (their type is the back-end's to
    /// judge when the next step sends them).
    func accepts(_ body: MalformedBody) -> Bool {
        switch self {
        case .logout, .destroyAccount: body != .tenMegabytes
        case .internalInitialize: body == .wrongTypes || body == .hugeArrayForRequiredFields
        default: false
        }
    }

    /// Sets the world up so that ``run(on:)`` sends this target's request next.
    fileprivate func prepare(_ world: World) async throws {
        switch self {
        case .internalContinue:
            _ = try await world.service.initializeAuthentication(with: MultiStepMethod.internal(identifier: "ada@example.com"))
        case .refresh:
            world.clock.advance(by: Double(World.tokenLifetime) + 1)
        default:
            break
        }
    }

    /// Makes the runtime send the request and read its response.
    fileprivate func run(on world: World) async throws {
        let service = world.service
        switch self {
        case .me, .refresh: _ = try await service.me()
        case .logout: try await service.logout()
        case .identities: _ = try await service.identities()
        case .detachIdentity: try await service.detachIdentity(provider: .guest)
        case .destroyAccount: try await generatedDestroyAccount(service)
        case .listNotes: _ = try await service.listNotes()
        case .createNote: try await service.createNote(NewNote(text: "milk"))
        case .serverStatus: _ = try await service.serverStatus()
        case .guest, .detailsDuringSignIn: _ = try await service.authenticate(with: SingleStepMethod.guest)
        case .internalInitialize:
            _ = try await service.initializeAuthentication(with: MultiStepMethod.internal(identifier: "ada@example.com"))
        case .internalContinue: _ = try await service.continueAuthentication(with: AuthenticationInput.internalContinue(code: "123456"))
        case .password: _ = try await service.authenticate(with: SingleStepMethod.password(username: "ada", password: "pw"))
        case .custom: _ = try await service.authenticate(with: SingleStepMethod.custom(token: "idp", provider: "corp"))
        }
    }
}

// MARK: - Bodies

/// The ways a body can be malformed. Every one but the empty body carries
/// ``MalformedResponseTests/secret``.
enum MalformedBody: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case truncatedJSON = "truncated JSON"
    case wrongTypes = "required fields of the wrong type"
    case missingFields = "required fields missing"
    case nullFields = "required fields null"
    case tenMegabytes = "10 MB body"
    case hugeArrayForRequiredFields = "a 6 MB array for each required field"
    case invalidUTF8 = "invalid UTF-8 in a string"
    case empty = "empty body"
    case htmlPage = "HTML error page"
    case otherContainer = "array for object (or object for array)"
    case deepNesting = "100 000 nested arrays"

    var testDescription: String { rawValue }

    static let secret = MalformedResponseTests.secret

    /// The body, as `target` would get it.
    func answer(for target: Target) -> InMemoryBackEnd.Answer {
        let json = "application/json"
        let wellFormed = target.wellFormed ?? .object(["ok": .bool(true)])
        let fields = target.requiredFields
        switch self {
        case .truncatedJSON:
            let text = Self.text(Self.withSecret(wellFormed))
            let cut = text.index(text.startIndex, offsetBy: text.count * 2 / 3)
            return .init(status: 200, contentType: json, body: Data(text[..<cut].utf8))
        case .wrongTypes:
            return .init(
                status: 200, contentType: json,
                body: Self.data(Self.replacing(fields, in: wellFormed, with: .object(["token": .string(Self.secret)]))))
        case .missingFields:
            return .init(
                status: 200, contentType: json, body: Self.data(Self.withSecret(Self.replacing(fields, in: wellFormed, with: nil))))
        case .nullFields:
            return .init(
                status: 200, contentType: json, body: Self.data(Self.withSecret(Self.replacing(fields, in: wellFormed, with: .null))))
        case .tenMegabytes:
            let padded = Self.adding(["padding": .string(String(repeating: "x", count: 10_000_000))], to: Self.withSecret(wellFormed))
            return .init(status: 200, contentType: json, body: Self.data(padded))
        case .hugeArrayForRequiredFields:
            let huge: JSONValue = .array(Array(repeating: .string(String(repeating: "y", count: 1 << 20)), count: 6))
            return .init(
                status: 200, contentType: json, body: Self.data(Self.withSecret(Self.replacing(fields, in: wellFormed, with: huge))))
        case .invalidUTF8:
            // The secret's string gets bytes that no UTF-8 text contains.
            var bytes = Self.data(Self.withSecret(wellFormed))
            let range = bytes.range(of: Data(Self.secret.utf8))!
            bytes.replaceSubrange(range, with: Data(Self.secret.utf8) + [0xFF, 0xFE, 0xC3, 0x28])
            return .init(status: 200, contentType: json, body: bytes)
        case .empty:
            return .init(status: 200, contentType: json, body: Data())
        case .htmlPage:
            let page = "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><p>\(Self.secret)</p></body></html>"
            return .init(status: 200, contentType: "text/html; charset=utf-8", body: Data(page.utf8))
        case .otherContainer:
            let flipped: JSONValue =
                switch Self.withSecret(wellFormed) {
                case .array(let items): items.first ?? .object([:])
                case let value: .array([value])
                }
            return .init(status: 200, contentType: json, body: Self.data(flipped))
        case .deepNesting:
            let depth = 100_000
            let text = String(repeating: "[", count: depth) + "\"\(Self.secret)\"" + String(repeating: "]", count: depth)
            return .init(status: 200, contentType: json, body: Data(text.utf8))
        }
    }

    /// Adds the secret beside the fields (in each item of an array).
    private static func withSecret(_ value: JSONValue) -> JSONValue {
        adding(["session_secret": .string(secret)], to: value)
    }

    private static func adding(_ extra: [String: JSONValue], to value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): .object(object.merging(extra) { old, _ in old })
        case .array(let items): .array(items.map { adding(extra, to: $0) })
        default: value
        }
    }

    /// Sets `fields` to `replacement` (removes them when nil), in the object or each item.
    private static func replacing(_ fields: [String], in value: JSONValue, with replacement: JSONValue?) -> JSONValue {
        switch value {
        case .object(var object):
            for field in fields { object[field] = replacement }
            return .object(object)
        case .array(let items):
            return .array(items.map { replacing(fields, in: $0, with: replacement) })
        default:
            return value
        }
    }

    private static func data(_ value: JSONValue) -> Data {
        try! JSONEncoder().encode(value)
    }

    private static func text(_ value: JSONValue) -> String {
        String(decoding: data(value), as: UTF8.self)
    }
}

// MARK: - World

/// A service signed in as `guest-1` against the in-memory back-end (which answers every
/// request well unless a test scripts its answer), with a stopped clock, a session store to
/// compare, and its logs.
private struct World {
    static let baseURL = URL(string: "https://malformed.sesame.test")!
    static let client = ClientCredentials(clientID: "app", clientSecret: "app-secret")
    /// Lifetime of the access tokens the back-end issues.
    static let tokenLifetime = 3600

    let clock = ManualClock()
    let backEnd: InMemoryBackEnd
    let store = InMemorySessionStore<AuthenticationDetails>()
    let logs = LogCapture()
    let service: AuthenticationService<ReferenceSDKSchema>

    /// What must not change: the state, the saved session (with its credential), and the
    /// credential the service sends.
    struct Snapshot: Equatable {
        var state: AuthenticationState<AuthenticationDetails>
        var saved: StoredSession<AuthenticationDetails>?
        var refreshes: Int
    }

    private init() {
        let clock = clock
        backEnd = InMemoryBackEnd(baseURL: Self.baseURL, client: Self.client, now: { clock.now }, tokenLifetime: Self.tokenLifetime)
        service = AuthenticationService(
            configuration: .init(
                baseURL: Self.baseURL, client: Self.client,
                transport: backEnd, now: { clock.now }, logger: logs.logger(label: "malformed"), sessionStore: store,
                receivesServerEvents: false, authorizationServerURL: Self.baseURL))
    }

    static func signedIn() async throws -> World {
        let world = World()
        _ = try await world.service.authenticate(with: SingleStepMethod.guest)
        return world
    }

    func prepare(_ target: Target) async {
        do {
            try await target.prepare(self)
        } catch {
            Issue.record("preparing \(target) failed: \(error)")
        }
    }

    func snapshot() async throws -> Snapshot {
        Snapshot(state: await service.state, saved: try store.load(), refreshes: await backEnd.refreshCount)
    }

    /// The state and the saved session are as they were, and the next request goes with
    /// the same credential (after the one refresh that a refresh target sends).
    func expectUnchanged(
        since before: Snapshot, after target: Target,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let after = try await snapshot()
        #expect(after.state == before.state, sourceLocation: sourceLocation)
        #expect(after.saved == before.saved, sourceLocation: sourceLocation)
        #expect(after.refreshes == before.refreshes + (target == .refresh ? 1 : 0), sourceLocation: sourceLocation)
        guard target != .refresh else { return }
        let sent = before.saved.map { "Bearer \($0.credential.accessToken)" }
        _ = try await service.me()
        #expect(await backEnd.received.last?.authorization == sent, sourceLocation: sourceLocation)
    }

    /// Neither the error (as the app prints or dumps it) nor the logs contain the body's
    /// secret or any token the back-end issued.
    func expectNoSecret(in error: any Error, sourceLocation: SourceLocation = #_sourceLocation) async {
        let shown = ["\(error)", String(reflecting: error), logs.text]
        // A prefix of the secret catches an excerpt of it too.
        let secrets = [String(MalformedResponseTests.secret.prefix(16))] + (await backEnd.issuedTokens)
        for text in shown {
            for secret in secrets where text.contains(secret) {
                Issue.record("a secret shows in: \(text.prefix(300))", sourceLocation: sourceLocation)
            }
        }
    }
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

/// The generated `destroyAccount()` operation, which the service's own lifecycle method of
/// the same name hides.
private func generatedDestroyAccount<Performer: OperationPerformer>(_ performer: Performer) async throws
where Performer.Schema == ReferenceSDKSchema {
    try await performer.destroyAccount()
}
