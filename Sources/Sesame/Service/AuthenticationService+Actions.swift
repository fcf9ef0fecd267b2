/// What the background effects of a list of actions reported.
@_spi(Generated) import SesameDescription

struct ExecutedActions: Sendable {
    /// The back-end's answer to `.revokeSession`, when the actions asked for it.
    var revocation: UnauthenticationResult?
}

extension AuthenticationService {
    /// The one executor of the auth machine's actions. The session in memory is the
    /// machine's (it changed before these actions came back); what runs here is everything
    /// that must follow outside it: the session store, the observer, the refresh engine
    /// and the event stream of a new epoch, subscribers, the back-end.
    ///
    /// Effects that need no `await` (a new epoch, saving or clearing the session, telling
    /// subscribers) run at once, in order, within the caller's actor step, so that a state
    /// and its effects are never seen apart. Effects that talk to the back-end or to the
    /// app (the restoration delegate, a credential check, revocation) run after them, in
    /// order, in one task that the service tracks: it is cancelled when the service goes
    /// away, and callers that report its outcome await it.
    /// - Returns: the task running the awaited effects, nil when there are none.
    @discardableResult
    func run(_ actions: [Machine.Action], isStartup: Bool = false) -> Task<ExecutedActions, Never>? {
        var awaited: [Machine.Action] = []
        var replacesKey = false
        for action in actions {
            switch action {
            case .startEpoch, .continueEpoch:
                // The machine counted the epoch; what belonged to the old one goes.
                refresher.reset()
                eventStreamTask?.cancel()
                eventStreamTask = nil
            case .persistSession(let session, let replacing):
                persist(session, replacing: replacing)
            case .clearSession(let ending):
                do {
                    if let shared = sharedSessionStore {
                        try shared.clear(ending: ending)
                    } else {
                        try configuration.sessionStore.clear()
                    }
                } catch {
                    logger.error("the session store failed to clear: \(type(of: error))")
                }
                if let ending { configuration.userSessionObserver?.userSessionDidEnd(ending) }
                // The next session's tokens are bound to a new key (below, once the ending
                // session's own requests are sent).
                replacesKey = true
            case .sessionEndedElsewhere(let ending):
                logger.info("another process ended the session (\(ending))")
                configuration.userSessionObserver?.userSessionDidEndElsewhere(ending)
            case .publish(let state):
                logger.info("authentication state: \(state)")
                broadcaster.broadcast(.stateChanged(state), logger: logger)
            case .consultRestorationDelegate, .verifyCredential, .revokeSession:
                awaited.append(action)
            }
        }
        updateEventStream()
        followSharedSessionIfNeeded()
        guard !awaited.isEmpty else {
            if replacesKey { proofs.prover?.replaceKey(logger: logger) }
            return nil
        }
        let id = tasks.nextID()
        let task = Task {
            var executed = ExecutedActions()
            for action in awaited {
                switch action {
                case .consultRestorationDelegate: await self.consultRestorationDelegate(isStartup: isStartup)
                case .verifyCredential: await self.verifyCredential()
                case .revokeSession(let credential):
                    // The ending session's sign-out is signed with the key its tokens are bound to.
                    executed.revocation = await SessionProver.$signsForEndingSession.withValue(true) {
                        await self.revoke(credential)
                    }
                default: break
                }
            }
            self.tasks.finished(id)
            return executed
        }
        tasks.track(task, id: id)
        // Every proof asked for from now on, but the ending session's, waits for the new key.
        if replacesKey { proofs.prover?.replaceKey(logger: logger, after: task) }
        return task
    }

    /// Saves `session`; through a store shared with other processes, only if it still holds
    /// `replacing` (a new sign-in, nil, replaces whatever is saved). When another process
    /// changed the session meanwhile, nothing is saved and this service follows the store.
    private func persist(_ session: StoredSession<Schema.Details>, replacing: Credential?) {
        do {
            if let shared = sharedSessionStore, let replacing {
                guard try shared.save(session, replacing: replacing) else {
                    logger.notice("another process changed the session meanwhile: following it")
                    followSharedSessionSoon()
                    return
                }
            } else {
                try configuration.sessionStore.save(session)
            }
        } catch {
            logger.error("the session store failed to save: \(type(of: error))")
        }
    }

    /// Performs `actions`, then waits for the effects that talk to the back-end or the app.
    @discardableResult
    func execute(_ actions: [Machine.Action], isStartup: Bool = false) async -> ExecutedActions {
        await run(actions, isStartup: isStartup)?.value ?? ExecutedActions()
    }

    /// Asks the back-end to revoke the credential of a session that was just signed out:
    /// the schema's sign-out operation with the credential, then its RFC 7009 revocation
    /// request with client authentication, after the sign-out (which still needs the
    /// credential the revocation ends); skipped when it would send `{refreshToken}` and the
    /// session has none. `.revoked` when every declared request succeeded; otherwise what
    /// failed or was skipped, never thrown. Then, with an end session (the configuration's
    /// ``AuthenticationServiceConfiguration/endSession`` or the schema's `openID.endSession`)
    /// and an ID token, the provider's session is ended in the browser (RP-Initiated Logout),
    /// and the result says whether the provider confirmed it.
    private func revoke(_ credential: Credential) async -> UnauthenticationResult {
        let revocation = await revokeAtBackEnd(credential)
        guard let idToken = credential.idToken else { return revocation }
        let notRevoked: String? =
            switch revocation {
            case .localOnly(let reason): reason
            default: nil
            }
        let endSession: EndSessionConfiguration
        switch providerEndSession {
        case .off: return revocation
        case .unusable(let reason):
            logger.notice("signed out locally; the provider's session was not ended: \(reason)")
            return .providerNotConfirmed(reason: reason, notRevoked: notRevoked)
        case .configured(let configured): endSession = configured
        }
        guard let reason = await endSessionAtProvider(idToken: idToken, endSession: endSession) else {
            return .endedAtProvider(notRevoked: notRevoked)
        }
        return .providerNotConfirmed(reason: reason, notRevoked: notRevoked)
    }

    private func revokeAtBackEnd(_ credential: Credential) async -> UnauthenticationResult {
        let lifecycle = sdk.lifecycle
        guard lifecycle.signOut != nil || lifecycle.revocation != nil else {
            return .localOnly(reason: "the schema declares no sign-out")
        }
        var failures: [String] = []
        if let signOut = lifecycle.signOut {
            do {
                _ = try await send(OperationRequest(signOut), credential: .fixed(credential))
            } catch {
                failures.append("\(signOut.name): \(Self.publicError(error))")
            }
        }
        if let failure = await sendRevocation(of: credential) { failures.append(failure) }
        guard failures.isEmpty else {
            let reason = failures.joined(separator: "; ")
            logger.notice("signed out locally; the back-end did not revoke the session: \(reason)")
            return .localOnly(reason: reason)
        }
        logger.info("signed out; the back-end revoked the session")
        return .revoked
    }
}
