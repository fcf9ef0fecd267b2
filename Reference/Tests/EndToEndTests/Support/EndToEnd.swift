import Foundation
import OpenAPIRuntime
import ReferenceSDK
import ReferenceServer
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// One test's world: a reference server on loopback, the client's clock, and services
/// made with the server's base URL, the demo client and the default (URLSession) transport,
/// all watched by the test's secret scan.
struct EndToEnd: Sendable {
    let backEnd: BackEnd
    /// The client's clock; the server's starts at the same date.
    let clock: ManualClock
    /// What the test saw, for its secret scan.
    let scan: ScanRecord

    /// Makes a service for the back-end. Server-sent events are off unless asked for, so
    /// that the event stream's own requests stay out of the counters a test checks. Its
    /// logs, store, results, errors and events go to the secret scan, which also looks for
    /// the client secret it holds, accepted by the back-end or not. `issuer` nil checks the
    /// back-end's own (``BackEnd/declaredIssuer``), not the schema's fixed port.
    func makeService(
        store: InMemorySessionStore<AuthenticationDetails> = InMemorySessionStore(),
        receivesServerEvents: Bool = false,
        traffic: TrafficRecorder? = nil,
        logs: LogCapture = LogCapture(),
        client: ClientCredentials = ClientCredentials(clientID: BackEnd.clientID, clientSecret: BackEnd.clientSecret),
        restorationDelegate: any SessionRestorationDelegate<AuthenticationDetails> = DefaultSessionRestorationDelegate(),
        browser: (any Browser)? = nil,
        issuer: AuthorizationServerIssuer? = nil,
        redirectURI: URL? = nil,
        middlewares: [any ClientMiddleware] = [],
        idTokenValidator: (any IDTokenValidating)? = nil,
        endSession: EndSessionConfiguration? = nil,
        postLogoutRedirectURI: URL? = nil,
        endsProviderSession: Bool = true,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) -> Service {
        let clock = self.clock
        let runtime = AuthenticationService<ReferenceSDKSchema>(
            configuration: .init(
                baseURL: backEnd.baseURL,
                client: client,
                middlewares: (traffic.map { [$0] } ?? []) + middlewares,
                now: { clock.now },
                logger: logs.logger(label: "e2e.sesame"),
                sessionStore: store,
                restorationDelegate: restorationDelegate,
                receivesServerEvents: receivesServerEvents,
                eventStreamReconnectDelay: .milliseconds(50),
                authorizationServerURL: backEnd.authorizationBaseURL,
                browser: browser, redirectURI: redirectURI, authorizationServerIssuer: issuer ?? backEnd.declaredIssuer,
                idTokenValidator: idTokenValidator,
                endSession: endSession, postLogoutRedirectURI: postLogoutRedirectURI, endsProviderSession: endsProviderSession,
                sleep: sleep
            ))
        if let secret = client.clientSecret { scan.lookFor(Secret(kind: "clientSecret", value: secret)) }
        scan.watch(logs)
        scan.watch(store)
        scan.watch(runtime)
        return Service(runtime: runtime, scan: scan)
    }

    /// Shows `value`, made by the test rather than returned by the SDK (a method, an
    /// input), to the secret scan.
    func show(_ value: Any?) {
        scan.show(value as Any, as: "a value the test showed")
    }

    /// Moves both clocks: the server's through its control API, the client's injected one.
    func advanceTime(by seconds: TimeInterval) async {
        clock.advance(by: seconds)
        await backEnd.advanceClock(by: seconds)
    }

    // MARK: Signing in

    @discardableResult
    func signInAsGuest(_ service: Service) async throws -> AuthenticationDetails {
        try await service.authenticate(with: SingleStepMethod.guest)
    }

    /// Runs the internal method: the challenge, then the code the server "sent", read
    /// through its control API.
    @discardableResult
    func signInInternal(_ service: Service, identifier: String) async throws -> AuthenticationDetails {
        let started = try await service.initializeAuthentication(with: MultiStepMethod.internal(identifier: identifier))
        guard case .needsInput = started else { throw Unexpected("initialize did not stop for the code: \(started)") }
        guard let code = await backEnd.latestCode(for: identifier) else { throw Unexpected("no code was sent") }
        let finished = try await service.continueAuthentication(with: AuthenticationInput.internalContinue(code: code))
        guard case .authenticated(let details) = finished else { throw Unexpected("continue did not sign in: \(finished)") }
        return details
    }

    // MARK: Event streams

    /// Waits until the back-end has an open event stream for `uid`.
    func waitForEventStream(ofUser uid: String) async -> Bool {
        await poll { await backEnd.openEventStreams(ofUser: uid) > 0 }
    }
}

/// Runs `body` against a fresh reference server, stopped afterwards whatever happens.
/// Before it stops, the test's secret scan takes the secrets it issued and renders the
/// services and stores made for the test (``ScanRecord/close(_:)``).
/// - Throws: what `body` throws, or ``Unexpected`` at once when the test runs without its
///   suite's `.secretScan` trait, so no end-to-end test can go unscanned.
func withEndToEnd(
    accessTokenLifetime: Duration = .seconds(3600),
    separateAuthorizationServer: Bool = false,
    dpop: ReferenceServer.DPoPOptions? = nil,
    _ body: (EndToEnd) async throws -> Void
) async throws {
    guard let scan = ScanRecord.current else {
        throw Unexpected("an end-to-end test runs without a secret scan: add .secretScan to its @Suite")
    }
    let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let backEnd = try await BackEnd.start(
        at: start, accessTokenLifetime: accessTokenLifetime, separateAuthorizationServer: separateAuthorizationServer, dpop: dpop)
    let result = await outcome { try await body(EndToEnd(backEnd: backEnd, clock: ManualClock(start), scan: scan)) }
    await scan.close(backEnd)
    await backEnd.stop()
    try result.get()
}

/// A step of a test that did not go as it should.
struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
