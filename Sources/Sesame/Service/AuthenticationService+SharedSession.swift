import Foundation

/// One session across processes (`SharedSessionStore`): the refresh under the store's lock,
/// and following what the other processes save.
extension AuthenticationService {
    // MARK: Refreshing once across processes

    /// Refreshes `session`'s credential. Through a shared store, under its refresh lock:
    /// the saved session is read again first, and when another process refreshed it
    /// meanwhile, its credential is the outcome and nothing is sent; otherwise the refresh is
    /// sent and its credential saved before the lock is released. When another process
    /// ended the session or signed in another user, this service follows the store first,
    /// and the outcome is a failure that the service then discards (its epoch ended).
    nonisolated func refreshAcrossProcesses(of session: StoredSession<Schema.Details>) async -> Result<Credential, RefreshError> {
        let credential = session.credential
        guard let shared = sharedSessionStore else { return await exchangeRefreshToken(of: credential) }
        let lock: any RefreshLock
        do {
            lock = try await shared.acquireRefreshLock(timeout: configuration.refreshTimeout + .seconds(5))
        } catch {
            // What the store says (another process held it too long, the file is a symbolic
            // link, it cannot be opened): only the store's own description, no secret in it.
            let reason = String(describing: error)
            logger.notice("the refresh lock shared with other processes could not be taken: \(reason)")
            return Self.transientFailure("the refresh lock shared with other processes could not be taken: \(reason)")
        }
        defer { lock.release() }
        let saved: SavedSessionState<Schema.Details>
        do {
            saved = try shared.savedState()
        } catch {
            logger.error("the session store failed to load: \(type(of: error))")
            return Self.transientFailure("the shared session store could not be read")
        }
        guard case .saved(let stored) = saved, Schema.userID(of: stored.details) == Schema.userID(of: session.details) else {
            return await endedElsewhere()
        }
        if stored.credential.accessToken != credential.accessToken {
            logger.debug("another process refreshed the credential: adopting it")
            // It may have signed in again meanwhile, with the key it stored.
            await proofs.prover?.sessionDidChangeElsewhere()
            return .success(stored.credential)
        }
        let outcome = await exchangeRefreshToken(of: credential)
        guard case .success(let answer) = outcome else { return outcome }
        let refreshed = answer.keepingRefreshToken(of: credential)
        var updated = stored
        updated.credential = refreshed
        do {
            // Under the lock nothing else refreshes; a sign-out elsewhere is still possible.
            if try !shared.save(updated, replacing: credential) { return await endedElsewhere() }
        } catch {
            // The server rotated: the credential is only in memory, and this process goes on
            // with it; the others refresh with the previous one and are refused.
            logger.error("the refreshed credential could not be saved for the other processes: \(type(of: error))")
        }
        return .success(refreshed)
    }

    /// The outcome of a refresh of a session another process ended or replaced: this service
    /// follows the store first, so that the failure is discarded with its epoch.
    private nonisolated func endedElsewhere() async -> Result<Credential, RefreshError> {
        await followSharedSession()
        return .failure(
            RefreshError(
                failure: RefreshFailure(kind: .failed, reason: "another process ended the session"),
                underlying: SesameError.notAuthenticated))
    }

    /// A transient failure of the shared store (its lock or a read), before anything was sent.
    private static func transientFailure(_ reason: String) -> Result<Credential, RefreshError> {
        .failure(
            RefreshError(
                failure: RefreshFailure(kind: .transient, reason: reason),
                underlying: SesameError.transport(operation: "refresh", reason: reason)))
    }

    // MARK: Following the other processes

    /// Starts following what the other processes save, once, when the session store is
    /// shared: `restoreSession()` and every action list call it.
    func followSharedSessionIfNeeded() {
        guard let shared = sharedSessionStore, sharedSessionTask == nil else { return }
        let changes = shared.changes()
        sharedSessionTask = Task { [weak self] in
            for await _ in changes {
                guard let self else { return }
                await self.followSharedSession()
            }
        }
    }

    /// Follows the store soon (after a save it refused), outside the current actor step.
    func followSharedSessionSoon() {
        Task { await self.followSharedSession() }
    }

    /// Makes this service's state what the shared store holds (see
    /// `AuthenticationStateMachine.sessionChangedElsewhere`). A session of another user is
    /// adopted only if the user-session observer opens its context; a store that cannot be
    /// read changes nothing.
    func followSharedSession() async {
        guard let shared = sharedSessionStore else { return }
        let saved: SavedSessionState<Schema.Details>
        do {
            saved = try shared.savedState()
        } catch {
            logger.error("the shared session store failed to load: \(type(of: error))")
            return
        }
        // A sign-in elsewhere bound the saved session's tokens to the key that process stored.
        let savedSession: StoredSession<Schema.Details>? = if case .saved(let stored) = saved { stored } else { nil }
        if savedSession != machine.session { await proofs.prover?.sessionDidChangeElsewhere() }
        let current = machine.session
        switch saved {
        case .saved(let stored):
            guard stored != current else { return }
            let userID = Schema.userID(of: stored.details)
            let sameUser = current.map { Schema.userID(of: $0.details) == userID } ?? false
            if !sameUser {
                do {
                    try configuration.userSessionObserver?.userSessionWillBegin(userID: userID, .restore)
                } catch {
                    logger.error("another process signed a user in, whose context did not open here: \(error)")
                    return
                }
                logger.info("another process signed a user in: following it")
            }
            run(machine.sessionChangedElsewhere(stored, sameUser: sameUser, ending: .signOut))
        case .signedOut:
            guard current != nil else { return }
            run(machine.sessionChangedElsewhere(nil, sameUser: false, ending: .signOut))
        case .invalidated(let userID):
            // Another user's: a sign-in elsewhere is saving its session; the next change shows it.
            guard let current, Schema.userID(of: current.details) == userID else { return }
            run(machine.sessionChangedElsewhere(nil, sameUser: true, ending: .invalidated))
        }
    }
}
