import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The Sesame reference back-end: an in-memory server on Hummingbird that speaks the
/// protocol of Schema/ (RFC 6749 token endpoint, RFC 6750 Bearer resources, server-sent
/// events), plus a `/_control` API for tests and the demo.
///
/// ```swift
/// let server = ReferenceServer(configuration: .init(port: 0, accessTokenLifetime: .seconds(60)))
/// let endpoint = try await server.start()
/// // ... talk to endpoint.baseURL, or drive server.state ...
/// await server.stop()
/// ```
public actor ReferenceServer {
    /// Where a started server listens.
    public struct Endpoint: Sendable, Equatable {
        /// The address it is bound to.
        public var host: String
        /// The port of the API's listener (the real one when 0 was asked for).
        public var port: Int
        /// `http://host:port`, with no trailing slash: the API's origin.
        public var baseURL: URL
        /// The port of the authorization server's listener: ``port`` in
        /// ``AuthorizationServerPlacement/sameOrigin``.
        public var authorizationPort: Int
        /// The authorization server's origin (`/oauth/authorize`, `/oauth/token`,
        /// `/oauth/revoke`), with no trailing slash: ``baseURL`` in
        /// ``AuthorizationServerPlacement/sameOrigin``.
        public var authorizationBaseURL: URL
    }

    /// Errors of ``start()``.
    public enum StartError: Error, Sendable {
        /// The server stopped before it was listening (e.g. the port was taken); `reason`
        /// describes the underlying error.
        case didNotStart(reason: String)
        /// ``start()`` was called on a server that is already running.
        case alreadyRunning
    }

    /// The configuration the server was made with.
    public nonisolated let configuration: Configuration
    /// The server's state and in-process control API (counters, revocation, events, clock).
    public nonisolated let state: ReferenceServerState

    private var running: (group: ServiceGroup, task: Task<Void, any Error>, endpoint: Endpoint)?
    private var starting = false

    /// Makes a server; nothing listens until ``start()`` or ``run()``.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.state = ReferenceServerState(configuration: configuration)
    }

    /// Where the server listens, once ``start()`` has returned; nil otherwise.
    public var endpoint: Endpoint? { running?.endpoint }

    /// Starts listening in the background and returns once every socket is bound (one, or
    /// two with ``AuthorizationServerPlacement/separate(port:)``).
    /// Throws ``StartError/didNotStart(reason:)`` when the server cannot bind, and
    /// ``StartError/alreadyRunning`` when it is already started.
    public func start() async throws -> Endpoint {
        guard running == nil, !starting else { throw StartError.alreadyRunning }
        starting = true
        defer { starting = false }
        let (ports, portContinuation) = AsyncStream.makeStream(of: (RequestLogEntry.Listener, Int).self)
        let group = ServiceGroup(
            configuration: .init(
                services: makeApplications { listener, port in portContinuation.yield((listener, port)) },
                gracefulShutdownSignals: [],
                logger: configuration.logger
            )
        )
        // On threads of its own: see ServerExecutor.
        let task = Task(executorPreference: ServerExecutor.shared) {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var bound: [RequestLogEntry.Listener: Int] = [:]
        for await (listener, port) in ports {
            bound[listener] = port
            if bound.count == listeners.count { break }
        }
        guard let apiPort = bound[.api], bound.count == listeners.count else {
            await group.triggerGracefulShutdown()
            do {
                try await task.value
                throw StartError.didNotStart(reason: "The server stopped before listening.")
            } catch let error as StartError {
                throw error
            } catch {
                throw StartError.didNotStart(reason: "\(error)")
            }
        }
        let authorizationPort = bound[.authorization] ?? apiPort
        let endpoint = Endpoint(
            host: configuration.host,
            port: apiPort,
            baseURL: Self.url(host: configuration.host, port: apiPort),
            authorizationPort: authorizationPort,
            authorizationBaseURL: Self.url(host: configuration.host, port: authorizationPort)
        )
        await state.setIssuer(endpoint.authorizationBaseURL.absoluteString)
        running = (group, task, endpoint)
        return endpoint
    }

    /// Stops a server started with ``start()``: open event streams end, in-flight requests
    /// finish, then the sockets close (both, with a separate authorization server). Does
    /// nothing when the server is not running.
    public func stop() async {
        guard let running else { return }
        self.running = nil
        await state.disconnectEventStreams()
        await running.group.triggerGracefulShutdown()
        _ = try? await running.task.value
    }

    /// Runs the server in the foreground until SIGINT or SIGTERM, then shuts down gracefully.
    /// Logs each listener's base URL once it listens. Throws when the server cannot bind.
    public func run() async throws {
        let host = configuration.host
        let logger = configuration.logger
        let applications = makeApplications { listener, port in
            switch listener {
            case .api where self.listeners.count == 1:
                logger.info("Sesame reference server listening on \(Self.url(host: host, port: port).absoluteString)")
            case .api:
                logger.info("Sesame reference server: the API listening on \(Self.url(host: host, port: port).absoluteString)")
            case .authorization:
                logger.info(
                    "Sesame reference server: the authorization server listening on \(Self.url(host: host, port: port).absoluteString)")
            }
        }
        let group = ServiceGroup(
            configuration: .init(services: applications, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
    }

    /// The listeners the configuration asks for: the API's, and the authorization server's
    /// when it is separate.
    private nonisolated var listeners: [RequestLogEntry.Listener] {
        configuration.authorizationServer == .sameOrigin ? [.api] : [.api, .authorization]
    }

    private static func url(host: String, port: Int) -> URL {
        URL(string: "http://\(host):\(port)")!
    }

    /// One application per listener. The API's serves the control API, the sign-in methods,
    /// the resources and the events, plus the authorization server's endpoints when they
    /// share its origin; a separate authorization listener serves those endpoints only.
    private nonisolated func makeApplications(
        onRunning: @escaping @Sendable (RequestLogEntry.Listener, Int) -> Void
    ) -> [any Service] {
        listeners.map { listener in
            let port: Int
            switch (listener, configuration.authorizationServer) {
            case (.authorization, .separate(let authorizationPort)): port = authorizationPort
            default: port = configuration.port
            }
            return makeApplication(listener: listener, port: port) { onRunning(listener, $0) }
        }
    }

    private nonisolated func makeApplication(
        listener: RequestLogEntry.Listener,
        port: Int,
        onRunning: @escaping @Sendable (Int) -> Void
    ) -> some Service {
        let router = Router(context: ServerRequestContext.self)
        let authorization = AuthorizationServerRoutes(state: state, configuration: configuration)
        switch listener {
        case .api:
            let control = ControlRoutes(state: state)
            // Control routes first: the middleware only wraps routes added after it.
            control.register(on: router)
            router.add(middleware: RequestMiddleware(state: state, listener: listener))
            if configuration.dpop != nil { router.add(middleware: DPoPNonceMiddleware(state: state)) }
            control.registerDownstream(on: router)
            let resources = ResourceRoutes(state: state)
            AuthRoutes(state: state, configuration: configuration).register(on: router)
            if let passkeys = configuration.passkeys { PasskeyRoutes(state: state, options: passkeys).register(on: router) }
            if configuration.authorizationServer == .sameOrigin { authorization.register(on: router) }
            resources.register(on: router)
            StepUpRoutes(state: state, resources: resources).register(on: router)
            EventRoutes(state: state, resources: resources, heartbeatInterval: configuration.heartbeatInterval)
                .register(on: router)
        case .authorization:
            router.add(middleware: RequestMiddleware(state: state, listener: listener))
            if configuration.dpop != nil { router.add(middleware: DPoPNonceMiddleware(state: state)) }
            authorization.register(on: router)
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: port), serverName: "sesame-reference"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? 0) },
            logger: configuration.logger
        )
    }
}
