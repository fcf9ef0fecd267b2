import Foundation
import ReferenceSDK

/// The service a test drives: the runtime's `AuthenticationService`, through which every
/// value the test gets back, every error it catches and every event it receives is also
/// shown to the test's secret scan (``ScanRecord``). From its first call it also watches
/// every event the service publishes, so events that no test subscribes to are scanned too.
///
/// It holds only the members the tests use; a test that needs another adds it here, so
/// that nothing reaches a test around the scan.
final class Service: @unchecked Sendable {
    /// The runtime's service.
    let runtime: AuthenticationService<ReferenceSDKSchema>
    private let scan: ScanRecord
    // Guarded by `lock`: whether the watching subscription was started.
    private let lock = NSLock()
    private var watching = false

    init(runtime: AuthenticationService<ReferenceSDKSchema>, scan: ScanRecord) {
        self.runtime = runtime
        self.scan = scan
    }

    // MARK: State

    var state: State {
        get async { await observe("state") { await runtime.state } }
    }

    var authenticationDetails: AuthenticationDetails? {
        get async { await observe("authenticationDetails") { await runtime.authenticationDetails } }
    }

    func authenticationDetailsThrows() async throws -> AuthenticationDetails {
        try await observe("authenticationDetailsThrows()") { try await runtime.authenticationDetailsThrows() }
    }

    var isOnline: Bool {
        get async { await observe("isOnline") { await runtime.isOnline } }
    }

    func setConnectivity(online: Bool) async {
        await observe("setConnectivity(online:)") { await runtime.setConnectivity(online: online) }
    }

    var ongoingAuthentication: OngoingAuthentication? {
        get async { await observe("ongoingAuthentication") { await runtime.ongoingAuthentication } }
    }

    /// The runtime's middleware; what it answers goes to the test's own transport, unscanned.
    var credentialMiddleware: CredentialMiddleware { runtime.credentialMiddleware }

    // MARK: Authentication and lifecycle

    func authenticate(
        with method: some SingleStepAuthenticationMethod, context: AuthenticationContext = .new
    ) async throws -> AuthenticationDetails {
        try await observe("authenticate(with:context:)") { try await runtime.authenticate(with: method, context: context) }
    }

    func authenticate(
        with method: some SingleStepAuthenticationMethod, authorization: AuthorizationParameters,
        context: AuthenticationContext? = nil
    ) async throws -> AuthenticationDetails {
        try await observe("authenticate(with:authorization:context:)") {
            try await runtime.authenticate(with: method, authorization: authorization, context: context)
        }
    }

    @discardableResult
    func initializeAuthentication(
        with method: some MultiStepAuthenticationMethod, context: AuthenticationContext = .new
    ) async throws
        -> AuthenticationProgress<AuthenticationDetails>
    {
        try await observe("initializeAuthentication(with:context:)") {
            try await runtime.initializeAuthentication(with: method, context: context)
        }
    }

    @discardableResult
    func continueAuthentication(
        with continuation: some AuthenticationContinuation
    ) async throws
        -> AuthenticationProgress<AuthenticationDetails>
    {
        try await observe("continueAuthentication(with:)") { try await runtime.continueAuthentication(with: continuation) }
    }

    func cancelAuthentication() async {
        await observe("cancelAuthentication()") { await runtime.cancelAuthentication() }
    }

    @discardableResult
    func restoreSession() async -> State {
        await observe("restoreSession()") { await runtime.restoreSession() }
    }

    @discardableResult
    func unauthenticate() async -> UnauthenticationResult {
        await observe("unauthenticate()") { await runtime.unauthenticate() }
    }

    /// The generated `idTokenClaims()`: the session's ID token claims as Schema/'s `OpenIDClaims`.
    func idTokenClaims() async throws -> OpenIDClaims? {
        try await observe("idTokenClaims()") { try await runtime.idTokenClaims() }
    }

    @discardableResult
    func detachCurrentIdentity() async throws -> OperationResponse {
        try await observe("detachCurrentIdentity()") { try await runtime.detachCurrentIdentity() }
    }

    @discardableResult
    func destroyAccount() async throws -> OperationResponse {
        try await observe("destroyAccount()") { try await runtime.destroyAccount() }
    }

    // MARK: Operations

    func perform(_ request: OperationRequest) async throws -> OperationResponse {
        try await observe("perform(_:)") { try await runtime.perform(request) }
    }

    func me() async throws -> AuthenticationDetails {
        try await observe("me()") { try await runtime.me() }
    }

    func logout() async throws {
        try await observe("logout()") { try await runtime.logout() }
    }

    func identities() async throws -> [Identity] {
        try await observe("identities()") { try await runtime.identities() }
    }

    @discardableResult
    func detachIdentity(provider: Provider) async throws -> DetachResult {
        try await observe("detachIdentity(provider:)") { try await runtime.detachIdentity(provider: provider) }
    }

    func listNotes(limit: Int? = nil, pinned: Bool? = nil) async throws -> [Note] {
        try await observe("listNotes(limit:pinned:)") { try await runtime.listNotes(limit: limit, pinned: pinned) }
    }

    @discardableResult
    func createNote(_ body: NewNote) async throws -> Note {
        try await observe("createNote(_:)") { try await runtime.createNote(body) }
    }

    /// The generated `userinfo()`: Schema/'s `openID.userInfo`, checked against the ID token.
    func userinfo() async throws -> UserInfo {
        try await observe("userinfo()") { try await runtime.userinfo() }
    }

    func serverStatus() async throws -> ServerStatus {
        try await observe("serverStatus()") { try await runtime.serverStatus() }
    }

    // MARK: Events

    func subscribe(_ onEvent: @escaping @Sendable (Event) -> Void) async -> Subscription {
        await watch()
        let scan = self.scan
        return await runtime.subscribe { event in
            scan.show(event, as: "an event received")
            onEvent(event)
        }
    }

    /// The runtime's stream, each event shown to the scan as it passes. Stopping iterating
    /// stops the runtime's stream too.
    func events() async -> AsyncStream<Event> {
        await watch()
        let events = await runtime.events()
        let scan = self.scan
        return AsyncStream { continuation in
            let relay = Task {
                for await event in events {
                    scan.show(event, as: "an event received")
                    continuation.yield(event)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }

    /// Ends every subscription, the watching one too, which the next call starts again.
    func unsubscribeFromAll() async {
        lock.withLock { watching = false }
        await runtime.unsubscribeFromAll()
    }

    // MARK: Scanning

    /// Runs `body` after making sure the service is watched, and shows its result or error.
    private func observe<Value>(_ name: String, _ body: () async throws -> Value) async throws -> Value {
        await watch()
        do {
            let value = try await body()
            scan.show(value, as: "what \(name) returned")
            return value
        } catch {
            scan.show(error, as: "what \(name) threw")
            throw error
        }
    }

    private func observe<Value>(_ name: String, _ body: () async -> Value) async -> Value {
        await watch()
        let value = await body()
        scan.show(value, as: "what \(name) returned")
        return value
    }

    /// Subscribes once to the runtime's events, showing each to the scan. The subscription
    /// lasts until ``unsubscribeFromAll()`` or the service goes away.
    private func watch() async {
        let starts = lock.withLock {
            defer { watching = true }
            return !watching
        }
        guard starts else { return }
        let scan = self.scan
        _ = await runtime.subscribe { event in scan.show(event, as: "an event published") }
    }
}
