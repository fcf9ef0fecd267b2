import Foundation
import HTTPTypes
import OpenAPIRuntime
import SesameTestSupport

extension InMemoryBackEnd {
    /// What the back-end did and saw, faults first.
    public struct Tally: Sendable {
        public var transportErrors = 0
        public var delayedRequests = 0
        public var transientRefreshFailures = 0
        public var terminalRefreshFailures = 0
        public var injectedRejections = 0
        public var redirects = 0
        /// Refresh requests that reached the transport, whatever happened to them.
        public var refreshes = 0
        public var signIns = 0
        /// Requests that carried a credential to another origin or to `GET /status`.
        public var credentialLeaks = 0
        /// Refresh requests with a refresh token the back-end had already rotated.
        public var reusedRefreshTokens = 0
        /// Refresh requests with a refresh token the back-end never issued.
        public var unknownRefreshTokens = 0
        /// `createNote` texts the back-end received twice (every request sends its own).
        public var replayedWrites = 0
        /// Answers lost after the back-end applied the operation (``FaultRates/lostResponse``).
        public var lostResponses = 0
        /// `createNote` requests that reached the back-end after a note of the same text was
        /// created: a non-idempotent request sent again after it was applied.
        public var resentWrites = 0
    }

    /// A response given byte for byte (``InMemoryBackEnd/answerNext(_:with:)``).
    public struct Answer: Sendable {
        public var status: Int
        public var contentType: String?
        public var headerFields: HTTPFields
        /// The body; nil for none at all (an empty body is not none).
        public var body: Data?

        /// An answer with `status`, `Content-Type: contentType` (none when nil), the other
        /// header fields, and `body`.
        public init(status: Int, contentType: String? = nil, headerFields: HTTPFields = [:], body: Data?) {
            self.status = status
            self.contentType = contentType
            self.headerFields = headerFields
            self.body = body
        }

        var response: (HTTPResponse, HTTPBody?) {
            var fields = headerFields
            if let contentType { fields[.contentType] = contentType }
            return (HTTPResponse(status: .init(code: status), headerFields: fields), body.map { HTTPBody($0) })
        }
    }

    /// A request as the back-end received it.
    public struct Received: Sendable {
        /// `METHOD /path`, without the query.
        public var route: String
        public var authorization: String?
        /// The body's fields, read as a form.
        public var form: [String: String]
    }

    /// A request as the back-end reads it.
    struct Incoming: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var query: [String: String]
        var headerFields: HTTPFields
        var body: Data
        var isForeign: Bool

        var route: String { "\(method.rawValue) \(path)" }
        var form: [String: String] { formFields(String(decoding: body, as: UTF8.self)) }
    }
}
