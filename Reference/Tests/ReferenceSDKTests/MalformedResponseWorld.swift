import Foundation
import HTTPTypes
import ReferenceSDK
import ReferenceSDKTestSupport
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// A service signed in as `guest-1` against the in-memory back-end (which answers every
/// request well unless a test scripts its answer), with a stopped clock, a session store to
/// compare, and its logs.
struct MalformedResponseWorld {
    static let baseURL = URL(string: "https://malformed.sesame.test")!
    static let client = ClientCredentials(clientID: "app", clientSecret: "app-secret")
    /// Lifetime of the access tokens the back-end issues.
    static let tokenLifetime = 3600

    let clock = ManualClock()
    let backEnd: InMemoryBackEnd
    let store = InMemorySessionStore<AuthenticationDetails>()
    let logs = LogCapture()
    let service: AuthenticationService<ReferenceSDKSchema>

    /// What must not change: the state, the saved session (with its credential), and the
    /// credential the service sends.
    struct Snapshot: Equatable {
        var state: AuthenticationState<AuthenticationDetails>
        var saved: StoredSession<AuthenticationDetails>?
        var refreshes: Int
    }

    private init() {
        let clock = clock
        backEnd = InMemoryBackEnd(baseURL: Self.baseURL, client: Self.client, now: { clock.now }, tokenLifetime: Self.tokenLifetime)
        service = AuthenticationService(
            configuration: .init(
                baseURL: Self.baseURL, client: Self.client,
                transport: backEnd, now: { clock.now }, logger: logs.logger(label: "malformed"), sessionStore: store,
                receivesServerEvents: false, authorizationServerURL: Self.baseURL))
    }

    static func signedIn() async throws -> MalformedResponseWorld {
        let world = MalformedResponseWorld()
        _ = try await world.service.authenticate(with: SingleStepMethod.guest)
        return world
    }

    func prepare(_ target: MalformedResponseTarget) async {
        do {
            try await target.prepare(self)
        } catch {
            Issue.record("preparing \(target) failed: \(error)")
        }
    }

    func snapshot() async throws -> Snapshot {
        Snapshot(state: await service.state, saved: try store.load(), refreshes: await backEnd.refreshCount)
    }

    /// The state and the saved session are as they were, and the next request goes with
    /// the same credential (after the one refresh that a refresh target sends).
    func expectUnchanged(
        since before: Snapshot, after target: MalformedResponseTarget,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let after = try await snapshot()
        #expect(after.state == before.state, sourceLocation: sourceLocation)
        #expect(after.saved == before.saved, sourceLocation: sourceLocation)
        #expect(after.refreshes == before.refreshes + (target == .refresh ? 1 : 0), sourceLocation: sourceLocation)
        guard target != .refresh else { return }
        let sent = before.saved.map { "Bearer \($0.credential.accessToken)" }
        _ = try await service.me()
        #expect(await backEnd.received.last?.authorization == sent, sourceLocation: sourceLocation)
    }

    /// Neither the error (as the app prints or dumps it) nor the logs contain the body's
    /// secret or any token the back-end issued.
    func expectNoSecret(in error: any Error, sourceLocation: SourceLocation = #_sourceLocation) async {
        let shown = ["\(error)", String(reflecting: error), logs.text]
        // A prefix of the secret catches an excerpt of it too.
        let secrets = [String(MalformedResponseTests.secret.prefix(16))] + (await backEnd.issuedTokens)
        for text in shown {
            for secret in secrets where text.contains(secret) {
                Issue.record("a secret shows in: \(text.prefix(300))", sourceLocation: sourceLocation)
            }
        }
    }
}
