import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
@_spi(Generated) import SesameDescription

/// Signs the app's user in and out, keeps the credential fresh, and sends the schema's
/// operations: the actor that runs the authentication state machine's actions.
///
/// All of its state lives in this actor and every `await` inside it is followed by a check
/// that the session it worked for is still the current one (its epoch), so that sign-out,
/// user switches and concurrent refreshes never mix. Operations (`perform(_:)`) are
/// `nonisolated` and run concurrently; they enter the actor only to read or refresh the
/// credential. docs/runtime.md states the rules.
public actor AuthenticationService<Schema: SDKSchema>: OperationPerformer {
    /// The signed-in user's details.
    public typealias Details = Schema.Details
    /// The service's configuration.
    public typealias Configuration = AuthenticationServiceConfiguration<Schema.Details>
    typealias Machine = AuthenticationStateMachine<Schema.Details>

    let configuration: Configuration
    /// The schema's description, with the configuration's base URLs when it has them.
    let sdk: SDKDescription
    let pipeline: RequestPipeline
    /// The pipeline of the server-sent-events stream, over a transport that streams bodies.
    let eventPipeline: RequestPipeline
    let logger: Logger
    /// Where the access token may go: the API's origin.
    let scope: CredentialScope
    /// The authorization server's origin, for its requests that declare `authenticated`.
    let authorizationScope: CredentialScope
    /// Whether the API and the authorization server share one origin, so that client
    /// authentication may go to requests declared for either.
    let serversShareOrigin: Bool
    /// How the credential goes with a request, as its binding says.
    let presenter: CredentialPresenter
    /// Whether requests carry proofs of possession (DPoP), and who makes them.
    let proofs: ProofRequirement
    let matcher: RejectionMatcher
    /// Validates the ID tokens of OpenID Connect sign-ins: the configuration's
    /// `idTokenValidator`, else the one the schema's `openID:` describes (nil without either).
    nonisolated let idTokenValidator: (any IDTokenValidating)?
    /// How sign-out ends the session at the OpenID provider: the configuration's
    /// `endSession`, else the schema's `openID.endSession` (see ``ProviderEndSession``).
    nonisolated let providerEndSession: ProviderEndSession

    /// The state and the session in use, changed only through the machine's inputs, whose
    /// actions `run(_:isStartup:)` performs.
    var machine = Machine()
    /// The session in use (the machine's); nil when unauthenticated or invalid.
    var session: StoredSession<Schema.Details>? { machine.session }
    /// The session epoch (the machine's): bumped by every sign-in, sign-out, restore and
    /// invalidation, and by an identity attached to the current account.
    var epoch: UInt64 { machine.epoch }
    /// Bumped as `epoch` except by an identity attached: while it stays, the user does.
    var userEpoch: UInt64 { machine.userEpoch }
    /// Single flight, back-off and the window of the refresh engine, for the current epoch.
    var refresher: RefreshMachine<RefreshFlight>
    /// The sign-in process under way.
    var signIn = SignInMachine()
    /// The browser opened by the sign-in's browser step, closed when the sign-in is cancelled
    /// while the machine says it is open (``SignInMachine/isBrowserOpen``).
    var openBrowser: BrowserSession?
    /// The tasks the action executor started (see `run(_:isStartup:)`).
    var tasks = TaskTracker()
    var broadcaster: EventBroadcaster<AuthenticationEvent<Schema>>
    var subscriptions = SubscriptionRegistry()
    var eventStreamTask: Task<Void, Never>?
    /// The configuration's session store when other processes share it.
    let sharedSessionStore: (any SharedSessionStore<Schema.Details>)?
    /// Follows what the other processes save (see `followSharedSessionIfNeeded()`).
    var sharedSessionTask: Task<Void, Never>?

    /// Creates a service for `Schema`'s back-end. It starts `unauthenticated`; call
    /// ``restoreSession()`` to pick up the session saved by an earlier launch.
    public init(configuration: Configuration = Configuration()) {
        var sdk = Schema.description
        if let baseURL = configuration.baseURL { sdk.baseURL = baseURL }
        if let url = configuration.authorizationServerURL { sdk.authorizationBaseURL = url }
        if let issuer = configuration.authorizationServerIssuer { sdk.authorizationIssuer = issuer }
        self.configuration = configuration
        self.sharedSessionStore = configuration.sessionStore as? any SharedSessionStore<Schema.Details>
        self.sdk = sdk
        self.logger = configuration.logger
        var middlewares = configuration.middlewares + [LoggingMiddleware(logger: configuration.logger)]
        let presenter = CredentialPresenter(binding: sdk.credential.binding)
        let proofs = ProofRequirement(presenter: presenter, configuration: configuration)
        if case .signed(let prover) = proofs {
            // Innermost: the proof signs the request as the transport sends it.
            middlewares.append(ProofMiddleware(prover: prover, sdk: sdk, maximumBodySize: configuration.maximumResponseSize))
        }
        self.proofs = proofs
        let pipeline = RequestPipeline(transport: configuration.transport, middlewares: middlewares)
        self.pipeline = pipeline
        var eventTransport = configuration.eventTransport ?? configuration.transport
        #if canImport(FoundationNetworking)
        // swift-openapi-urlsession's `URLSessionTransport`, named rather than linked (the
        // runtime does not depend on that package): it buffers whole bodies here.
        if configuration.eventTransport == nil,
            String(reflecting: type(of: configuration.transport)) == "OpenAPIURLSession.URLSessionTransport"
        {
            eventTransport = StreamingURLSessionTransport()
        }
        #endif
        self.eventPipeline = RequestPipeline(transport: eventTransport, middlewares: middlewares)
        self.scope = CredentialScope(baseURL: sdk.baseURL)
        self.authorizationScope = CredentialScope(baseURL: sdk.baseURL(of: .authorization))
        self.serversShareOrigin =
            CredentialScope.Origin(url: sdk.baseURL) == CredentialScope.Origin(url: sdk.baseURL(of: .authorization))
        self.presenter = presenter
        self.matcher = RejectionMatcher(rule: sdk.credential.rejection, catalogue: sdk.errors, presenter: presenter)
        self.idTokenValidator =
            configuration.idTokenValidator
            ?? Self.schemaIDTokenValidator(sdk: sdk, configuration: configuration, pipeline: pipeline)
        self.providerEndSession = ProviderEndSession(sdk: sdk, configuration: configuration)
        if case .unusable(let reason) = providerEndSession {
            // Said once at configuration time; each sign-out of a session with an ID token says it again in its result.
            configuration.logger.warning("sign-out will not end the provider's session: \(reason)")
        }
        self.broadcaster = EventBroadcaster(capacity: configuration.eventBufferCapacity)
        let refresh = sdk.credential.refresh
        self.refresher = RefreshMachine(
            limits: .init(
                maxRefreshes: refresh?.maxRefreshes ?? 0, window: refresh?.window.timeInterval ?? 0,
                firstBackoff: configuration.refreshBackoff.timeInterval,
                maximumBackoff: configuration.maximumRefreshBackoff.timeInterval))
    }

    deinit {
        broadcaster.finishEach()
        subscriptions.cancelTasks()
        eventStreamTask?.cancel()
        sharedSessionTask?.cancel()
        tasks.cancelAll()
    }

    // MARK: State

    /// The current authentication state.
    public var state: AuthenticationState<Schema.Details> { machine.current }

    /// The user's details when the state is `authenticated` or `presession`, else nil.
    public var authenticationDetails: Schema.Details? { machine.current.details }

    /// The user's details when the state is `authenticated` or `presession`.
    /// - Throws: ``SesameError/notAuthenticated`` otherwise.
    public func authenticationDetailsThrows() throws -> Schema.Details {
        guard let details = machine.current.details else { throw SesameError.notAuthenticated }
        return details
    }

    /// The ID token of the session in use, which was validated when it was received (an
    /// OpenID Connect sign-in or refresh); nil when no user is signed in or the session holds
    /// none. For the generated typed claims accessor (`idTokenClaims()`).
    @_spi(Generated) public var sessionIDToken: String? { session?.credential.idToken }

    /// Whether the app last said the back-end is reachable (true until told otherwise).
    public var isOnline: Bool { machine.isOnline }

    /// Tells the service whether the back-end is reachable. While offline the state is
    /// frozen except for sign-out (and a sign-in that completes or a launch-time restore).
    /// Coming back online checks the session with the back-end before returning: a
    /// restored one through the restoration delegate, a signed-in one with the schema's
    /// details operation (with `details: idToken`, a refresh, when the credential has a
    /// refresh token); a rejected credential then makes the state `invalid`. Never throws.
    public func setConnectivity(online: Bool) async {
        await execute(machine.connectivityChanged(online: online), isStartup: false)
    }

    /// A middleware that applies and refreshes this service's credential, for an
    /// OpenAPI-generated client of the same back-end (see ``CredentialMiddleware``). It does
    /// not keep the service alive; requests pass without a credential once it is gone.
    ///
    /// With a schema that binds tokens to a key (DPoP), the middleware also signs each request
    /// to the back-end's origin with the configuration's ``ProofOfPossession``, as the service's
    /// own requests are; without a prover, those requests fail with
    /// ``SesameError/invalidState(reason:)`` and nothing is sent. Put it last among the
    /// client's middlewares, so that the proof signs the request as sent.
    public nonisolated var credentialMiddleware: CredentialMiddleware {
        makeCredentialMiddleware(
            source: SessionCredentialSource(service: WeakReference(self)), requiresCredential: false, signs: true)
    }

    /// A credential middleware for `server`'s requests. The service's own pipeline signs its
    /// requests itself (`ProofMiddleware`, innermost); `signs` makes the middleware sign them,
    /// for a client whose pipeline is not the service's.
    nonisolated func makeCredentialMiddleware(
        source: any CredentialSource, requiresCredential: Bool, server: ServerRole = .api, signs: Bool = false
    ) -> CredentialMiddleware {
        CredentialMiddleware(
            source: source, scope: server == .api ? scope : authorizationScope, matcher: matcher,
            presenter: presenter, requiresCredential: requiresCredential,
            maximumBodySize: configuration.maximumResponseSize, logger: logger,
            proofs: signs ? proofs : .none, proofsFor: sdk)
    }

    nonisolated func now() -> Date {
        configuration.now()
    }
}

/// A refresh under way, which every request that needs it awaits.
typealias RefreshFlight = Task<Credential, any Error>

/// The service as the credential source of its own session, without keeping it alive.
struct SessionCredentialSource<Schema: SDKSchema>: CredentialSource {
    let service: WeakReference<AuthenticationService<Schema>>
    /// Whether a refresh's own error (an ID token the validator refused) comes out as a
    /// ``RefreshOutcome``, which the service's own requests throw as it is instead of calling
    /// it a transport failure; an OpenAPI client's middleware gets the error itself.
    var marksRefreshErrors = false

    func credentialForSending() async throws -> Credential? {
        try await marked { try await service.value?.credentialForSending() }
    }

    func credentialAfterRejection(of rejected: Credential) async throws -> Credential? {
        guard let service = service.value else { return nil }
        return try await marked { try await service.credentialAfterRejection(of: rejected) }
    }

    private func marked<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error where marksRefreshErrors && !Self.isOwn(error) {
            throw RefreshOutcome(underlying: error)
        }
    }

    /// Whether `error` is one of the runtime's own, or cancellation: those pass as they are.
    private static func isOwn(_ error: any Error) -> Bool {
        error is SesameError || error is BackEndError || error is CancellationError || error is Schema.ServerError
    }
}

/// An error a refresh threw while a request of the service waited for its credential, that
/// is none of the runtime's own (the ID token validator's refusal): the service's request
/// throws ``underlying`` as it is.
struct RefreshOutcome: Error {
    let underlying: any Error
}
