import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import ReferenceSDK

/// An in-memory back-end for the reference schema, as a `ClientTransport`: it answers every
/// sign-in step, refresh and operation with a well-formed body, except the requests a test
/// gives an answer of its own (``answerNext(_:with:)``), which get that answer once, byte for
/// byte. It records the requests it receives and the tokens it issues, so that a test can
/// tell whether a refresh was sent, which credential a request carried, and that no token
/// shows up where it must not.
actor MalformedBackEnd: ClientTransport {
    /// A response given byte for byte.
    struct Answer: Sendable {
        var status: Int
        var contentType: String?
        var headerFields: HTTPFields = [:]
        var body: Data
    }

    /// A request as the back-end received it.
    struct Received: Sendable {
        /// `METHOD /path`, without the query.
        var route: String
        var authorization: String?
        var form: [String: String]
    }

    /// Lifetime of the access tokens it issues.
    static let expiresIn = 3600
    static let details = #"{"uid":"u1","provider":"guest","providerUID":"p1"}"#
    static let challengeID = "3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55"

    private(set) var received: [Received] = []
    /// Every access and refresh token issued so far.
    private(set) var issuedTokens: [String] = []
    private var answers: [String: Answer] = [:]

    /// Answers the next request to `route` (`POST /oauth/token`) with `answer` instead.
    func answerNext(_ route: String, with answer: Answer) {
        answers[route] = answer
    }

    /// Whether an answer set with ``answerNext(_:with:)`` is still waiting for its request.
    var hasPendingAnswers: Bool { !answers.isEmpty }

    /// The refresh requests received (token requests with `grant_type=refresh_token`).
    var refreshCount: Int { received.filter { $0.form["grant_type"] == "refresh_token" }.count }

    nonisolated func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        let data = body == nil ? Data() : try await Data(collecting: body!, upTo: 1 << 20)
        let path = request.path.map { String($0.prefix { $0 != "?" }) } ?? ""
        let form = Self.form(String(decoding: data, as: UTF8.self))
        let received = Received(route: "\(request.method.rawValue) \(path)",
                                authorization: request.headerFields[.authorization], form: form)
        let answer = await answer(to: received)
        var fields = answer.headerFields
        if let contentType = answer.contentType { fields[.contentType] = contentType }
        return (HTTPResponse(status: .init(code: answer.status), headerFields: fields), HTTPBody(answer.body))
    }

    private func answer(to request: Received) -> Answer {
        received.append(request)
        if let answer = answers.removeValue(forKey: request.route) { return answer }
        switch request.route {
        case "POST /auth/guest", "POST /auth/internal/verify", "POST /auth/custom", "POST /oauth/token":
            return json(tokenResponse())
        case "POST /auth/internal/challenge":
            return json(#"{"challengeId":"\#(Self.challengeID)","channel":"email","expiresAt":"2024-05-01T12:00:00Z"}"#)
        case "GET /me":
            return json(Self.details)
        case "GET /identities":
            return json(#"[{"provider":"guest","providerUID":"p1","attachedOn":"2024-05-01"}]"#)
        case let route where route.hasPrefix("DELETE /identities/"):
            return json(#"{"accountDestroyed":false,"remaining":[]}"#)
        case "GET /notes":
            return json(#"[\#(Self.note)]"#)
        case "POST /notes":
            return json(Self.note)
        case "GET /status":
            return json(#"{"status":"ok"}"#)
        case "POST /auth/logout", "DELETE /account":
            return Answer(status: 204, body: Data())
        default:
            return Answer(status: 404, contentType: "application/json", body: Data(#"{"error":"not_found"}"#.utf8))
        }
    }

    static let note = #"{"id":"\#(challengeID)","text":"milk","pinned":false,"createdAt":"2024-05-01T12:00:00Z"}"#

    private func tokenResponse() -> String {
        let number = issuedTokens.count / 2 + 1
        let access = "at-\(number)-\(UUID().uuidString)"
        let refresh = "rt-\(number)-\(UUID().uuidString)"
        issuedTokens += [access, refresh]
        return #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":\#(Self.expiresIn),"refresh_token":"\#(refresh)"}"#
    }

    private func json(_ text: String) -> Answer {
        Answer(status: 200, contentType: "application/json", body: Data(text.utf8))
    }

    private static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}

/// Every log line of a service, as text, to check that no secret is logged.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    func logger() -> Logger {
        Logger(label: "malformed") { _ in Handler(lines: self) }
    }

    private func append(_ line: String) { lock.withLock { lines.append(line) } }

    private struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            lines.append("\(event.level) \(event.message) \(all)")
        }
    }
}

/// A wall clock that moves only when a test says so.
final class StoppedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    var now: Date { lock.withLock { current } }

    func advance(seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}
