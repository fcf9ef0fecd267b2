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
        /// The port it is bound to (the real one when 0 was asked for).
        public var port: Int
        /// `http://host:port`, with no trailing slash.
        public var baseURL: URL
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

    /// Starts listening in the background and returns once the socket is bound.
    /// Throws ``StartError/didNotStart(reason:)`` when the server cannot bind, and
    /// ``StartError/alreadyRunning`` when it is already started.
    public func start() async throws -> Endpoint {
        guard running == nil, !starting else { throw StartError.alreadyRunning }
        starting = true
        defer { starting = false }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = makeApplication { port in
            portContinuation.yield(port)
            portContinuation.finish()
        }
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: configuration.logger)
        )
        // On threads of its own: see ServerExecutor.
        let task = Task(executorPreference: ServerExecutor.shared) {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            do {
                try await task.value
                throw StartError.didNotStart(reason: "The server stopped before listening.")
            } catch let error as StartError {
                throw error
            } catch {
                throw StartError.didNotStart(reason: "\(error)")
            }
        }
        let endpoint = Endpoint(
            host: configuration.host,
            port: port,
            baseURL: URL(string: "http://\(configuration.host):\(port)")!
        )
        running = (group, task, endpoint)
        return endpoint
    }

    /// Stops a server started with ``start()``: open event streams end, in-flight requests
    /// finish, then the socket closes. Does nothing when the server is not running.
    public func stop() async {
        guard let running else { return }
        self.running = nil
        await state.disconnectEventStreams()
        await running.group.triggerGracefulShutdown()
        _ = try? await running.task.value
    }

    /// Runs the server in the foreground until SIGINT or SIGTERM, then shuts down gracefully.
    /// Logs the base URL once listening. Throws when the server cannot bind.
    public func run() async throws {
        let host = configuration.host
        let logger = configuration.logger
        let application = makeApplication { port in
            logger.info("Sesame reference server listening on http://\(host):\(port)")
        }
        try await application.runService()
    }

    private func makeApplication(onRunning: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
        let router = Router(context: ServerRequestContext.self)
        let control = ControlRoutes(state: state)
        // Control routes first: the middleware only wraps routes added after it.
        control.register(on: router)
        router.add(middleware: RequestMiddleware(state: state))
        control.registerDownstream(on: router)
        let resources = ResourceRoutes(state: state)
        AuthRoutes(state: state, configuration: configuration).register(on: router)
        resources.register(on: router)
        EventRoutes(state: state, resources: resources, heartbeatInterval: configuration.heartbeatInterval)
            .register(on: router)
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sesame-reference"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? 0) },
            logger: configuration.logger
        )
    }
}
