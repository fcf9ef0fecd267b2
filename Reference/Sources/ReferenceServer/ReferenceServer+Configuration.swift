import Foundation
import Logging

extension ReferenceServer {
    /// A client the token endpoint accepts (RFC 6749 §2).
    public struct Client: Sendable, Hashable {
        /// The client identifier.
        public var id: String
        /// The client secret; `nil` makes a public client that sends only `client_id`
        /// (and proves itself with PKCE at the authorization endpoint).
        public var secret: String?
        /// The redirect URIs the authorization endpoint accepts for this client, compared as
        /// exact strings (RFC 6749 §3.1.2.3, RFC 8252 §7.1 private-use schemes included).
        public var redirectURIs: [String]
        /// The `post_logout_redirect_uri`s the end-session endpoint (`GET /oauth/logout`)
        /// accepts for this client, compared as exact strings (RP-Initiated Logout 1.0 §3).
        public var postLogoutRedirectURIs: [String]

        /// Makes a client.
        public init(id: String, secret: String?, redirectURIs: [String] = [], postLogoutRedirectURIs: [String] = []) {
            self.id = id
            self.secret = secret
            self.redirectURIs = redirectURIs
            self.postLogoutRedirectURIs = postLogoutRedirectURIs
        }

        /// The demo client, `sesame-demo` with secret `demo-secret`, whose redirect URIs are
        /// ``demoRedirectURI`` and ``demoLoopbackRedirectURI`` (any port), and whose post-logout
        /// redirect URI is ``demoPostLogoutRedirectURI``.
        public static let demo = Client(
            id: "sesame-demo", secret: "demo-secret", redirectURIs: [demoRedirectURI, demoLoopbackRedirectURI],
            postLogoutRedirectURIs: [demoPostLogoutRedirectURI])

        /// The demo app, `sesame-demo-app`: a public client (no secret, as every native app is,
        /// RFC 8252 §8.4) that names itself with `client_id` and proves itself with PKCE, with
        /// the redirect URIs of ``demo``.
        public static let demoApp = Client(
            id: "sesame-demo-app", secret: nil, redirectURIs: [demoRedirectURI, demoLoopbackRedirectURI],
            postLogoutRedirectURIs: [demoPostLogoutRedirectURI])

        /// `sesame-demo://oauth/callback`, the demo client's redirect URI.
        public static let demoRedirectURI = "sesame-demo://oauth/callback"

        /// `sesame-demo://signed-out`, where the demo clients' end-session requests come back.
        public static let demoPostLogoutRedirectURI = "sesame-demo://signed-out"
    }

    /// Where the authorization server's endpoints (`/oauth/authorize`, `/oauth/token`,
    /// `/oauth/revoke`) are served.
    public enum AuthorizationServerPlacement: Sendable, Equatable {
        /// On the API's own listener: one origin for everything (the default).
        case sameOrigin
        /// On a second listener of the same process, at `port` (0 for any free port): a
        /// second origin that serves only the authorization server's endpoints, while the
        /// API's listener answers 404 for `/oauth/*`. Both share one ``ReferenceServerState``.
        case separate(port: Int)
    }

    /// Everything that can be set before the server starts.
    ///
    /// Values that tests change while the server runs (token lifetime, latency, failures,
    /// the clock) are also settable later through ``ReferenceServerState`` or `/_control`.
    public struct Configuration: Sendable {
        /// The address to bind, `127.0.0.1` by default.
        public var host: String
        /// The port to bind; 0 picks a free one (read it from ``ReferenceServer/Endpoint``).
        public var port: Int
        /// Whether the authorization server shares the API's origin (the default) or has a
        /// listener, hence an origin, of its own.
        public var authorizationServer: AuthorizationServerPlacement
        /// The lifetime of new access tokens, 3600 s by default.
        public var accessTokenLifetime: Duration
        /// The lifetime of refresh tokens; `nil` (the default) means they never expire.
        public var refreshTokenLifetime: Duration?
        /// How long a one-time code of an internal challenge stays valid, 300 s by default.
        public var challengeLifetime: Duration
        /// Wrong codes accepted before a challenge is burnt, 5 by default.
        public var challengeMaxAttempts: Int
        /// How long an authorization code stays redeemable, 60 s by default (RFC 6749 §4.1.2
        /// recommends at most 10 minutes).
        public var authorizationCodeLifetime: Duration
        /// How recent a sign-in `DELETE /identities/{provider}` and `DELETE /account` need.
        public var freshAuthenticationWindow: Duration
        /// The clients the token endpoint accepts.
        public var clients: [Client]
        /// User names and passwords the password grant and the login page accept.
        public var users: [String: String]
        /// The interval between `: ping` comments on event streams.
        public var heartbeatInterval: Duration
        /// How many events per user are kept for `Last-Event-ID` replay.
        public var eventBufferSize: Int
        /// Dev mode: log one-time codes at info level. Tokens and secrets are never logged.
        public var logsChallengeCodes: Bool
        /// The wall clock every expiry decision reads. Tests inject their own; the control
        /// API can also move the server's time forward (see ``ReferenceServerState/advanceClock(by:)``).
        public var now: @Sendable () -> Date
        /// The logger; the server logs requests at debug level and codes at info in dev mode.
        public var logger: Logger
        /// DPoP (RFC 9449): `nil` (the default) for a bearer server; see ``DPoPOptions``.
        public var dpop: DPoPOptions?
        /// Pushed authorization requests (RFC 9126); see ``PushedAuthorizationOptions``.
        public var pushedAuthorization: PushedAuthorizationOptions
        /// Passkeys (WebAuthn): `nil` (the default) serves no `/passkeys/*`; see ``PasskeyOptions``.
        public var passkeys: PasskeyOptions?

        /// Makes a configuration; every parameter has the default documented on its property.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            authorizationServer: AuthorizationServerPlacement = .sameOrigin,
            accessTokenLifetime: Duration = .seconds(3600),
            refreshTokenLifetime: Duration? = nil,
            challengeLifetime: Duration = .seconds(300),
            challengeMaxAttempts: Int = 5,
            authorizationCodeLifetime: Duration = .seconds(60),
            freshAuthenticationWindow: Duration = .seconds(300),
            clients: [Client] = [.demo, .demoApp],
            users: [String: String] = ["alice": "wonderland", "bob": "builder"],
            heartbeatInterval: Duration = .seconds(15),
            eventBufferSize: Int = 100,
            logsChallengeCodes: Bool = false,
            now: @escaping @Sendable () -> Date = { Date() },
            logger: Logger = Logger(label: "sesame.reference-server"),
            dpop: DPoPOptions? = nil,
            pushedAuthorization: PushedAuthorizationOptions = PushedAuthorizationOptions(),
            passkeys: PasskeyOptions? = nil
        ) {
            self.host = host
            self.port = port
            self.authorizationServer = authorizationServer
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.challengeLifetime = challengeLifetime
            self.challengeMaxAttempts = challengeMaxAttempts
            self.authorizationCodeLifetime = authorizationCodeLifetime
            self.freshAuthenticationWindow = freshAuthenticationWindow
            self.clients = clients
            self.users = users
            self.heartbeatInterval = heartbeatInterval
            self.eventBufferSize = eventBufferSize
            self.logsChallengeCodes = logsChallengeCodes
            self.now = now
            self.logger = logger
            self.dpop = dpop
            self.pushedAuthorization = pushedAuthorization
            self.passkeys = passkeys
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
