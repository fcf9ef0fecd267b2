import Foundation
import HTTPTypes

/// Everything the runtime needs to know about one back-end, as its schema declares it.
///
/// The generator emits one of these for each SDK (`<SDK>Schema.description`); the runtime
/// reads it and never hard-codes a path, a field name or an OAuth rule of its own.
public struct SDKDescription: Sendable, Hashable {
    /// The SDK's module name, such as `ReferenceSDK`.
    public var name: String
    /// The API's base URL; apps may override it when they create the service.
    public var baseURL: URL
    /// The authorization server's base URL (token, authorization and revocation endpoints)
    /// when the schema declares one apart from the API; nil when it is the API's own.
    /// Apps may override it when they create the service.
    public var authorizationBaseURL: URL?
    /// How the credential is read, applied, refreshed and recognised as rejected.
    public var credential: CredentialDescription
    /// Where error bodies keep their code and message, and each known code's category.
    public var errors: ErrorCatalogue
    /// The server-sent-events stream, when the back-end has one, and each event's effect.
    public var events: EventCatalogue
    /// The operations the authentication service itself calls.
    public var lifecycle: LifecycleDescription

    public init(
        name: String, baseURL: URL, authorizationBaseURL: URL? = nil, credential: CredentialDescription,
        errors: ErrorCatalogue, events: EventCatalogue, lifecycle: LifecycleDescription
    ) {
        self.name = name
        self.baseURL = baseURL
        self.authorizationBaseURL = authorizationBaseURL
        self.credential = credential
        self.errors = errors
        self.events = events
        self.lifecycle = lifecycle
    }
}

extension SDKDescription {
    /// The base URL requests declared for `server` go to; the authorization server's is
    /// the API's when the schema declares no authorization server of its own.
    public func baseURL(of server: ServerRole) -> URL {
        switch server {
        case .api: return baseURL
        case .authorization: return authorizationBaseURL ?? baseURL
        }
    }
}

/// The server a request goes to. The API is the only origin that receives the access
/// token unless a request declares otherwise; the authorization server (token,
/// authorization and revocation endpoints) is the only one that receives client
/// authentication. A schema with one server has both at the same base URL.
public enum ServerRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// The API: operations, and by default every step and the events stream.
    case api
    /// The authorization server: by default the refresh, the browser step and revocation.
    case authorization
}

/// How a request body is encoded.
public enum BodyEncoding: String, Sendable, Hashable, Codable {
    /// `application/json`.
    case json
    /// `application/x-www-form-urlencoded`, as RFC 6749 token requests are.
    case form
}

/// How a client authenticates to a token endpoint (RFC 6749 §2.3.1).
public enum ClientAuthentication: String, Sendable, Hashable, Codable {
    /// HTTP Basic with the client id and secret.
    case basic
    /// `client_id` and `client_secret` in the form body.
    case post
    /// No client authentication (a public client).
    case none
}

/// One HTTP request the schema declares: an operation, an authentication step or the
/// refresh request.
public struct RequestDescription: Sendable, Hashable {
    /// The name in the schema, for logs and errors.
    public var name: String
    public var method: HTTPRequest.Method
    /// The path below the base URL, with `{name}` placeholders for path parameters.
    public var path: String
    /// Whether the credential goes on the request.
    public var authenticated: Bool
    /// How the body is encoded.
    public var encoding: BodyEncoding
    /// Client authentication for token-endpoint requests; `.none` elsewhere.
    public var clientAuthentication: ClientAuthentication
    /// The longest time since sign-in after which the back-end refuses the operation; the
    /// runtime checks it before sending and fails with a reauthentication-required error.
    public var freshAuthentication: Duration?
    /// The server the request goes to.
    public var server: ServerRole

    public init(
        name: String, method: HTTPRequest.Method, path: String, authenticated: Bool = true,
        encoding: BodyEncoding = .json, clientAuthentication: ClientAuthentication = .none,
        freshAuthentication: Duration? = nil, server: ServerRole = .api
    ) {
        self.server = server
        self.name = name
        self.method = method
        self.path = path
        self.authenticated = authenticated
        self.encoding = encoding
        self.clientAuthentication = clientAuthentication
        self.freshAuthentication = freshAuthentication
    }
}

/// How the credential is read from token responses, applied, refreshed and recognised as
/// rejected by the auth server.
public struct CredentialDescription: Sendable, Hashable {
    /// Field names in a token response.
    public var accessTokenField: String
    public var refreshTokenField: String?
    /// Seconds until the access token expires (RFC 6749 `expires_in`).
    public var expiresInField: String?
    /// The header the access token goes in, and its format with `{accessToken}`.
    public var header: String
    public var format: Template
    /// The refresh request; nil when the back-end has no refresh.
    public var refresh: RefreshDescription?
    /// How to tell the auth server's own rejection from any other 401.
    public var rejection: RejectionRule
    /// The operation that returns the signed-in user's details.
    public var details: RequestDescription
    /// The property of the details that identifies the user.
    public var userIDField: String

    public init(
        accessTokenField: String, refreshTokenField: String?, expiresInField: String?, header: String,
        format: Template, refresh: RefreshDescription?, rejection: RejectionRule,
        details: RequestDescription, userIDField: String
    ) {
        self.accessTokenField = accessTokenField
        self.refreshTokenField = refreshTokenField
        self.expiresInField = expiresInField
        self.header = header
        self.format = format
        self.refresh = refresh
        self.rejection = rejection
        self.details = details
        self.userIDField = userIDField
    }
}

/// The refresh request and its limits.
public struct RefreshDescription: Sendable, Hashable {
    public var request: RequestDescription
    /// The body fields; templates may use `{refreshToken}` and `{accessToken}`.
    public var fields: [TemplateField]
    /// Refresh this long before the access token expires.
    public var leeway: Duration
    /// At most this many refreshes…
    public var maxRefreshes: Int
    /// …in this window; more fail with an excessive-refresh error.
    public var window: Duration

    public init(request: RequestDescription, fields: [TemplateField], leeway: Duration, maxRefreshes: Int, window: Duration) {
        self.request = request
        self.fields = fields
        self.leeway = leeway
        self.maxRefreshes = maxRefreshes
        self.window = window
    }
}

/// The auth server's own rejection of a credential: a response that matches every
/// condition given here. Any other 401 or 403 is returned to the caller untouched.
public struct RejectionRule: Sendable, Hashable {
    public var status: Int
    /// The `error` parameter of an RFC 6750 `WWW-Authenticate: Bearer` challenge.
    public var wwwAuthenticateError: String?
    /// The error code in the body, read through the error catalogue's envelope.
    public var bodyCode: String?

    public init(status: Int, wwwAuthenticateError: String? = nil, bodyCode: String? = nil) {
        self.status = status
        self.wwwAuthenticateError = wwwAuthenticateError
        self.bodyCode = bodyCode
    }
}

/// The operations the authentication service calls itself.
public struct LifecycleDescription: Sendable, Hashable {
    public var signOut: RequestDescription?
    public var detachIdentity: RequestDescription?
    public var destroyAccount: RequestDescription?
    /// The RFC 7009 revocation request sent at sign-out, after `signOut` (which still
    /// needs the credential the revocation ends). Skipped when one of its fields uses
    /// `{refreshToken}` and the session has none.
    public var revocation: RevocationDescription?

    public init(
        signOut: RequestDescription? = nil, detachIdentity: RequestDescription? = nil,
        destroyAccount: RequestDescription? = nil, revocation: RevocationDescription? = nil
    ) {
        self.signOut = signOut
        self.detachIdentity = detachIdentity
        self.destroyAccount = destroyAccount
        self.revocation = revocation
    }
}

/// A token revocation request (RFC 7009 §2.1) that sign-out sends: usually form-encoded,
/// with client authentication, `token={refreshToken}` and `token_type_hint`.
public struct RevocationDescription: Sendable, Hashable {
    public var request: RequestDescription
    /// The body fields; templates may use `{refreshToken}` and `{accessToken}`.
    public var fields: [TemplateField]

    public init(request: RequestDescription, fields: [TemplateField]) {
        self.request = request
        self.fields = fields
    }

    /// Whether a field sends `{refreshToken}`: without one there is nothing to revoke.
    var usesRefreshToken: Bool {
        fields.contains { field in
            switch field.value {
            case .literal: return false
            case .variable(let path): return path == ["refreshToken"]
            case .interpolation(let parts): return parts.contains { $0 == .variable(["refreshToken"]) }
            }
        }
    }
}

/// What an error code means to the runtime.
public enum ErrorCategory: String, Sendable, Hashable, Codable, CaseIterable {
    /// The credential or grant is no good: the session becomes invalid.
    case credentialRejected = "credential-rejected"
    /// The operation needs a more recent sign-in.
    case reauthenticationRequired = "reauthentication-required"
    /// Worth retrying later (rate limits, unavailability).
    case transient
    /// The request was wrong.
    case client
    /// The back-end failed.
    case server
}

/// Where error bodies keep their code and message, and what each known code means.
public struct ErrorCatalogue: Sendable, Hashable {
    public var codeField: String
    public var messageField: String?
    /// Known codes with their declared status and category.
    public var codes: [String: ErrorCategory]

    public init(codeField: String, messageField: String?, codes: [String: ErrorCategory]) {
        self.codeField = codeField
        self.messageField = messageField
        self.codes = codes
    }

    /// The category of a code the catalogue does not know, from the HTTP status alone.
    public static func category(forStatus status: Int) -> ErrorCategory {
        switch status {
        case 408, 425, 429, 502, 503, 504: return .transient
        case 500...599: return .server
        default: return .client
        }
    }
}

/// The server-sent-events stream and the effect of each event on the auth state.
public struct EventCatalogue: Sendable, Hashable {
    /// The stream request; nil when the back-end pushes no events.
    public var stream: RequestDescription?
    /// Wire names whose event invalidates the session.
    public var invalidating: Set<String>

    public init(stream: RequestDescription?, invalidating: Set<String>) {
        self.stream = stream
        self.invalidating = invalidating
    }
}
