import ClaimsDetailsSDK
import Foundation
import ReferenceServer
import Sesame
import SesameOpenID
import SesameTestSupport
import Testing

/// The SDK generated from Tests/Fixtures/ClaimsDetails (`credential: { details: idToken,
/// userID: sub }`) against the reference server: the user's details are the claims of the
/// validated ID token, typed as its `ProfileClaims`, and no details request exists. The server's
/// `next-id-token` knob gives the next ID token a changed `name`, or one of the wrong type.
@Suite("details: idToken, end to end", .secretScan)
struct ClaimsDetailsEndToEndTests {
    typealias Store = InMemorySessionStore<ProfileClaims>

    /// A service of the fixture SDK for `e2e`'s back-end (started with an authorization server
    /// of its own), its logs and its store shown to the test's secret scan.
    static func makeService(
        _ e2e: EndToEnd, store: Store, observer: (any UserSessionObserver)? = nil,
        restorationDelegate: any SessionRestorationDelegate<ProfileClaims> = DefaultSessionRestorationDelegate(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) -> AuthenticationService<ClaimsDetailsSDKSchema> {
        let logs = LogCapture()
        e2e.scan.watch(logs)
        e2e.scan.lookFor(Secret(kind: "clientSecret", value: BackEnd.clientSecret))
        let clock = e2e.clock
        return AuthenticationService<ClaimsDetailsSDKSchema>(
            configuration: .init(
                baseURL: e2e.backEnd.baseURL,
                client: ClientCredentials(clientID: BackEnd.clientID, clientSecret: BackEnd.clientSecret),
                now: { clock.now },
                logger: logs.logger(label: "e2e.claims-details"),
                sessionStore: store,
                restorationDelegate: restorationDelegate,
                receivesServerEvents: false,
                userSessionObserver: observer,
                authorizationServerURL: e2e.backEnd.authorizationBaseURL,
                browser: HeadlessBrowser(username: "alice", password: "wonderland"),
                authorizationServerIssuer: e2e.backEnd.declaredIssuer,
                sleep: sleep
            ))
    }

    /// Signs in with the fixture's only method, showing the result (or error) to the scan.
    static func signIn(
        _ service: AuthenticationService<ClaimsDetailsSDKSchema>, _ e2e: EndToEnd
    ) async throws -> ProfileClaims {
        do {
            let details = try await service.authenticate(with: SingleStepMethod.openid)
            e2e.scan.show(details, as: "what authenticate(with:) returned")
            return details
        } catch {
            e2e.scan.show(error, as: "what authenticate(with:) threw")
            throw error
        }
    }

    /// What the server received, as `METHOD /path`, on `listener`.
    static func requests(_ e2e: EndToEnd, on listener: RequestLogEntry.Listener) async -> [String] {
        await e2e.backEnd.requestLog().filter { $0.listener == listener }.map { "\($0.method) \($0.path)" }
    }

    @Test("sign-in: the details are the ID token's claims, typed, the user id is its sub, and no details request is made")
    func signInGivesTheClaims() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = Store()
            let observer = RecordingObserver()
            let service = Self.makeService(e2e, store: store, observer: observer)
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"claims":{"name":"Alice"}}"#)

            let details = try await Self.signIn(service, e2e)
            // The account the server made for alice is the sub, and the user id.
            #expect(await e2e.backEnd.userIDs() == [details.sub])
            #expect(ClaimsDetailsSDKSchema.userID(of: details) == details.sub)
            #expect(observer.began == ["signIn \(details.sub)"])
            #expect(details.iss == e2e.backEnd.issuer)
            #expect(details.name == "Alice")
            #expect(!details.sid.isEmpty)
            #expect(await service.state == .authenticated(details))
            #expect(try store.load()?.details == details)
            #expect(try await service.idTokenClaims() == details)
            // No request but the sign-in's own: nothing reached the API, and on the
            // authorization server only the browser's pages, the code exchange and the keys.
            #expect(await Self.requests(e2e, on: .api) == [])
            let signIn = await Self.requests(e2e, on: .authorization)
            #expect(signIn == ["GET /oauth/authorize", "POST /oauth/authorize", "POST /oauth/token", "GET /.well-known/jwks.json"])
            e2e.scan.show(try store.load() as Any, as: "the store")
        }
    }

    @Test("device sign-in with openid: its ID token is validated without a nonce, and its claims are the details")
    func deviceSignInGivesTheClaims() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = Store()
            let holder = LockedValue<AuthenticationService<ClaimsDetailsSDKSchema>?>(nil)
            // The user approves on another device during the first wait.
            let service = Self.makeService(e2e, store: store) { duration in
                if let code = await holder.value?.ongoingAuthentication?.deviceAuthorization?.userCode {
                    let decided = try await RawHTTP.decideDevice(e2e.backEnd.baseURL, userCode: code, approve: true, username: "alice")
                    #expect(decided.status == 204, "\(decided.body)")
                }
                await e2e.advanceTime(by: Double(duration.components.seconds))
            }
            holder.set(service)
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"claims":{"name":"Alice on the TV"}}"#)

            let details = try await service.authenticate(with: SingleStepMethod.device)
            e2e.scan.show(details, as: "what authenticate(with:) returned")
            #expect(details.name == "Alice on the TV")
            #expect(details.iss == e2e.backEnd.issuer)
            #expect(await e2e.backEnd.userIDs() == [details.sub])
            #expect(await service.state == .authenticated(details))
            #expect(try store.load()?.details == details)
            #expect(await Self.requests(e2e, on: .api) == [])
            let signIn = await Self.requests(e2e, on: .authorization)
            #expect(signIn == ["POST /oauth/device_authorization", "POST /oauth/token", "GET /.well-known/jwks.json"])
        }
    }

    @Test("device sign-in whose ID token is refused (another audience) fails typed: nothing is signed in, the tokens are revoked")
    func deviceSignInWithARefusedIDTokenFails() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = Store()
            let holder = LockedValue<AuthenticationService<ClaimsDetailsSDKSchema>?>(nil)
            let service = Self.makeService(e2e, store: store) { duration in
                if let code = await holder.value?.ongoingAuthentication?.deviceAuthorization?.userCode {
                    _ = try await RawHTTP.decideDevice(e2e.backEnd.baseURL, userCode: code, approve: true, username: "alice")
                }
                await e2e.advanceTime(by: Double(duration.components.seconds))
            }
            holder.set(service)
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"fault":"aud"}"#)
            await #expect(throws: IDTokenRejection.audience(received: ["another-client"])) {
                try await service.authenticate(with: SingleStepMethod.device)
            }
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
            #expect(await e2e.backEnd.server.state.counters().revocations == 1)
        }
    }

    @Test("a refresh's ID token with changed claims replaces the details; one whose claims do not fit fails and keeps them")
    func refreshReplacesTheDetails() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = Store()
            let service = Self.makeService(e2e, store: store)
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"claims":{"name":"Alice"}}"#)
            let signedIn = try await Self.signIn(service, e2e)
            #expect(signedIn.name == "Alice")
            let events = EventLog()
            let subscription = await service.subscribe { event in events.append(event) }
            defer { subscription.cancel() }

            // The user renamed themself at the provider: the next ID token says so. Connectivity
            // coming back checks the session with a refresh (there is no details operation).
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"claims":{"name":"Alice Liddell"}}"#)
            await service.setConnectivity(online: false)
            await service.setConnectivity(online: true)
            #expect(await poll { await service.authenticationDetails?.name == "Alice Liddell" })
            let renamed = try #require(await service.authenticationDetails)
            #expect(await e2e.backEnd.counters().refreshes == 1)
            #expect(renamed.sub == signedIn.sub)
            #expect(renamed.sid == signedIn.sid)
            #expect(try store.load()?.details == renamed)
            #expect(await poll { events.states.contains(.authenticated(renamed)) })
            #expect(await Self.requests(e2e, on: .api) == [])

            // A refresh whose ID token carries a name of the wrong type fails; the details stay.
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"claims":{"name":42}}"#)
            await service.setConnectivity(online: false)
            await service.setConnectivity(online: true)
            #expect(await poll { events.refreshFailures == 1 })
            #expect(await e2e.backEnd.counters().refreshes == 2)
            #expect(await service.state == .authenticated(renamed))
            #expect(try store.load()?.details == renamed)
            e2e.scan.show(events.all, as: "the events published")
        }
    }

    @Test("claims that do not fit fail the sign-in with a typed decoding error: nothing changes, the tokens are revoked")
    func claimsThatDoNotFitFailTheSignIn() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = Store()
            let service = Self.makeService(e2e, store: store)
            let signedIn = try await Self.signIn(service, e2e)
            let saved = try #require(try store.load())
            let revocations = await e2e.backEnd.server.state.counters().revocations

            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"claims":{"name":42}}"#)
            do {
                let details = try await Self.signIn(service, e2e)
                Issue.record("claims that do not fit were accepted: \(details)")
            } catch SesameError.decoding(let operation, let reason) {
                #expect(operation == "openid.authenticate")
                #expect(reason.hasPrefix("the ID token's claims: $.name"), "\(reason)")
                #expect(!reason.contains("42"), "the reason quotes the claim's value")
            }
            #expect(await service.state == .authenticated(signedIn))
            #expect(try store.load() == saved)
            #expect(try await service.idTokenClaims() == signedIn)
            // The exchange's refresh token was revoked rather than left behind.
            #expect(await e2e.backEnd.server.state.counters().revocations == revocations + 1)
            #expect(await Self.requests(e2e, on: .authorization).last == "POST /oauth/revoke")

            // The same from signed out: it stays signed out, and nothing is stored.
            _ = await service.unauthenticate()
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"claims":{"sid":7}}"#)
            do {
                let details = try await Self.signIn(service, e2e)
                Issue.record("claims that do not fit were accepted from signed out: \(details)")
            } catch SesameError.decoding(let operation, let reason) {
                #expect(operation == "openid.authenticate")
                #expect(reason.hasPrefix("the ID token's claims: $.sid"), "\(reason)")
            }
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
        }
    }

    @Test("restore at launch opens the same user with the saved details and sends nothing; its default refresh asks for no details")
    func restoreKeepsTheSavedDetails() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = Store()
            try await OpenIDEndToEndTests.control(e2e, "next-id-token", json: #"{"claims":{"name":"Alice"}}"#)
            let details = try await Self.signIn(Self.makeService(e2e, store: store), e2e)
            let before = await e2e.backEnd.requestLog().count

            // A delegate that trusts the saved session: not one request.
            let observer = RecordingObserver()
            let relaunched = Self.makeService(e2e, store: store, observer: observer, restorationDelegate: TrustingRestoration())
            #expect(await relaunched.restoreSession() == .authenticated(details))
            #expect(observer.began == ["restore \(details.sub)"])
            #expect(await relaunched.authenticationDetails?.name == "Alice")
            #expect(await e2e.backEnd.requestLog().count == before)

            // The default delegate refreshes: the token request and the keys that validate its
            // ID token (this service's first), no details request; the refresh's ID token (no
            // name this time) replaces the details.
            let again = Self.makeService(e2e, store: store)
            let state = await again.restoreSession()
            let log = await e2e.backEnd.requestLog().dropFirst(before).map { "\($0.method) \($0.path)" }
            #expect(log == ["POST /oauth/token", "GET /.well-known/jwks.json"])
            guard case .authenticated(let refreshed) = state else {
                Issue.record("expected authenticated, got \(state)")
                return
            }
            #expect(refreshed.sub == details.sub)
            #expect(refreshed.name == nil)
            #expect(try store.load()?.details == refreshed)
        }
    }
}

/// Records each user session's beginning as `"signIn <id>"` or `"restore <id>"`.
private final class RecordingObserver: UserSessionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    var began: [String] { lock.withLock { recorded } }

    func userSessionWillBegin(userID: String, _ beginning: UserSessionBeginning) throws {
        lock.withLock { recorded.append("\(beginning) \(userID)") }
    }

    func userSessionDidEnd(_ ending: UserSessionEnding) {}
}

/// Trusts a restored session without refreshing it.
private struct TrustingRestoration: SessionRestorationDelegate {
    func shouldRefresh(user: ProfileClaims, isStartup: Bool) async -> Bool { false }
}

/// The events a subscription received.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [AuthenticationEvent<ClaimsDetailsSDKSchema>] = []

    var all: [AuthenticationEvent<ClaimsDetailsSDKSchema>] { lock.withLock { recorded } }

    var states: [AuthenticationState<ProfileClaims>] {
        all.compactMap { if case .stateChanged(let state) = $0 { state } else { nil } }
    }

    var refreshFailures: Int {
        all.filter { if case .refreshFailed = $0 { true } else { false } }.count
    }

    func append(_ event: AuthenticationEvent<ClaimsDetailsSDKSchema>) { lock.withLock { recorded.append(event) } }
}
