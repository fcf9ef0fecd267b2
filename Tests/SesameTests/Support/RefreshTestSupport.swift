import Foundation
import HTTPTypes
import OpenAPIRuntime
@testable import Sesame
import SesameTestSupport

/// A transport in front of the fake back-end, for redirect and back-off tests: it records
/// every request with its full URL, answers it with `route` when that returns a response,
/// sends the rest of the fake back-end's paths on `https://auth.test` to it, and answers
/// anything else with `200 {}`.
actor RoutingTransport: ClientTransport {
    /// A request as it went on the wire.
    struct Sent: Sendable {
        var method: HTTPRequest.Method
        /// Base URL and path, as `URLSessionTransport` joins them.
        var url: String
        var headerFields: HTTPFields
        var body: String

        var authorization: String? { headerFields[.authorization] }
        var path: String { URL(string: url).map { $0.path } ?? url }
    }

    /// A canned answer: status, header fields, body.
    struct Answer: Sendable {
        var status: Int
        var headerFields: HTTPFields = [:]
        var body = ""

        static func redirect(_ status: Int, to location: String) -> Answer {
            Answer(status: status, headerFields: [.location: location])
        }
    }

    static let backEndPaths: Set<String> = [
        "/auth/guest", "/auth/internal/challenge", "/auth/internal/verify", "/oauth/token",
        "/me", "/notes", "/auth/logout", "/events",
    ]

    let backEnd: FakeBackEnd
    private(set) var sent: [Sent] = []
    private var route: @Sendable (Sent) -> Answer? = { _ in nil }

    init(backEnd: FakeBackEnd = FakeBackEnd()) {
        self.backEnd = backEnd
    }

    func setRoute(_ route: @escaping @Sendable (Sent) -> Answer?) { self.route = route }

    func count(where predicate: (Sent) -> Bool) -> Int { sent.filter(predicate).count }

    /// Refresh requests that went on the wire.
    var refreshes: Int { sent.filter { $0.path == "/oauth/token" && $0.body.contains("grant_type=refresh_token") }.count }

    nonisolated func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
        let url = RedirectFollower.url(of: request, baseURL: baseURL)?.absoluteString ?? "?"
        let sent = Sent(method: request.method, url: url, headerFields: request.headerFields, body: String(decoding: data, as: UTF8.self))
        if let answer = await record(sent) {
            return (HTTPResponse(status: .init(code: answer.status), headerFields: answer.headerFields), HTTPBody(answer.body))
        }
        guard url.hasPrefix("https://auth.test/"), Self.backEndPaths.contains(sent.path) else {
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody("{}"))
        }
        return try await backEnd.send(request, body: body == nil ? nil : HTTPBody(data), baseURL: baseURL, operationID: operationID)
    }

    private func record(_ request: Sent) -> Answer? {
        sent.append(request)
        return route(request)
    }
}

/// A service for the test schema over `transport`, with a manual clock.
func makeService(
    transport: some ClientTransport, clock: ManualClock, logs: LogCapture = LogCapture(),
    store: InMemorySessionStore<TestDetails> = InMemorySessionStore()
) -> AuthenticationService<TestSchema> {
    AuthenticationService(
        configuration: .init(
            client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
            now: { clock.now }, logger: logs.logger(), sessionStore: store, receivesServerEvents: false))
}
