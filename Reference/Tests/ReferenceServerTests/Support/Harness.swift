import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ReferenceServer
import SesameTestSupport

/// An HTTP answer, read whole.
struct HTTPResult: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: String

    /// The body as a JSON object; fails the test's expectation by throwing when it is not one.
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            throw HarnessError.notAnObject(body)
        }
        return object
    }

    /// The body as a JSON array.
    func array() throws -> [Any] {
        guard let array = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [Any] else {
            throw HarnessError.notAnObject(body)
        }
        return array
    }

    /// `error` of an RFC 6749 §5.2 body.
    func errorCode() throws -> String? { try object()["error"] as? String }

    var wwwAuthenticate: String? { headers[.wwwAuthenticate] }
}

enum HarnessError: Error {
    case notAnObject(String)
    case missingField(String)
    case timedOut(String)
}

/// Tokens of a token response.
struct Tokens: Sendable {
    var access: String
    var refresh: String
    var expiresIn: Int
}

/// A running server on an ephemeral loopback port, a hand-moved clock, and a client that
/// opens one connection per request (HummingbirdTesting's `TestClient`).
struct Harness: Sendable {
    /// Where the hand-moved clock starts.
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    let server: ReferenceServer
    let endpoint: ReferenceServer.Endpoint
    let clock: ManualClock

    var state: ReferenceServerState { server.state }

    /// Starts a server, runs `body` against it, and stops it, even when `body` throws.
    static func run(
        configure: (inout ReferenceServer.Configuration) -> Void = { _ in },
        _ body: (Harness) async throws -> Void
    ) async throws {
        let clock = ManualClock(Harness.start)
        var logger = Logger(label: "reference-server-tests")
        logger.logLevel = .error
        var configuration = ReferenceServer.Configuration(
            port: 0,
            heartbeatInterval: .seconds(30),
            now: { clock.now },
            logger: logger
        )
        configure(&configuration)
        let server = ReferenceServer(configuration: configuration)
        let endpoint = try await server.start()
        let harness = Harness(server: server, endpoint: endpoint, clock: clock)
        do {
            try await body(harness)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Sends one request on a new connection to `listener` (the API's by default) and reads
    /// the whole answer.
    func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        headers: HTTPFields = [:],
        body: String? = nil,
        on listener: RequestLogEntry.Listener = .api,
        timeout: Duration = .seconds(15)
    ) async throws -> HTTPResult {
        try await Self.send(
            method, path, headers: headers, body: body, host: endpoint.host,
            port: listener == .api ? endpoint.port : endpoint.authorizationPort, timeout: timeout)
    }

    /// Sends one request on a new connection to `host:port` and reads the whole answer.
    static func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        headers: HTTPFields = [:],
        body: String? = nil,
        host: String,
        port: Int,
        timeout: Duration = .seconds(15)
    ) async throws -> HTTPResult {
        let request = TestClient.Request(path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let response = try await TestClient.withClient(host: host, port: port, configuration: .init(timeout: timeout)) { client in
            try await client.execute(request)
        }
        return HTTPResult(
            status: response.status,
            headers: response.headers,
            body: response.body.map { String(buffer: $0) } ?? ""
        )
    }

    /// Sends a JSON body.
    func sendJSON(_ method: HTTPRequest.Method, _ path: String, _ json: String, token: String? = nil) async throws -> HTTPResult {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await send(method, path, headers: headers, body: json)
    }

    /// Sends a request with a Bearer token.
    func sendAuthorized(_ method: HTTPRequest.Method, _ path: String, token: String, headers: HTTPFields = [:]) async throws -> HTTPResult {
        var headers = headers
        headers[.authorization] = "Bearer \(token)"
        return try await send(method, path, headers: headers)
    }

    /// POSTs a form to `/oauth/token` on the authorization server's listener with the demo
    /// client in HTTP Basic.
    func tokenRequest(_ form: String, basic: (String, String)? = ("sesame-demo", "demo-secret")) async throws -> HTTPResult {
        try await postForm("/oauth/token", form, basic: basic)
    }

    /// POSTs a form to `path` on the authorization server's listener, the client (if any) in
    /// HTTP Basic.
    func postForm(_ path: String, _ form: String, basic: (String, String)? = ("sesame-demo", "demo-secret")) async throws -> HTTPResult {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let (id, secret) = basic {
            headers[.authorization] = "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
        }
        return try await send(.post, path, headers: headers, body: form, on: .authorization)
    }

    /// Signs in as a new guest.
    func guest() async throws -> Tokens {
        try Self.tokens(from: try await send(.post, "/auth/guest"))
    }

    /// Signs in as a configured user through the password grant.
    func password(_ username: String = "alice", _ password: String = "wonderland") async throws -> Tokens {
        try Self.tokens(from: try await tokenRequest("grant_type=password&username=\(username)&password=\(password)"))
    }

    /// Refreshes through the token endpoint, as the demo client unless `basic` names another.
    func refresh(_ refreshToken: String, basic: (String, String) = ("sesame-demo", "demo-secret")) async throws -> HTTPResult {
        try await tokenRequest("grant_type=refresh_token&refresh_token=\(refreshToken)", basic: basic)
    }

    /// The uid `GET /me` reports.
    func uid(_ token: String) async throws -> String {
        let me = try await sendAuthorized(.get, "/me", token: token).object()
        guard let uid = me["uid"] as? String else { throw HarnessError.missingField("uid") }
        return uid
    }

    static func tokens(from result: HTTPResult) throws -> Tokens {
        let object = try result.object()
        guard let access = object["access_token"] as? String, let refresh = object["refresh_token"] as? String,
            let expiresIn = object["expires_in"] as? Int
        else { throw HarnessError.missingField("token fields in \(result.body)") }
        return Tokens(access: access, refresh: refresh, expiresIn: expiresIn)
    }

    /// Waits (polling every 10 ms, at most `timeout`) until `condition` holds. The default is
    /// long because it only bounds a failure: in a whole `swift test` the servers of 50 suites
    /// share two threads, and a request can wait seconds for one.
    func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: () async -> Bool) async throws {
        guard await poll(every: .milliseconds(10), timeout: timeout, condition) else { throw HarnessError.timedOut(what) }
    }
}
