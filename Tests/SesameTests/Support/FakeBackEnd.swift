import Foundation
import HTTPTypes
import OpenAPIRuntime
@testable import Sesame
import SesameTestSupport

/// A request the fake back-end received.
struct RecordedRequest: Sendable {
    var method: HTTPRequest.Method
    var path: String
    var headerFields: HTTPFields
    var body: String

    var authorization: String? { headerFields[.authorization] }
    var form: [String: String] {
        formFields(body)
    }
}

/// An in-memory back-end speaking the test schema's protocol, as a `ClientTransport`.
/// Tokens are `at-N` and `rt-N`; knobs make it fail the way a test needs.
actor FakeBackEnd: ClientTransport {
    enum RefreshBehaviour: Sendable { case succeed, rotateless, invalidGrant, unavailable, malformed }

    private(set) var requests: [RecordedRequest] = []
    private var accessTokens: [String: String] = [:]
    private var refreshTokens: [String: String] = [:]
    private var issued = 0
    private var users: [String: TestDetails] = [
        "u1": TestDetails(uid: "u1", provider: "guest"),
        "u2": TestDetails(uid: "u2", provider: "internal"),
        "u3": TestDetails(uid: "u3", provider: "password"),
    ]
    var expiresIn = 3600
    var refreshBehaviour = RefreshBehaviour.succeed
    var logoutFails = false
    var malformedDetails = false
    /// Tasks.yield()s the refresh handler performs, so that concurrent requests pile up.
    var refreshYields = 0
    /// Bodies of successive event-stream connections; later ones stay open.
    var eventBodies: [String] = []
    /// A 401 from a downstream service: a Bearer challenge without `error`.
    var notesDownstreamRejects = false
    /// When set, `/notes` answers a request with a valid token with this status and
    /// `WWW-Authenticate` value (a step-up challenge, RFC 9470).
    var notesChallenge: (status: HTTPResponse.Status, header: String)?
    var expectedClient = ClientCredentials(clientID: "app", clientSecret: "s3cr3t")
    /// When set, the token endpoint serves this public client instead: its `client_id` in
    /// the body, no `Authorization` and no `client_secret`.
    var publicClientID: String?
    /// When false, token responses carry no refresh token.
    var issuesRefreshTokens = true
    /// When true, refresh requests wait for `releaseRefreshes()`.
    var holdRefreshes = false
    private var heldRefreshes: [CheckedContinuation<Void, Never>] = []

    var heldRefreshCount: Int { heldRefreshes.count }
    func releaseRefreshes() {
        holdRefreshes = false
        let held = heldRefreshes
        heldRefreshes = []
        for continuation in held { continuation.resume() }
    }

    func set(_ change: @Sendable (isolated FakeBackEnd) -> Void) { change(self) }

    /// Forgets every access token, as a back-end does when they expire or are revoked.
    func revokeAccessTokens() { accessTokens = [:] }
    func revokeRefreshTokens() { refreshTokens = [:] }
    func renameUser(_ uid: String, to other: String) { users[uid]?.uid = other }
    func count(_ path: String) -> Int { requests.filter { $0.path.hasPrefix(path) }.count }
    func isValidRefreshToken(_ token: String) -> Bool { refreshTokens[token] != nil }

    nonisolated func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
        let recorded = RecordedRequest(
            method: request.method, path: request.path ?? "", headerFields: request.headerFields,
            body: String(decoding: data, as: UTF8.self))
        return try await handle(recorded)
    }

    private func handle(_ request: RecordedRequest) async throws -> (HTTPResponse, HTTPBody?) {
        requests.append(request)
        switch (request.method, request.path) {
        case (.post, "/auth/guest"):
            return json(tokens(for: "u1"))
        case (.post, "/auth/internal/challenge"):
            return json(["challengeId": "ch-1", "channel": "email"])
        case (.post, "/auth/internal/verify"):
            let body = try JSONDecoder().decode([String: String].self, from: Data(request.body.utf8))
            guard body["challengeId"] == "ch-1", body["code"] == "123456" else { return error(400, "invalid_code") }
            return json(tokens(for: "u2"))
        case (.post, "/oauth/token"):
            return await token(request)
        case (.get, "/me"):
            guard let uid = bearer(request) else { return rejected() }
            if malformedDetails {
                return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody("{\"uid\": \"u"))
            }
            return json(users[uid]!)
        case (.get, "/notes"):
            if notesDownstreamRejects {
                return (HTTPResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: "Bearer realm=\"notes\""]), nil)
            }
            guard bearer(request) != nil else { return rejected() }
            if let notesChallenge {
                return (HTTPResponse(status: notesChallenge.status, headerFields: [.wwwAuthenticate: notesChallenge.header]), nil)
            }
            return json([String]())
        case (.post, "/auth/logout"):
            if logoutFails { return error(503, "unavailable") }
            guard bearer(request) != nil else { return rejected() }
            if let token = request.authorization?.dropFirst("Bearer ".count) { accessTokens[String(token)] = nil }
            return (HTTPResponse(status: .noContent), nil)
        case (.delete, "/account"), (.delete, "/identities/guest"):
            guard bearer(request) != nil else { return rejected() }
            return json(["accountDestroyed": true])
        case (.get, "/events"):
            guard bearer(request) != nil else { return rejected() }
            if !eventBodies.isEmpty {
                return (HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]), HTTPBody(eventBodies.removeFirst()))
            }
            let (stream, _) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
            return (HTTPResponse(status: .ok), HTTPBody(stream, length: .unknown))
        default:
            return error(404, "not_found")
        }
    }

    private func token(_ request: RecordedRequest) async -> (HTTPResponse, HTTPBody?) {
        let form = request.form
        if let publicClientID {
            // A public client names itself in the body, with no secret anywhere.
            guard request.authorization == nil, form["client_id"] == publicClientID, form["client_secret"] == nil else {
                return error(401, "invalid_client")
            }
        } else {
            let expected = "Basic " + Data("\(expectedClient.clientID):\(expectedClient.clientSecret ?? "")".utf8).base64EncodedString()
            guard request.authorization == expected else { return error(401, "invalid_client") }
        }
        switch form["grant_type"] {
        case "password":
            guard form["password"] == "secret" else { return error(400, "invalid_grant") }
            return json(tokens(for: "u3"))
        case "refresh_token":
            for _ in 0..<refreshYields { await Task.yield() }
            if holdRefreshes { await withCheckedContinuation { heldRefreshes.append($0) } }
            switch refreshBehaviour {
            case .invalidGrant: return error(400, "invalid_grant")
            case .unavailable: return error(503, "unavailable")
            case .malformed: return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody("{\"access_"))
            case .succeed, .rotateless: break
            }
            guard let old = form["refresh_token"], let uid = refreshTokens[old] else { return error(400, "invalid_grant") }
            if refreshBehaviour == .rotateless {
                var response = tokens(for: uid)
                refreshTokens[response["refresh_token"] as! String] = nil
                response["refresh_token"] = nil
                return json(response)
            }
            refreshTokens[old] = nil
            return json(tokens(for: uid))
        default:
            return error(400, "unsupported_grant_type")
        }
    }

    private func tokens(for uid: String) -> [String: any Sendable] {
        issued += 1
        accessTokens["at-\(issued)"] = uid
        refreshTokens["rt-\(issued)"] = uid
        var response: [String: any Sendable] = ["access_token": "at-\(issued)", "token_type": "Bearer", "expires_in": expiresIn]
        if issuesRefreshTokens { response["refresh_token"] = "rt-\(issued)" }
        return response
    }

    private func bearer(_ request: RecordedRequest) -> String? {
        guard let header = request.authorization, header.hasPrefix("Bearer ") else { return nil }
        return accessTokens[String(header.dropFirst("Bearer ".count))]
    }

    private func rejected() -> (HTTPResponse, HTTPBody?) {
        (
            HTTPResponse(
                status: .unauthorized,
                headerFields: [
                    .wwwAuthenticate: "Bearer realm=\"test\", error=\"invalid_token\"", .contentType: "application/json",
                ]), HTTPBody(#"{"error":"invalid_token"}"#)
        )
    }

    private func error(_ status: Int, _ code: String) -> (HTTPResponse, HTTPBody?) {
        (
            HTTPResponse(status: .init(code: status), headerFields: [.contentType: "application/json"]),
            HTTPBody(#"{"error":"\#(code)","error_description":"\#(code) happened"}"#)
        )
    }

    private func json(_ value: some Encodable) -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(try! JSONEncoder().encode(value)))
    }

    private func json(_ object: [String: any Sendable]) -> (HTTPResponse, HTTPBody?) {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(data))
    }
}

/// A service over a fake back-end, with a manual clock and an in-memory store.
struct TestEnvironment<Schema: SDKSchema> where Schema.Details == TestDetails {
    let backEnd = FakeBackEnd()
    let clock = ManualClock()
    let store = InMemorySessionStore<TestDetails>()
    let logs = LogCapture()
    let service: AuthenticationService<Schema>

    init(
        _ schema: Schema.Type = TestSchema.self, receivesServerEvents: Bool = false,
        delegate: (any SessionRestorationDelegate<TestDetails>)? = nil, store: InMemorySessionStore<TestDetails>? = nil,
        observer: (any UserSessionObserver)? = nil
    ) {
        let clock = self.clock
        let sessionStore = store ?? self.store
        service = AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: backEnd,
                now: { clock.now }, logger: logs.logger(), sessionStore: sessionStore,
                restorationDelegate: delegate ?? DefaultSessionRestorationDelegate<TestDetails>(),
                receivesServerEvents: receivesServerEvents, eventStreamReconnectDelay: .milliseconds(1),
                userSessionObserver: observer))
    }
}

extension TestEnvironment {
    /// Another service over the same back-end, clock and store, as after a relaunch.
    func relaunch(
        delegate: (any SessionRestorationDelegate<TestDetails>)? = nil,
        observer: (any UserSessionObserver)? = nil
    ) -> AuthenticationService<Schema> {
        let clock = self.clock
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: backEnd,
                now: { clock.now }, logger: logs.logger(), sessionStore: store,
                restorationDelegate: delegate ?? DefaultSessionRestorationDelegate<TestDetails>(),
                receivesServerEvents: false, userSessionObserver: observer))
    }

    /// The events the service published so far, once `unsubscribeFromAll()` ends them.
    static func collect(_ stream: EventStream<AuthenticationEvent<Schema>>) async -> [AuthenticationEvent<Schema>] {
        var events: [AuthenticationEvent<Schema>] = []
        for await event in stream { events.append(event) }
        return events
    }
}
