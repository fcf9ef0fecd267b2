import Foundation
import Logging
import ReferenceSDK
import ReferenceServer

/// The reference back-end, started in-process on 127.0.0.1 and an ephemeral port, with a
/// clock that stands still unless a test moves it (`advanceClock(by:)`).
final class BackEnd: Sendable {
    let server: ReferenceServer
    let baseURL: URL
    /// The authorization server's base URL: the API's, unless the server was started with
    /// an authorization server of its own (another port: another origin).
    let authorizationBaseURL: URL

    /// The demo client the service authenticates as on the token endpoint.
    static let clientID = "sesame-demo"
    static let clientSecret = "demo-secret"
    /// A public client (RFC 8252 §8.4): no secret, the demo's redirect URI.
    static let publicClientID = "sesame-native"

    private init(server: ReferenceServer, baseURL: URL, authorizationBaseURL: URL) {
        self.server = server
        self.baseURL = baseURL
        self.authorizationBaseURL = authorizationBaseURL
    }

    /// Starts a server whose wall clock is frozen at `start` (moved by ``advanceClock(by:)``).
    /// With `separateAuthorizationServer`, the token, authorization and revocation endpoints
    /// listen on a port of their own.
    /// With `dpop`, the server checks DPoP proofs and binds tokens to their keys.
    static func start(
        at start: Date, accessTokenLifetime: Duration = .seconds(3600), separateAuthorizationServer: Bool = false,
        dpop: ReferenceServer.DPoPOptions? = nil
    ) async throws -> BackEnd {
        let server = ReferenceServer(
            configuration: .init(
                host: "127.0.0.1",
                port: 0,
                authorizationServer: separateAuthorizationServer ? .separate(port: 0) : .sameOrigin,
                accessTokenLifetime: accessTokenLifetime,
                clients: [
                    .demo, ReferenceServer.Client(id: publicClientID, secret: nil, redirectURIs: [ReferenceServer.Client.demoRedirectURI]),
                ],
                heartbeatInterval: .seconds(15),
                now: { start },
                logger: Logger(label: "e2e.reference-server") { _ in SwiftLogNoOpLogHandler() },
                dpop: dpop
            ))
        let endpoint = try await server.start()
        return BackEnd(server: server, baseURL: endpoint.baseURL, authorizationBaseURL: endpoint.authorizationBaseURL)
    }

    func stop() async {
        await server.stop()
    }

    // MARK: Clock

    /// Moves the server's clock forward through its control API.
    func advanceClock(by seconds: TimeInterval) async {
        await server.state.advanceClock(by: .milliseconds(Int64(seconds * 1000)))
    }

    func setAccessTokenLifetime(seconds: Int) async {
        await server.state.setAccessTokenLifetime(.seconds(seconds))
    }

    // MARK: Sign-in

    /// The one-time code the server "sent" to `identifier` for its latest challenge.
    func latestCode(for identifier: String) async -> String? {
        await server.state.latestChallenge(identifier: identifier)?.code
    }

    /// Whether the latest challenge of `identifier` was used (or burnt).
    func latestChallengeConsumed(for identifier: String) async -> Bool? {
        await server.state.latestChallenge(identifier: identifier)?.consumed
    }

    // MARK: Secrets

    /// Every secret the server issued or accepted so far (see `ReferenceServerState.issuedSecrets()`).
    func issuedSecrets() async -> [Secret] {
        await server.state.issuedSecrets().map { Secret(kind: $0.kind.rawValue, value: $0.value) }
    }

    // MARK: Origins and consent

    /// Every request the server received outside its control API: the listener (origin),
    /// method and path, and whether a Bearer token or client credentials came with it.
    func requestLog() async -> [RequestLogEntry] {
        await server.state.requestLog()
    }

    /// Makes the login page deny consent even when the user allows the app.
    func setDenyConsent(_ deny: Bool) async {
        await server.state.setDenyConsent(deny)
    }

    /// Sets the `iss` of the authorization endpoint's redirects (RFC 9207).
    func setIssuerMode(_ mode: IssuerMode) async {
        await server.state.setIssuerMode(mode)
    }

    /// The authorization server's issuer as it sends it: its origin.
    var issuer: String { authorizationBaseURL.absoluteString }

    /// The issuer a service of this back-end checks (RFC 9207) and validates ID tokens
    /// against: Schema/ declares `http://127.0.0.1:8081`, and the tests' server listens on
    /// another port, so every service replaces it, as `authorizationServerURL` replaces the URL.
    var declaredIssuer: AuthorizationServerIssuer { AuthorizationServerIssuer(issuer: issuer, sentInResponses: true) }

    // MARK: Counters

    /// The server's counters, as plain values.
    func counters() async -> Counters {
        let counters = await server.state.counters()
        return Counters(
            requests: counters.requests, refreshes: counters.refreshes,
            rejectedRefreshes: counters.rejectedRefreshes, tokenGrants: counters.tokenGrants,
            endedSessions: counters.endedSessions)
    }

    // MARK: Users and sessions

    /// Revokes every token of `uid`; the server pushes `session.revoked` and closes the user's streams.
    @discardableResult
    func revokeTokens(ofUser uid: String, reason: String = "adminAction") async throws -> Int {
        try await server.state.revokeTokens(ofUser: uid, reason: RevocationReason(rawValue: reason) ?? .adminAction)
    }

    /// Attaches another identity (`internal`, `password`, `custom`, `guest`) to an account.
    func attachIdentity(toUser uid: String, provider: String, providerUID: String) async throws {
        try await server.state.attachIdentity(toUser: uid, provider: provider, providerUID: providerUID)
    }

    func userIDs() async -> [String] {
        await server.state.userIDs()
    }

    // MARK: Events

    /// Pushes an event whose `data` is `json`, as `POST /_control/users/{uid}/events` does.
    @discardableResult
    func pushEvent(toUser uid: String, name: String, json: String) async throws -> Int {
        try await server.state.pushEvent(toUser: uid, name: name, data: json).id
    }

    func openEventStreams(ofUser uid: String) async -> Int {
        await server.state.openEventStreams(ofUser: uid)
    }

    /// Ends the user's event streams as a dropped connection would.
    func disconnectEventStreams(ofUser uid: String) async {
        await server.state.disconnectEventStreams(ofUser: uid)
    }

    // MARK: Failures

    /// Makes the next `count` requests matching `method` and `path` fail as described.
    func injectFailure(
        method: String? = nil, path: String, count: Int = 1, status: Int = 503,
        rawBody: String? = nil, contentType: String? = nil, headers: [String: String] = [:],
        closeConnection: Bool = false
    ) async {
        await server.state.injectFailure(
            InjectedFailure(
                method: method, path: path, count: count, status: status, rawBody: rawBody,
                contentType: contentType, headers: headers, closeConnection: closeConnection))
    }

    func pendingFailureCount() async -> Int {
        await server.state.pendingFailures().count
    }
}

/// What the server counted, copied out of `ReferenceServerCounters`.
struct Counters: Sendable, Equatable {
    var requests: [String: Int]
    var refreshes: Int
    var rejectedRefreshes: Int
    var tokenGrants: [String: Int]
    /// Sign-ins ended by the end-session endpoint (RP-Initiated Logout).
    var endedSessions = 0

    /// The requests counted for `key` (`METHOD /path/template`).
    func requests(_ key: String) -> Int { requests[key] ?? 0 }
}
