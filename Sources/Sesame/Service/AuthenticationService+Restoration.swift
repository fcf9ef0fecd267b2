import Foundation
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// Restores the session an earlier launch saved: the state becomes
    /// `presession(details)`, then, when online, the restoration delegate decides: no
    /// refresh vouches for the session (`authenticated`); a refresh that succeeds for the
    /// same user gives `authenticated`; one that is rejected, or returns another user,
    /// gives `invalid` (and the delegate's `deauthenticate()` is called); any other failure
    /// keeps `presession`. Offline, the delegate is consulted when connectivity returns.
    ///
    /// Called again while in `presession`, it retries the delegate's refresh. It does
    /// nothing when a session is already in use or none was saved.
    /// - Returns: the state once done. Never throws: a store that fails to load is logged.
    @discardableResult
    public func restoreSession() async -> AuthenticationState<Schema.Details> {
        followSharedSessionIfNeeded()
        if case .presession = machine.current {
            await consultRestorationDelegate(isStartup: false)
            return machine.current
        }
        guard case .unauthenticated = machine.current else { return machine.current }
        let stored: StoredSession<Schema.Details>?
        do {
            stored = try configuration.sessionStore.load()
        } catch {
            logger.error("the session store failed to load: \(type(of: error))")
            return machine.current
        }
        guard let stored else { return machine.current }
        do {
            try configuration.userSessionObserver?.userSessionWillBegin(userID: Schema.userID(of: stored.details), .restore)
        } catch {
            logger.error("the saved session was not restored: its user's context did not open (\(error))")
            return machine.current
        }
        logger.info("restored a saved session")
        await execute(machine.sessionRestored(stored), isStartup: true)
        return machine.current
    }

    /// Runs the restoration delegate for the `presession` state, re-checking after each
    /// await that the restored session is still the one in use.
    func consultRestorationDelegate(isStartup: Bool) async {
        guard case .presession(let details) = machine.current, machine.isOnline else { return }
        let epoch = self.epoch
        let delegate = configuration.restorationDelegate
        let shouldRefresh = await delegate.shouldRefresh(user: details, isStartup: isStartup)
        guard epoch == self.epoch, case .presession = machine.current else { return }
        guard shouldRefresh else {
            run(machine.restorationTrusted())
            return
        }
        let refresher = SessionRefresher<Schema.Details> { [weak self] in
            guard let self else { throw SesameError.notAuthenticated }
            return try await self.refreshForRestoration(epoch: epoch)
        }
        do {
            let refreshed = try await delegate.refresh(user: details, refresher: refresher)
            guard epoch == self.epoch, case .presession = machine.current else { return }
            guard Schema.userID(of: refreshed) == Schema.userID(of: details) else {
                logger.warning("the restored session's refresh named another user: rejecting it")
                await rejectRestoredSession(epoch: epoch)
                return
            }
            run(machine.refreshSucceeded(refreshed))
        } catch {
            let rejected = (error as? SesameError) == .notAuthenticated
            guard rejected || machine.current == .invalid else {
                logger.notice("the restored session's refresh failed; staying in presession: \(Self.publicError(error))")
                return
            }
            await rejectRestoredSession(epoch: epoch)
        }
    }

    private func rejectRestoredSession(epoch: UInt64) async {
        if epoch == self.epoch { run(machine.credentialRejected()) }
        guard machine.current == .invalid else { return }
        await configuration.restorationDelegate.deauthenticate()
    }

    /// The default refresh of a restored session: the schema's refresh when the credential
    /// has a refresh token (else the credential as it is, unless expired), then the details
    /// (with `details: idToken`, those of the refresh's ID token, or the saved ones: no request).
    nonisolated func refreshForRestoration(epoch: UInt64) async throws -> Schema.Details {
        try await refreshRestoredCredential(epoch: epoch)
        do {
            return try await currentDetails()
        } catch {
            throw Self.publicError(error)
        }
    }

    private func refreshRestoredCredential(epoch: UInt64) async throws {
        guard epoch == self.epoch, let credential = session?.credential else { throw SesameError.notAuthenticated }
        if canRefresh(credential) {
            do {
                _ = try await refreshedCredential(replacing: credential)
            } catch let error as RefreshError {
                throw error.failure.kind == .rejected ? SesameError.notAuthenticated : error.underlying
            }
        } else if let expiresAt = credential.expiresAt, now() >= expiresAt {
            logger.info("the restored credential expired and cannot be refreshed")
            run(machine.credentialExpired())
            throw SesameError.notAuthenticated
        }
    }

    /// Checks a signed-in session with the back-end when connectivity returns: the
    /// details operation goes through the credential middleware, so a rejected credential
    /// is refreshed, or makes the state `invalid` when that is rejected too. Other failures
    /// change nothing. With `details: idToken` there is no details operation: the session is
    /// checked by a refresh when it has one (a rejected refresh makes it `invalid`, an ID
    /// token replaces the details), and kept as it is otherwise.
    func verifyCredential() async {
        guard case .authenticated(let details) = machine.current else { return }
        let epoch = self.epoch
        guard let request = sdk.credential.details else {
            guard let credential = session?.credential, canRefresh(credential) else { return }
            do {
                _ = try await refreshedCredential(replacing: credential)
            } catch {
                logger.notice("could not verify the session with a refresh: \(Self.publicError(error))")
            }
            return
        }
        do {
            let current = try await send(OperationRequest(request), credential: .session)
                .decode(Schema.Details.self)
            guard epoch == self.epoch, machine.current.isAuthenticated else { return }
            guard Schema.userID(of: current) == Schema.userID(of: details) else {
                logger.warning("the back-end named another user for the session: invalidating it")
                run(machine.credentialRejected())
                return
            }
            run(machine.refreshSucceeded(current))
        } catch {
            logger.notice("could not verify the session: \(Self.publicError(error))")
        }
    }
}
