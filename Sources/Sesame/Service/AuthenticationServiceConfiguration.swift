import Foundation
import Logging
import OpenAPIRuntime

/// How an ``AuthenticationService`` talks to its back-end and where it keeps its session.
/// Every property has a default that suits an app; tests replace the transport, the clock
/// and the store.
public struct AuthenticationServiceConfiguration<Details: Codable & Hashable & Sendable>: Sendable {
    /// Replaces the schema's base URL of the API (for staging, or a server on loopback);
    /// nil keeps it. When the schema declares no authorization server of its own, the
    /// authorization server moves with it.
    public var baseURL: URL?
    /// Replaces the schema's base URL of the authorization server (token, authorization
    /// and revocation endpoints); nil keeps the schema's, or the API's when the schema
    /// declares no authorization server of its own.
    public var authorizationServerURL: URL?
    /// Replaces the schema's issuer of the authorization server, against which the `iss` of
    /// every browser sign-in's authorization response is checked (RFC 9207); nil keeps the
    /// schema's (`authorizationServer: { issuer: … }`), or checks none when it declares none.
    /// Set it too when ``authorizationServerURL`` moves to a server with another issuer.
    public var authorizationServerIssuer: AuthorizationServerIssuer?
    /// Opens the authorization request of a browser sign-in step (authorization code with
    /// PKCE) and returns the redirect back to the app; nil when the app has no such method.
    public var browser: (any Browser)?
    /// Replaces the redirect URI of every browser step (the schema's `redirectURI`), per build
    /// or environment; nil keeps the schema's. A loopback URI without a port
    /// (`http://127.0.0.1/callback`, RFC 8252 §7.3) gets the port the browser listens on
    /// (``LoopbackBrowser``). The authorization request and the token request carry the URI
    /// the browser prepared, and the redirect must come back to it.
    public var redirectURI: URL?
    /// The app's OAuth client, for token requests declaring client authentication.
    public var client: ClientCredentials?
    /// Sends the requests: by default ``StreamingURLSessionTransport/shared``, a URLSession
    /// that hands every redirect back to the pipeline, which follows it and sends the
    /// credential only to the back-end's origin, and that stops reading a response at
    /// ``maximumResponseSize`` as it arrives. A transport that follows redirects itself may
    /// send the credential wherever the back-end redirects; `URLSessionTransport` buffers
    /// whole bodies on Linux before the limit can apply.
    public var transport: any ClientTransport
    /// Extra middlewares, run inside the credential middleware for every request.
    public var middlewares: [any ClientMiddleware]
    /// The current time. Every expiry, leeway, window and freshness decision reads it and
    /// nothing else, so tests inject a manual clock.
    public var now: @Sendable () -> Date
    /// Waits for a duration: a device step (RFC 8628) waits so between token requests. It
    /// throws when the waiting task is cancelled, which stops the polling. Tests inject one
    /// that advances their manual ``now`` instead of sleeping.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Where the runtime logs; tokens and secrets are never logged.
    public var logger: Logger
    /// Where the session is kept between launches.
    public var sessionStore: any SessionStore<Details>
    /// Decides what happens to a session restored at launch.
    public var restorationDelegate: any SessionRestorationDelegate<Details>
    /// Told when a user's session begins and ends, inside the step that changes the state
    /// (per-user contexts: `SesameStore`'s `AppSession` sets it); nil for none.
    public var userSessionObserver: (any UserSessionObserver)?
    /// How many undelivered events each subscriber may have before its oldest are dropped.
    public var eventBufferCapacity: Int
    /// Whether to read the schema's server-sent-events stream while a user is signed in.
    public var receivesServerEvents: Bool
    /// How long to wait before reconnecting the event stream, unless the back-end says
    /// otherwise with `retry:`.
    public var eventStreamReconnectDelay: Duration
    /// The largest response body the runtime reads, in bytes. Reading stops there: a larger
    /// 2xx body fails with ``SesameError/decoding(operation:reason:)``, a larger error body is
    /// dropped (the error keeps its status). It is also the largest server-sent event (its
    /// lines up to the blank line that ends it) and the largest line of the event stream:
    /// past it the stream fails and reconnects.
    public var maximumResponseSize: Int
    /// How long refreshes wait after a transient failure (network, 5xx, 429) that came
    /// without `Retry-After`; each further transient failure in a row doubles it. Until
    /// then a refresh fails at once with the same error. A success resets it.
    public var refreshBackoff: Duration
    /// The longest ``refreshBackoff`` grows to. A `Retry-After` is honoured as it is.
    public var maximumRefreshBackoff: Duration
    /// The transport of the server-sent-events stream; nil uses ``transport``, except that
    /// a `URLSessionTransport` on Linux is replaced by a ``StreamingURLSessionTransport``
    /// (URLSessionTransport buffers whole bodies there, so live events would never arrive).
    public var eventTransport: (any ClientTransport)?
    /// The longest a call may take, from sending its request to reading the last byte of its
    /// response, redirects and a refresh it waits for included (not the event stream, which
    /// stays open). Past it the call is cancelled and fails with
    /// ``SesameError/transport(operation:reason:)`` ("timed out: …"). 60 s by default.
    public var requestTimeout: Duration
    /// The longest a refresh may take, its request and response included. Past it the
    /// refresh fails as a transient transport failure (a timeout), which starts the back-off.
    /// 60 s by default.
    public var refreshTimeout: Duration
    /// Validates the ID token of each browser sign-in (OpenID Connect, `SesameOpenID`'s
    /// `IDTokenValidator`); with one, each authorization request sends a fresh `nonce` and the
    /// code exchange must answer an `id_token` that passes it. nil by default: the validator
    /// the schema's `openID:` describes, for its `openID: true` steps only; with a schema
    /// without `openID:`, no nonce and no ID token required. Set, it replaces the schema's.
    public var idTokenValidator: (any IDTokenValidating)?
    /// Ends the user's session at the OpenID provider on sign-out (RP-Initiated Logout 1.0):
    /// when the session holds an ID token, `unauthenticate()` opens the provider's end-session
    /// endpoint in ``browser`` after the back-end's revocation, and its result says whether
    /// the provider confirmed. nil by default: the end session the schema's `openID.endSession`
    /// and `openID.postLogoutRedirectURI` describe (with ``postLogoutRedirectURI`` when set),
    /// or none when the schema declares no `endSession`. Set, it replaces the schema's.
    public var endSession: EndSessionConfiguration?
    /// Replaces the schema's `openID.postLogoutRedirectURI`, the URI the provider redirects
    /// back to after the schema's end session (per build or environment); nil keeps the
    /// schema's. Not used when ``endSession`` is set (it carries its own). Set when there is no
    /// end-session endpoint at all (no `openID.endSession`, no ``endSession``), it cannot be
    /// used: the service logs a warning when it is created, and the sign-out of a session with
    /// an ID token returns `.providerNotConfirmed(reason:notRevoked:)` saying so.
    public var postLogoutRedirectURI: URL?
    /// Whether sign-out ends the session at the OpenID provider: `false` turns off both the
    /// schema's end session and ``endSession``, so sign-out stays with the back-end. `true` by
    /// default.
    public var endsProviderSession: Bool
    /// Proves possession of the key the server binds tokens to (DPoP, RFC 9449;
    /// `SesameDPoP`'s `DPoP`), for a schema whose credential says `binding: dpop`: its
    /// requests to the API and the authorization server each carry a proof. Such a schema
    /// needs one: without it, every request fails with ``SesameError/invalidState(reason:)``
    /// before anything is sent. nil by default; ignored, with a warning, by a schema that
    /// sends bearer tokens.
    public var proofOfPossession: (any ProofOfPossession)?

    /// Creates a configuration; every parameter has a default.
    public init(
        baseURL: URL? = nil, client: ClientCredentials? = nil,
        transport: any ClientTransport = StreamingURLSessionTransport.shared, middlewares: [any ClientMiddleware] = [],
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "sesame.authentication"),
        sessionStore: any SessionStore<Details> = InMemorySessionStore<Details>(),
        restorationDelegate: any SessionRestorationDelegate<Details> = DefaultSessionRestorationDelegate<Details>(),
        eventBufferCapacity: Int = 256, receivesServerEvents: Bool = true,
        eventStreamReconnectDelay: Duration = .seconds(2), maximumResponseSize: Int = 8 << 20,
        refreshBackoff: Duration = .seconds(1), maximumRefreshBackoff: Duration = .seconds(60),
        eventTransport: (any ClientTransport)? = nil, userSessionObserver: (any UserSessionObserver)? = nil,
        authorizationServerURL: URL? = nil, browser: (any Browser)? = nil, redirectURI: URL? = nil,
        authorizationServerIssuer: AuthorizationServerIssuer? = nil, idTokenValidator: (any IDTokenValidating)? = nil,
        endSession: EndSessionConfiguration? = nil, postLogoutRedirectURI: URL? = nil, endsProviderSession: Bool = true,
        requestTimeout: Duration = .seconds(60), refreshTimeout: Duration = .seconds(60),
        proofOfPossession: (any ProofOfPossession)? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.requestTimeout = requestTimeout
        self.proofOfPossession = proofOfPossession
        self.idTokenValidator = idTokenValidator
        self.endSession = endSession
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.endsProviderSession = endsProviderSession
        self.refreshTimeout = refreshTimeout
        self.sleep = sleep
        self.authorizationServerURL = authorizationServerURL
        self.authorizationServerIssuer = authorizationServerIssuer
        self.browser = browser
        self.redirectURI = redirectURI
        self.eventTransport = eventTransport
        self.userSessionObserver = userSessionObserver
        self.baseURL = baseURL
        self.client = client
        self.transport = transport
        self.middlewares = middlewares
        self.now = now
        self.logger = logger
        self.sessionStore = sessionStore
        self.restorationDelegate = restorationDelegate
        self.eventBufferCapacity = eventBufferCapacity
        self.receivesServerEvents = receivesServerEvents
        self.eventStreamReconnectDelay = eventStreamReconnectDelay
        self.maximumResponseSize = maximumResponseSize
        self.refreshBackoff = refreshBackoff
        self.maximumRefreshBackoff = maximumRefreshBackoff
    }
}
