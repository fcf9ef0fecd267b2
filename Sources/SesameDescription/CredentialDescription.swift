/// How the credential is read from token responses, applied, refreshed and recognised as
/// rejected by the auth server.
@_spi(Generated) public struct CredentialDescription: Sendable, Hashable {
    /// Field names in a token response.
    public var accessTokenField: String
    public var refreshTokenField: String?
    /// Seconds until the access token expires (RFC 6749 `expires_in`).
    public var expiresInField: String?
    /// How the access token goes with a request (``CredentialBinding``).
    public var binding: CredentialBinding
    /// The refresh request; nil when the back-end has no refresh.
    public var refresh: RefreshDescription?
    /// How to tell the auth server's own rejection from any other 401.
    public var rejection: RejectionRule
    /// The operation that returns the signed-in user's details; nil when the details are the
    /// claims of the ID token an OpenID Connect sign-in or refresh returned (`details: idToken`).
    public var details: RequestDescription?
    /// The property of the details that identifies the user.
    public var userIDField: String

    public init(
        accessTokenField: String, refreshTokenField: String? = nil, expiresInField: String? = nil, header: String,
        format: Template, refresh: RefreshDescription? = nil, rejection: RejectionRule, details: RequestDescription? = nil,
        userIDField: String
    ) {
        self.accessTokenField = accessTokenField
        self.refreshTokenField = refreshTokenField
        self.expiresInField = expiresInField
        self.binding = .bearer(header: header, format: format)
        self.refresh = refresh
        self.rejection = rejection
        self.details = details
        self.userIDField = userIDField
    }

    /// A credential sent as `binding` says (the initialiser above is the bearer one's).
    public init(
        accessTokenField: String, refreshTokenField: String? = nil, expiresInField: String? = nil, binding: CredentialBinding,
        refresh: RefreshDescription? = nil, rejection: RejectionRule, details: RequestDescription? = nil, userIDField: String
    ) {
        self.init(
            accessTokenField: accessTokenField, refreshTokenField: refreshTokenField, expiresInField: expiresInField,
            header: "Authorization", format: .variable(.accessToken), refresh: refresh, rejection: rejection, details: details,
            userIDField: userIDField)
        self.binding = binding
    }
}

extension CredentialDescription {
    /// The header the access token goes in.
    public var header: String { binding.header }

    /// The header's value, with `{accessToken}`.
    public var format: Template { binding.format }
}

extension CredentialBinding {
    /// The header the access token goes in: the schema's for a bearer token,
    /// `Authorization` for DPoP (RFC 9449 §7.1).
    public var header: String {
        switch self {
        case .bearer(let header, _): header
        case .dpop: "Authorization"
        }
    }

    /// The header's value, with `{accessToken}`: `DPoP {accessToken}` for DPoP.
    public var format: Template {
        switch self {
        case .bearer(_, let format): format
        case .dpop: .interpolation([.text("DPoP "), .variable(.accessToken)])
        }
    }
}

/// How a credential is sent with a request: one case per way, so that a new way of sending
/// (a token bound to the device's key, a client certificate) is one more case, and the one
/// place in the runtime that turns (credential, binding, request) into header fields, the
/// runtime's `CredentialPresenter`, one more branch. The refresh engine never knows which
/// binding it carries.
@_spi(Generated) public enum CredentialBinding: Sendable, Hashable {
    /// The access token as it is (a bearer token, RFC 6750): `header` set to `format` with
    /// `{accessToken}` (`Authorization: Bearer {accessToken}` by default); a 401 says why
    /// in a `WWW-Authenticate: Bearer` challenge.
    case bearer(header: String, format: Template)
    /// A token bound to a key of the device (DPoP, RFC 9449): `Authorization: DPoP
    /// {accessToken}`, and every request to the API or the authorization server carries a
    /// `DPoP` proof signed with one of its `algorithms` (JWS names, `ES256`); a 401 says why
    /// in a `WWW-Authenticate: DPoP` challenge.
    case dpop(DPoPBinding)
}

/// A credential bound to a key of the device (DPoP, RFC 9449).
@_spi(Generated) public struct DPoPBinding: Sendable, Hashable {
    /// The JWS algorithms the server accepts for proofs (`ES256`), from its
    /// `dpop_signing_alg_values_supported`.
    public var algorithms: [String]

    public init(algorithms: [String]) {
        self.algorithms = algorithms
    }
}

/// The refresh request and its limits.
@_spi(Generated) public struct RefreshDescription: Sendable, Hashable {
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

    /// What the refresh's and the revocation's fields may read.
    public static let providedValues: Set<Placeholder> = [.accessToken, .refreshToken]
}

/// The auth server's own rejection of a credential: a response that matches every
/// condition given here. Any other 401 or 403 is returned to the caller untouched.
@_spi(Generated) public struct RejectionRule: Sendable, Hashable {
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
