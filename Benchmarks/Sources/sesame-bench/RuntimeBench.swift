import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
@_spi(Generated) import Sesame
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// A small back-end for the runtime's benchmarks, in memory: the guest sign-in, the RFC 6749
/// refresh, the details and `GET /notes`, with tokens that expire on the benchmark's clock.
enum RuntimeBench {
    static let baseURL = URL(string: "https://auth.bench")!
    static let notes = RequestDescription(name: "listNotes", method: .get, path: "/notes")
    static let token = RequestDescription(
        name: "token", method: .post, path: "/oauth/token", authenticated: false,
        encoding: .form, clientAuthentication: .none)
    static let guest = AuthenticationMethodDescription(
        name: "guest",
        steps: [
            AuthenticationStepDescription(
                name: "guest",
                request: RequestDescription(
                    name: "guest", method: .post, path: "/auth/guest",
                    authenticated: false), body: [])
        ])

    static let description = SDKDescription(
        name: "BenchSDK", baseURL: baseURL,
        credential: CredentialDescription(
            accessTokenField: "access_token", refreshTokenField: "refresh_token", expiresInField: "expires_in",
            header: "Authorization", format: .interpolation([.text("Bearer "), .variable(.accessToken)]),
            refresh: RefreshDescription(
                request: token,
                fields: [
                    TemplateField("grant_type", .literal(.string("refresh_token"))),
                    TemplateField("refresh_token", .variable(.refreshToken)),
                ], leeway: .seconds(60), maxRefreshes: 5, window: .seconds(30)),
            rejection: RejectionRule(status: 401, wwwAuthenticateError: "invalid_token"),
            details: RequestDescription(name: "me", method: .get, path: "/me"), userIDField: "uid"),
        errors: ErrorCatalogue(codeField: "error", messageField: nil, codes: ["invalid_grant": .credentialRejected]),
        events: EventCatalogue(stream: nil, invalidating: []),
        lifecycle: LifecycleDescription())

    /// Microseconds per call of `work`, over `count` calls: the request loops of `overhead`
    /// and `dpop`.
    static func perRequest(_ count: Int, _ work: () async throws -> Void) async throws -> Double {
        let started = ContinuousClock.now
        for _ in 0..<count { try await work() }
        return (ContinuousClock.now - started).seconds / Double(count) * 1e6
    }

    /// Logs nothing: the benchmarks time the runtime, not a log handler.
    static let silentLogger = Logger(label: "sesame-bench") { _ in SwiftLogNoOpLogHandler() }

    /// A service over `transport` with the benchmark's clock, silent logs and no events.
    static func service(
        transport: some ClientTransport, clock: ManualClock,
        sessionStore: any SessionStore<BenchDetails> = InMemorySessionStore<BenchDetails>()
    ) -> AuthenticationService<BenchSchema> {
        AuthenticationService(
            configuration: .init(
                transport: transport, now: { clock.now },
                logger: silentLogger, sessionStore: sessionStore,
                receivesServerEvents: false))
    }
}

/// The signed-in user of the benchmark back-end.
struct BenchDetails: Codable, Hashable, Sendable {
    var uid: String
}

/// The benchmark's typed server error.
struct BenchServerError: Error, Sendable {
    var response: ServerErrorResponse
}

/// The benchmark's events: it has none, so every event is unknown.
struct BenchEvent: ServerEvent {
    var wireName: String
    var data: Data

    init(wireName: String, data: Data) {
        self.wireName = wireName
        self.data = data
    }
}

enum BenchSchema: SDKSchema {
    typealias Details = BenchDetails
    typealias ServerError = BenchServerError
    typealias Event = BenchEvent
    static var description: SDKDescription { RuntimeBench.description }
    static func userID(of details: BenchDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> BenchServerError { BenchServerError(response: response) }
}

struct GuestSignIn: SingleStepAuthenticationMethod {
    var methodDescription: AuthenticationMethodDescription { RuntimeBench.guest }
    var arguments: [String: JSONValue] { [:] }
    var description: String { "guest" }
}

/// The in-memory back-end. `GET /notes` checks the bearer token against the tokens it
/// issued and their expiry (401 `invalid_token` otherwise), unless `checksNotes` is off, in
/// which case it answers at once without taking its lock: the bare transport the overhead
/// benchmark compares with.
final class BenchBackEnd: ClientTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let clock: ManualClock
    private let checksNotes: Bool
    private var issued = 0
    private var accessTokens: [String: Date] = [:]
    private var refreshTokens: Set<String> = []
    private var refreshCount = 0
    private var refreshRequestCount = 0
    /// How long issued access tokens last.
    let expiresIn: TimeInterval = 3600

    init(clock: ManualClock, checksNotes: Bool = true) {
        self.clock = clock
        self.checksNotes = checksNotes
    }

    /// How many refreshes the back-end granted (a live refresh token, rotated).
    var refreshes: Int { lock.withLock { refreshCount } }

    /// How many refresh requests reached the back-end, granted or not.
    var refreshRequests: Int { lock.withLock { refreshRequestCount } }

    /// Rejects every access token issued so far (401 `invalid_token` from then on), as a
    /// back-end does when it revokes them: the client's clock still says they are valid.
    func revokeAccessTokens() {
        lock.withLock { accessTokens.removeAll() }
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if request.method == .get, request.path == "/notes" {
            guard checksNotes else { return (HTTPResponse(status: .ok), nil) }
            let token = request.headerFields[.authorization].map { String($0.dropFirst("Bearer ".count)) }
            let now = clock.now
            let valid = lock.withLock { token.flatMap { accessTokens[$0] }.map { now < $0 } ?? false }
            return valid ? (HTTPResponse(status: .ok), HTTPBody("[]")) : Self.rejected
        }
        switch (request.method, request.path) {
        case (.post, "/auth/guest"):
            return json(issueTokens(refreshing: nil))
        case (.post, "/oauth/token"):
            lock.withLock { refreshRequestCount += 1 }
            let form = String(decoding: try await Data(collecting: body ?? HTTPBody(), upTo: 1 << 16), as: UTF8.self)
            let token = form.split(separator: "&").first { $0.hasPrefix("refresh_token=") }.map {
                String($0.dropFirst("refresh_token=".count))
            }
            guard let token, let response = issueTokens(refreshing: token) else {
                return (
                    HTTPResponse(status: .badRequest, headerFields: [.contentType: "application/json"]),
                    HTTPBody(#"{"error":"invalid_grant"}"#)
                )
            }
            return json(response)
        case (.get, "/me"):
            return json(#"{"uid":"u1"}"#)
        default:
            return (HTTPResponse(status: .notFound), nil)
        }
    }

    /// New tokens; for a refresh, only when `refreshing` is a live refresh token (rotated).
    private func issueTokens(refreshing: String?) -> String? {
        let expiry = clock.now.addingTimeInterval(expiresIn)
        return lock.withLock {
            if let refreshing {
                guard refreshTokens.remove(refreshing) != nil else { return nil }
                refreshCount += 1
            }
            issued += 1
            accessTokens["at-\(issued)"] = expiry
            refreshTokens.insert("rt-\(issued)")
            return #"{"access_token":"at-\#(issued)","refresh_token":"rt-\#(issued)","expires_in":\#(Int(expiresIn))}"#
        }
    }

    private static let rejected: (HTTPResponse, HTTPBody?) = (
        HTTPResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: #"Bearer error="invalid_token""#]), nil
    )

    private func json(_ text: String?) -> (HTTPResponse, HTTPBody?) {
        guard let text else { return (HTTPResponse(status: .badRequest), nil) }
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(text))
    }
}
