import Foundation

/// One HTTP request the schema declares: an operation, an authentication step, the refresh,
/// the revocation, an authorization request or the events stream.
@_spi(Generated) public struct RequestDescription: Sendable, Hashable {
    /// The name in the schema, for logs and errors.
    public var name: String
    public var method: RequestMethod
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
        name: String, method: RequestMethod, path: String, authenticated: Bool = true, encoding: BodyEncoding = .json,
        clientAuthentication: ClientAuthentication = .none, freshAuthentication: Duration? = nil, server: ServerRole = .api
    ) {
        self.name = name
        self.method = method
        self.path = path
        self.authenticated = authenticated
        self.encoding = encoding
        self.clientAuthentication = clientAuthentication
        self.freshAuthentication = freshAuthentication
        self.server = server
    }
}

extension RequestDescription {
    /// ``path`` without the constant query of the request line: the part with `{placeholders}`.
    public var pathWithoutQuery: Substring {
        path[..<(path.firstIndex(of: "?") ?? path.endIndex)]
    }

    /// The constant query the request line wrote (`grant_type=password` of
    /// `POST /token?grant_type=password`), percent-encoded by the generator; nil without one.
    public var constantQuery: Substring? {
        path.firstIndex(of: "?").map { path[path.index(after: $0)...] }
    }

    /// `name=value` as a query parameter is sent, the runtime's and the generator's constant
    /// alike: each percent-encoded but for what a query allows other than `&=+#?/%`.
    public static func queryItem(name: String, value: String) -> String {
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: queryValue) ?? text }
        return encoded(name) + "=" + encoded(value)
    }

    private static let queryValue: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#?/%")
        return set
    }()
}

/// The HTTP method of a request the schema declares (its request line's first word).
@_spi(Generated) public enum RequestMethod: String, Sendable, Hashable, Codable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case head = "HEAD"
    case options = "OPTIONS"
}

/// How a request body is encoded (`encoding:`).
@_spi(Generated) public enum BodyEncoding: String, Sendable, Hashable, Codable, CaseIterable {
    /// `application/json`.
    case json
    /// `application/x-www-form-urlencoded`, as RFC 6749 token requests are.
    case form
}

/// How a client authenticates to a token endpoint (RFC 6749 §2.3.1; `clientAuthentication:`).
@_spi(Generated) public enum ClientAuthentication: String, Sendable, Hashable, Codable, CaseIterable {
    /// HTTP Basic with the client id and secret.
    case basic
    /// `client_id` and `client_secret` in the form body.
    case post
    /// No client authentication (a public client).
    case none
}

/// The server a request goes to (`server:`). The API is the only origin that receives the
/// access token unless a request declares otherwise; the authorization server (token,
/// authorization and revocation endpoints) is the only one that receives client
/// authentication. A schema with one server has both at the same base URL.
@_spi(Generated) public enum ServerRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// The API: operations, and by default every step and the events stream.
    case api
    /// The authorization server: by default the refresh, the browser step and revocation.
    case authorization
}
