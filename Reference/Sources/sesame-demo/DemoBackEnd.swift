import Foundation
import Logging
import ReferenceSDK
import ReferenceServer

/// The reference back-end, in-process on 127.0.0.1 and a free port, and the "admin" side of
/// it that the demo plays: reading the code it "sent", pushing events and revoking sessions.
final class DemoBackEnd: Sendable {
    private let server: ReferenceServer
    /// The API's origin.
    let baseURL: URL
    /// The authorization server's origin: token, authorization and revocation endpoints, on
    /// a port of their own.
    let authorizationBaseURL: URL

    private init(server: ReferenceServer, baseURL: URL, authorizationBaseURL: URL) {
        self.server = server
        self.baseURL = baseURL
        self.authorizationBaseURL = authorizationBaseURL
    }

    /// The authorization server's issuer, its origin as it names itself in `iss`: the demo's
    /// services check it (RFC 9207) and validate ID tokens against it in place of Schema/'s
    /// `http://127.0.0.1:8081`, since the server listens on a free port.
    var issuer: AuthorizationServerIssuer {
        AuthorizationServerIssuer(issuer: authorizationBaseURL.absoluteString, sentInResponses: true)
    }

    /// Starts the server; its wall clock is `now`, which the demo shares with the app.
    static func start(now: @escaping @Sendable () -> Date) async throws -> DemoBackEnd {
        let server = ReferenceServer(
            configuration: .init(
                host: "127.0.0.1",
                port: 0,
                authorizationServer: .separate(port: 0),
                now: now,
                logger: Logger(label: "sesame-demo.server") { _ in SwiftLogNoOpLogHandler() }
            ))
        let endpoint = try await server.start()
        return DemoBackEnd(server: server, baseURL: endpoint.baseURL, authorizationBaseURL: endpoint.authorizationBaseURL)
    }

    func stop() async {
        await server.stop()
    }

    /// The code of the latest internal challenge sent to `identifier`, and its channel.
    func latestCode(for identifier: String) async -> (code: String, channel: String)? {
        await server.state.latestChallenge(identifier: identifier).map { ($0.code, $0.channel) }
    }

    /// Approves a device sign-in's user code as `username`, as the user would on the approval page.
    func approveDevice(userCode: String, as username: String) async throws {
        try await server.state.decideDevice(userCode: userCode, approvingAs: username)
    }

    func openEventStreams(ofUser uid: String) async -> Int {
        await server.state.openEventStreams(ofUser: uid)
    }

    /// Pushes an event with a JSON payload to the user's event streams.
    func pushEvent(toUser uid: String, name: String, json: String) async throws {
        _ = try await server.state.pushEvent(toUser: uid, name: name, data: json)
    }

    /// Ends the user's event streams as a dropped connection would.
    func disconnectEventStreams(ofUser uid: String) async {
        await server.state.disconnectEventStreams(ofUser: uid)
    }

    /// Revokes every session of the user, as an administrator would.
    func revokeSessions(ofUser uid: String) async throws {
        try await server.state.revokeTokens(ofUser: uid, reason: .adminAction)
    }

    /// The requests received since `clearRequestLog()`, as `origin METHOD path [credentials]`:
    /// which listener got them and whether a Bearer token or client credentials came along.
    func requestLog() async -> [String] {
        await server.state.requestLog().map { entry in
            let origin = entry.listener == .api ? "API          " : "authorization"
            let carried = [entry.bearer ? "Bearer token" : nil, entry.clientAuthentication ? "client credentials" : nil]
                .compactMap { $0 }
            return "\(origin) \(entry.method) \(entry.path)\(carried.isEmpty ? "" : " [\(carried.joined(separator: ", "))]")"
        }
    }

    func clearRequestLog() async {
        await server.state.clearRequestLog()
    }

    /// The lifetime of the access tokens issued from now on.
    func setAccessTokenLifetime(_ lifetime: Duration) async {
        await server.state.setAccessTokenLifetime(lifetime)
    }

    /// Successful refreshes so far.
    func refreshCount() async -> Int {
        await server.state.counters().refreshes
    }

    /// Replaces the server's ID token signing keys with new ones, as a provider's key
    /// rotation does: its JWKS then lists only the new `kid`s.
    func rotateSigningKeys() async throws {
        try await server.state.rotateSigningKeys()
    }

    /// The `kid`s the server's JWKS lists now (RSA first).
    func signingKeyIDs() async throws -> [String] {
        try await server.state.signingKeyIDs()
    }

    /// How many times the server's JWKS (`GET /.well-known/jwks.json`) was fetched.
    func jwksRequests() async -> Int {
        await server.state.counters().requests("GET /.well-known/jwks.json")
    }
}
