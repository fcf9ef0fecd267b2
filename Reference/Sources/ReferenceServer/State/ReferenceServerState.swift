import Foundation
import Logging

/// The back-end's whole in-memory state: accounts, sessions, tokens, challenges, notes,
/// event buffers, counters and the test knobs. One actor, so every decision sees one
/// consistent state; the HTTP routes and the in-process control API both go through it.
///
/// Time comes from ``ReferenceServer/Configuration/now`` plus an offset that
/// ``advanceClock(by:)`` moves forward, so tests expire tokens without sleeping.
public actor ReferenceServerState {
    // MARK: Records

    struct IdentityRecord: Sendable {
        var provider: Provider
        var providerUID: String
        var attachedAt: Date
    }

    struct Account: Sendable {
        var uid: String
        var identities: [IdentityRecord]
        var displayName: String?
        var email: String?
        var isAnonymous: Bool
        var destroyed = false
        var notes: [Note] = []
    }

    struct IdentityKey: Hashable, Sendable {
        var provider: Provider
        var providerUID: String
    }

    struct Session: Sendable {
        var id: UUID
        var uid: String
        var provider: Provider
        var providerUID: String
        var authenticatedAt: Date
        var scope: String?
        /// The client the token endpoint gave the session's tokens to; nil for the sign-in
        /// methods of `/auth/*`, which authenticate no client.
        var clientID: String?
        var refreshToken: String?
        var accessTokens: Set<String> = []
        /// The RFC 7638 thumbprint of the DPoP key the session's tokens are bound to
        /// (their `cnf.jkt`, RFC 9449 §6); nil for bearer tokens.
        var dpopJKT: String?
    }

    enum RefreshTokenStatus: Sendable {
        case active
        case rotated
        case revoked
    }

    struct RefreshTokenRecord: Sendable {
        var sessionID: UUID
        /// The `cnf.jkt` of the key the token is bound to (RFC 9449 §5); nil when unbound.
        var dpopJKT: String?
        var expiresAt: Date?
        var status: RefreshTokenStatus
    }

    struct AccessTokenRecord: Sendable {
        var sessionID: UUID
        /// The `cnf.jkt` of the key the token is bound to (RFC 9449 §6); nil when unbound.
        var dpopJKT: String?
        var expiresAt: Date
        var revoked = false
    }

    struct Challenge: Sendable {
        var id: UUID
        var identifier: String
        var channel: String
        var code: String
        var expiresAt: Date
        /// The order challenges were started in: the latest one wins a tie on `expiresAt`
        /// (two challenges started within the same second of a test's clock).
        var sequence = 0
        var failedAttempts = 0
        var consumed = false
    }

    /// An authorization code the login page issued (RFC 6749 §4.1.2), bound to what the
    /// token request must repeat.
    struct AuthorizationCodeRecord: Sendable {
        var clientID: String
        var redirectURI: String
        var codeChallenge: String
        var username: String
        var scope: String?
        var expiresAt: Date
        /// True once a token request of its client presented it, successful or not.
        var redeemed = false
        /// The session its tokens started, revoked if the code comes back (RFC 6749 §4.1.2).
        var sessionID: UUID?
        /// The DPoP key the token request must prove (RFC 9449 §10: `dpop_jkt`, or the key
        /// of the pushed request's proof); nil when any key or none may redeem it.
        var dpopJKT: String?
    }

    struct Subscriber: Sendable {
        var uid: String
        var continuation: AsyncStream<ServerSentEvent>.Continuation
    }

    // MARK: Storage

    let configuration: ReferenceServer.Configuration
    let logger: Logger
    let startedAt = ContinuousClock.now

    var clockOffset: TimeInterval = 0
    var accessTokenLifetime: Duration
    var latency: Duration = .zero
    var failures: [InjectedFailure] = []
    var counts = ReferenceServerCounters.zero
    /// The latest requests, oldest first, at most ``requestLogCapacity``; see ``requestLog()``.
    var requests: [RequestLogEntry] = []
    /// Set by the control API: the login page answers `access_denied` whatever the user does.
    var deniesConsent = false
    /// Set by the control API: the `iss` the authorization endpoint's redirects carry.
    var issuerMode = IssuerMode.correct
    /// The authorization server's issuer (its origin), known once it listens; see
    /// ``setIssuer(_:)``.
    var issuer: String?

    var accounts: [String: Account] = [:]
    var identityIndex: [IdentityKey: String] = [:]
    var sessions: [UUID: Session] = [:]
    var accessTokens: [String: AccessTokenRecord] = [:]
    var refreshTokens: [String: RefreshTokenRecord] = [:]
    var challenges: [UUID: Challenge] = [:]
    var challengesStarted = 0
    var authorizationCodes: [String: AuthorizationCodeRecord] = [:]
    /// Device authorizations (RFC 8628) by device code.
    var deviceCodes: [String: DeviceCodeRecord] = [:]
    /// The `acr` of codes and sessions started on the login page (RFC 9470 step-up).
    var authenticationContexts = AuthenticationContexts()
    /// Signing keys, nonces and the next ID token's fault (OpenID Connect).
    var openID = OpenIDProviderState()
    /// The DPoP nonce and the identifiers of recent proofs (RFC 9449).
    var dpop: DPoPServerState
    /// Pushed authorization requests (RFC 9126) by `request_uri`.
    var pushedRequests: [String: PushedRequestRecord] = [:]
    /// Passkeys (WebAuthn): pending challenges, and credentials with their counters.
    var passkeys = PasskeyServerState()

    var eventBuffers: [String: [ServerSentEvent]] = [:]
    var lastEventIDs: [String: Int] = [:]
    var subscribers: [UUID: Subscriber] = [:]
    /// The `: ping` heartbeats written to event streams so far, all users together.
    public internal(set) var heartbeatsWritten = 0

    /// Client secrets, passwords and custom tokens accepted; see ``issuedSecrets()``.
    var acceptedSecrets: Set<IssuedSecret> = []

    /// Makes an empty state for a server with this configuration.
    init(configuration: ReferenceServer.Configuration) {
        self.configuration = configuration
        self.logger = configuration.logger
        self.accessTokenLifetime = configuration.accessTokenLifetime
        self.dpop = DPoPServerState(options: configuration.dpop)
    }

    // MARK: Clock

    /// The server's current time: the configured clock plus any ``advanceClock(by:)`` offset.
    public func now() -> Date {
        configuration.now().addingTimeInterval(clockOffset)
    }

    /// Moves the server's clock forward (or back, with a negative duration) by `duration`.
    /// Tokens, codes and fresh-authentication windows are all judged against this clock.
    public func advanceClock(by duration: Duration) {
        clockOffset += duration.timeInterval
    }

    /// Seconds since the state was made (real time), never 0.
    func uptimeSeconds() -> Double {
        max((ContinuousClock.now - startedAt).timeInterval, 0.001)
    }
}
