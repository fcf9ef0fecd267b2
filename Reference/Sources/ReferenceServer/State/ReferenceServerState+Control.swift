import Foundation

/// What the request middleware must do before a request reaches its handler.
struct RequestDirective: Sendable {
    var latency: Duration
    var failure: InjectedFailure?
}

extension ReferenceServerState {
    // MARK: Knobs

    /// Sets the lifetime of access tokens issued from now on.
    public func setAccessTokenLifetime(_ lifetime: Duration) {
        accessTokenLifetime = lifetime
    }

    /// The lifetime new access tokens get.
    public func currentAccessTokenLifetime() -> Duration {
        accessTokenLifetime
    }

    /// Delays every request outside `/_control` by `latency` (real time) before it is handled.
    public func setLatency(_ latency: Duration) {
        self.latency = latency
    }

    /// Adds a failure rule; rules are tried in the order they were added.
    public func injectFailure(_ failure: InjectedFailure) {
        failures.append(failure)
    }

    /// The failure rules that have requests left to fail.
    public func pendingFailures() -> [InjectedFailure] {
        failures
    }

    /// Drops every failure rule.
    public func clearFailures() {
        failures = []
    }

    // MARK: Users

    /// Revokes every session of `uid` (access and refresh tokens), pushes `session.revoked`
    /// with `reason` on their event streams, then closes those streams.
    /// Returns the number of sessions revoked; throws ``ControlError/unknownUser(_:)`` for an unknown uid.
    @discardableResult
    public func revokeTokens(ofUser uid: String, reason: RevocationReason = .adminAction) throws -> Int {
        guard accounts[uid] != nil else { throw ControlError.unknownUser(uid) }
        let ids = sessions.values.filter { $0.uid == uid }.map(\.id)
        ids.forEach(revokeSession)
        try pushEvent(toUser: uid, name: "session.revoked", payload: .object(["reason": .string(reason.rawValue)]))
        disconnectEventStreams(ofUser: uid)
        return ids.count
    }

    /// Attaches another identity to an account (the protocol has no linking operation), so
    /// tests can detach an identity without destroying the account.
    /// Throws ``ControlError/unknownUser(_:)`` when `uid` has no live account.
    func attachIdentity(toUser uid: String, provider: Provider, providerUID: String) throws {
        guard var account = accounts[uid], !account.destroyed else { throw ControlError.unknownUser(uid) }
        account.identities.append(IdentityRecord(provider: provider, providerUID: providerUID, attachedAt: now()))
        store(account)
    }

    /// Attaches another identity to an account, naming its provider as the wire does
    /// (`guest`, `internal`, `password`, `custom`).
    /// Throws ``ControlError/unknownProvider(_:)`` for another name, and
    /// ``ControlError/unknownUser(_:)`` when `uid` has no live account.
    public func attachIdentity(toUser uid: String, provider name: String, providerUID: String) throws {
        guard let provider = Provider(rawValue: name) else { throw ControlError.unknownProvider(name) }
        try attachIdentity(toUser: uid, provider: provider, providerUID: providerUID)
    }

    /// The uids of every account, destroyed ones included, sorted.
    public func userIDs() -> [String] {
        accounts.keys.sorted()
    }

    /// The uid of the live account holding this identity, e.g. `(.password, "alice")`.
    func userID(provider: Provider, providerUID: String) -> String? {
        liveAccount(for: IdentityKey(provider: provider, providerUID: providerUID))
    }

    // MARK: Challenges

    /// What the server knows of a challenge, by its id; nil when unknown.
    public func challenge(id: String) -> ChallengeInfo? {
        UUID(uuidString: id).flatMap { challenges[$0] }.map(Self.info)
    }

    /// The latest challenge sent to `identifier`; nil when none was.
    public func latestChallenge(identifier: String) -> ChallengeInfo? {
        challenges.values
            .filter { $0.identifier == identifier }
            .max { ($0.expiresAt, $0.sequence) < ($1.expiresAt, $1.sequence) }
            .map(Self.info)
    }

    private static func info(_ challenge: Challenge) -> ChallengeInfo {
        ChallengeInfo(
            challengeId: challenge.id.uuidString.lowercased(),
            identifier: challenge.identifier,
            channel: challenge.channel,
            code: challenge.code,
            expiresAt: WireCoding.dateTime(challenge.expiresAt),
            consumed: challenge.consumed
        )
    }

    // MARK: Request log

    /// How many entries ``requestLog()`` keeps; older ones are dropped first.
    public static let requestLogCapacity = 10_000

    /// The requests received outside `/_control` (and `GET /_control/downstream-401`) since
    /// start, the last ``clearRequestLog()`` or ``reset()``, oldest first: which listener got
    /// each one and whether it carried a Bearer token or client credentials, never the
    /// credentials themselves. Requests that an injected failure answered are included.
    public func requestLog() -> [RequestLogEntry] {
        requests
    }

    /// Empties ``requestLog()``.
    public func clearRequestLog() {
        requests = []
    }

    func log(_ entry: RequestLogEntry) {
        if requests.count >= Self.requestLogCapacity { requests.removeFirst(requests.count - Self.requestLogCapacity + 1) }
        requests.append(entry)
    }

    // MARK: Counters and reset

    /// The counters since start or the last ``reset()``.
    public func counters() -> ReferenceServerCounters {
        counts
    }

    /// Forgets everything: accounts, sessions, tokens, challenges, authorization codes, notes,
    /// events, counters, the request log, failure rules, latency and consent denial; restores the configured token lifetime and the clock
    /// offset; closes every open event stream.
    public func reset() {
        disconnectEventStreams()
        clockOffset = 0
        accessTokenLifetime = configuration.accessTokenLifetime
        latency = .zero
        failures = []
        counts = .zero
        requests = []
        deniesConsent = false
        issuerMode = .correct
        authorizationCodes = [:]
        deviceCodes = [:]
        accounts = [:]
        identityIndex = [:]
        sessions = [:]
        accessTokens = [:]
        refreshTokens = [:]
        challenges = [:]
        acceptedSecrets = []
        eventBuffers = [:]
        lastEventIDs = [:]
        openID = OpenIDProviderState(keys: openID.keys)
    }

    // MARK: Middleware

    /// Counts a request and says whether it must wait or fail first.
    func beginRequest(method: String, path: String, template: String?) -> RequestDirective {
        counts.requests["\(method) \(template ?? path)", default: 0] += 1
        var failure: InjectedFailure?
        if let index = failures.firstIndex(where: { $0.matches(method: method, path: path, template: template) }) {
            failure = failures[index]
            failures[index].count -= 1
            if failures[index].count <= 0 { failures.remove(at: index) }
        }
        return RequestDirective(latency: latency, failure: failure)
    }
}
