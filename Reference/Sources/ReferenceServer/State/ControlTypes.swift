import Foundation

// Public values of the control surface, shared by the in-process API and `/_control`.

/// Why a session was revoked (`RevocationReason` in models.yaml).
public enum RevocationReason: String, Codable, Sendable, CaseIterable {
    case signedOutElsewhere
    case passwordChanged
    case adminAction
}

/// One server-sent event as it goes on the wire.
public struct ServerSentEvent: Codable, Sendable, Equatable {
    /// The event's `id:`, increasing by one per user from 1.
    public var id: Int
    /// The event's `event:`, the wire name (`session.revoked`, `profile.updated`, `notice`, or anything pushed).
    public var event: String
    /// The event's `data:` text, one line of JSON for the schema's events.
    public var data: String

    /// Makes an event.
    public init(id: Int, event: String, data: String) {
        self.id = id
        self.event = event
        self.data = data
    }

    /// The event in `text/event-stream` framing, ending with the blank line that dispatches it.
    /// Data with line breaks is split over several `data:` lines, as the format requires.
    public var wireText: String {
        var text = "id: \(id)\nevent: \(event)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }
}

/// What the server has counted since it started or was last reset.
public struct ReferenceServerCounters: Codable, Sendable, Equatable {
    /// Requests per endpoint, keyed `METHOD /path/template` (e.g. `DELETE /identities/{provider}`).
    /// `/_control` requests are not counted, except `GET /_control/downstream-401`.
    public var requests: [String: Int]
    /// Successful `refresh_token` grants.
    public var refreshes: Int
    /// Refresh attempts answered with an error (dead, unknown or revoked refresh token).
    public var rejectedRefreshes: Int
    /// Token responses issued, keyed by how: `guest`, `internal`, `password`, `custom`,
    /// `refresh_token`, `authorization_code`.
    public var tokenGrants: [String: Int]
    /// Tokens `POST /oauth/revoke` found and revoked (unknown tokens are not counted).
    public var revocations: Int
    /// Sign-ins ended by `GET /oauth/logout` (OpenID Connect RP-Initiated Logout).
    public var endedSessions: Int

    /// Makes counters.
    public init(
        requests: [String: Int], refreshes: Int, rejectedRefreshes: Int, tokenGrants: [String: Int], revocations: Int = 0,
        endedSessions: Int = 0
    ) {
        self.requests = requests
        self.refreshes = refreshes
        self.rejectedRefreshes = rejectedRefreshes
        self.tokenGrants = tokenGrants
        self.revocations = revocations
        self.endedSessions = endedSessions
    }

    private enum CodingKeys: String, CodingKey {
        case requests, refreshes, rejectedRefreshes, tokenGrants, revocations, endedSessions
    }

    /// Decodes counters; `revocations` and `endedSessions` may be absent (counters of a server
    /// before them), then 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requests = try container.decode([String: Int].self, forKey: .requests)
        refreshes = try container.decode(Int.self, forKey: .refreshes)
        rejectedRefreshes = try container.decode(Int.self, forKey: .rejectedRefreshes)
        tokenGrants = try container.decode([String: Int].self, forKey: .tokenGrants)
        revocations = try container.decodeIfPresent(Int.self, forKey: .revocations) ?? 0
        endedSessions = try container.decodeIfPresent(Int.self, forKey: .endedSessions) ?? 0
    }

    /// The number of requests counted for `key` (`METHOD /path/template`), 0 when none.
    public func requests(_ key: String) -> Int { requests[key] ?? 0 }

    /// No counts at all.
    public static let zero = ReferenceServerCounters(requests: [:], refreshes: 0, rejectedRefreshes: 0, tokenGrants: [:])
}

/// What the server knows of an internal challenge, for tests that play the user reading the code.
public struct ChallengeInfo: Codable, Sendable, Equatable {
    /// The challenge's UUID string.
    public var challengeId: String
    /// The e-mail address or phone number it was sent to.
    public var identifier: String
    /// `email` or `sms`.
    public var channel: String
    /// The six-digit code.
    public var code: String
    /// When the code expires (RFC 3339, UTC).
    public var expiresAt: String
    /// True once the code was used or burnt by too many wrong attempts.
    public var consumed: Bool
}

/// A rule that makes matching requests fail instead of reaching their handler.
///
/// In JSON (`POST /_control/failures`), every field but `path` may be left out:
/// `{"path": "/me", "method": "GET", "count": 2, "status": 503, "body": {"error": "unavailable"}, "retryAfter": "1"}`
/// or `{"path": "/oauth/token", "closeConnection": true}`, or bytes that are not UTF-8:
/// `{"path": "/me", "status": 200, "rawBytes": "/v4=", "contentType": "application/json"}`.
public struct InjectedFailure: Codable, Sendable, Equatable {
    /// The HTTP method to match, any when `nil`.
    public var method: String?
    /// The request path (`/identities/guest`) or route template (`/identities/{provider}`) to
    /// match, or `*` for every request outside `/_control`.
    public var path: String
    /// How many matching requests fail; the rule is dropped after that. Defaults to 1.
    public var count: Int
    /// The status to answer, 503 by default.
    public var status: Int
    /// A JSON body to answer with; with neither ``rawBody`` nor ``rawBytes``, the body is empty.
    /// Set through the control API (`POST /_control/failures`); in process, use ``rawBody``.
    var body: JSONValue?
    /// A body to send as is (with ``contentType``, `text/plain` by default), e.g. broken JSON.
    public var rawBody: String?
    /// A body to send byte for byte (with ``contentType``), e.g. bytes that are not UTF-8 or
    /// more than the control API's 1 MiB request limit lets through `rawBody`; base64 in JSON.
    public var rawBytes: Data?
    /// The `Content-Type` of ``rawBody`` or ``rawBytes``.
    public var contentType: String?
    /// A `Retry-After` value (seconds or an HTTP date), sent as is.
    public var retryAfter: String?
    /// More headers to send.
    public var headers: [String: String]
    /// Close the connection without answering instead of sending a response.
    public var closeConnection: Bool

    /// Makes a rule; see the properties for the defaults.
    public init(
        method: String? = nil,
        path: String,
        count: Int = 1,
        status: Int = 503,
        rawBody: String? = nil,
        rawBytes: Data? = nil,
        contentType: String? = nil,
        retryAfter: String? = nil,
        headers: [String: String] = [:],
        closeConnection: Bool = false
    ) {
        self.init(
            method: method, path: path, count: count, status: status, body: nil, rawBody: rawBody, rawBytes: rawBytes,
            contentType: contentType, retryAfter: retryAfter, headers: headers, closeConnection: closeConnection)
    }

    /// Makes a rule with a JSON body (the wire's `JSONValue` is internal, as are the other wire types).
    init(
        method: String? = nil,
        path: String,
        count: Int = 1,
        status: Int = 503,
        body: JSONValue?,
        rawBody: String? = nil,
        rawBytes: Data? = nil,
        contentType: String? = nil,
        retryAfter: String? = nil,
        headers: [String: String] = [:],
        closeConnection: Bool = false
    ) {
        self.method = method
        self.path = path
        self.count = count
        self.status = status
        self.body = body
        self.rawBody = rawBody
        self.rawBytes = rawBytes
        self.contentType = contentType
        self.retryAfter = retryAfter
        self.headers = headers
        self.closeConnection = closeConnection
    }

    private enum CodingKeys: String, CodingKey {
        case method, path, count, status, body, rawBody, rawBytes, contentType, retryAfter, headers, closeConnection
    }

    /// Decodes a rule, applying the defaults for absent fields. `retryAfter` may be a number or a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 1
        status = try container.decodeIfPresent(Int.self, forKey: .status) ?? 503
        body = try container.decodeIfPresent(JSONValue.self, forKey: .body)
        rawBody = try container.decodeIfPresent(String.self, forKey: .rawBody)
        rawBytes = try container.decodeIfPresent(Data.self, forKey: .rawBytes)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        if let seconds = try? container.decodeIfPresent(Int.self, forKey: .retryAfter) {
            retryAfter = String(seconds)
        } else {
            retryAfter = try container.decodeIfPresent(String.self, forKey: .retryAfter)
        }
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        closeConnection = try container.decodeIfPresent(Bool.self, forKey: .closeConnection) ?? false
        guard count > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .count, in: container, debugDescription: "count must be at least 1")
        }
        guard (100...599).contains(status) else {
            throw DecodingError.dataCorruptedError(forKey: .status, in: container, debugDescription: "status must be 100...599")
        }
    }

    /// True when the rule applies to a request with this method, path and route template.
    func matches(method: String, path: String, template: String?) -> Bool {
        if let expected = self.method, expected.uppercased() != method.uppercased() { return false }
        return self.path == "*" || self.path == path || self.path == template
    }
}

/// Errors of the in-process control API.
public enum ControlError: Error, Sendable, Equatable {
    /// No account has this uid.
    case unknownUser(String)
    /// An event name that is empty or contains a line break.
    case invalidEventName(String)
    /// A provider name that models.yaml's `Provider` does not list.
    case unknownProvider(String)
    /// A device user code that is unknown, expired or already answered (RFC 8628).
    case unknownUserCode
}

/// One request as the server received it, for tests that check which origin got which
/// credential. It records whether credentials were present, never their values.
///
/// In JSON (`GET /_control/requests`):
/// `{"listener": "authorization", "method": "POST", "path": "/oauth/token", "bearer": false, "clientAuthentication": true}`
public struct RequestLogEntry: Codable, Sendable, Equatable {
    /// The listener, hence the origin, a request reached.
    public enum Listener: String, Codable, Sendable, Hashable, CaseIterable {
        /// The API's listener (every route in ``ReferenceServer/AuthorizationServerPlacement/sameOrigin``).
        case api
        /// The authorization server's own listener (``ReferenceServer/AuthorizationServerPlacement/separate(port:)``).
        case authorization
    }

    /// The listener the request reached.
    public var listener: Listener
    /// The HTTP method, e.g. `POST`.
    public var method: String
    /// The path, without the query (e.g. `/oauth/authorize`).
    public var path: String
    /// True when the request carried an `Authorization: Bearer` header, valid or not.
    public var bearer: Bool
    /// True when the request carried client credentials: an `Authorization: Basic` header or
    /// a `client_secret` form parameter.
    public var clientAuthentication: Bool

    /// Makes an entry.
    public init(listener: Listener, method: String, path: String, bearer: Bool, clientAuthentication: Bool) {
        self.listener = listener
        self.method = method
        self.path = path
        self.bearer = bearer
        self.clientAuthentication = clientAuthentication
    }
}

/// What the authorization endpoint puts in the `iss` of its redirects (RFC 9207), set with
/// `POST /_control/issuer`: its own issuer, another server's, or none.
public enum IssuerMode: String, Codable, Sendable {
    /// `iss` is the authorization server's issuer: its origin, `http://host:port` (the port
    /// it was given, whatever was asked for).
    case correct
    /// `iss` is ``IssuerMode/wrongIssuer``, another server's: a mix-up attack.
    case wrong
    /// No `iss`, as a server without RFC 9207 support answers.
    case missing

    /// The issuer the `wrong` mode sends.
    public static let wrongIssuer = "https://attacker.example"
}
