import Foundation
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    // MARK: Credential source

    /// The credential to send: refreshed first when within the schema's leeway of its
    /// expiry. Within the leeway a failed refresh keeps the current credential; once it has
    /// expired the failure is thrown, and an expired credential that cannot be refreshed
    /// makes the state `invalid`.
    func credentialForSending() async throws -> Credential? {
        guard let current = session?.credential else { return nil }
        guard let expiresAt = current.expiresAt else { return current }
        let now = now()
        let leeway = sdk.credential.refresh?.leeway.timeInterval ?? 0
        guard now >= expiresAt.addingTimeInterval(-leeway) else { return current }
        let expired = now >= expiresAt
        guard canRefresh(current) else {
            guard expired else { return current }
            logger.info("the access token expired and cannot be refreshed")
            broadcaster.broadcast(
                .refreshFailed(RefreshFailure(kind: .rejected, reason: "the credential expired and cannot be refreshed")), logger: logger)
            run(machine.credentialExpired())
            throw SesameError.notAuthenticated
        }
        do {
            return try await refreshedCredential(replacing: current, automatic: true)
        } catch {
            // A failure within the leeway keeps the credential, which is still valid,
            // unless the refresh was rejected or the session changed meanwhile.
            let rejected = (error as? RefreshError)?.failure.kind == .rejected
            if !expired, !rejected, session?.credential == current { return current }
            throw (error as? RefreshError)?.underlying ?? error
        }
    }

    /// The credential to retry with after the auth server rejected `rejected`.
    func credentialAfterRejection(of rejected: Credential) async throws -> Credential? {
        guard let current = session?.credential else { throw SesameError.notAuthenticated }
        if current.accessToken != rejected.accessToken {
            logger.debug("the rejected credential was already replaced: retrying at once")
            return current
        }
        guard canRefresh(current) else {
            broadcaster.broadcast(
                .refreshFailed(RefreshFailure(kind: .rejected, reason: "the credential was rejected and cannot be refreshed")),
                logger: logger)
            run(machine.credentialRejected())
            return nil
        }
        do {
            return try await refreshedCredential(replacing: current, automatic: true)
        } catch let error as RefreshError {
            throw error.underlying
        }
    }

    func canRefresh(_ credential: Credential) -> Bool {
        sdk.credential.refresh != nil && credential.refreshToken != nil
    }

    // MARK: Single-flight refresh

    /// A refreshed credential for a refresh the app asked for (restoring a session): as
    /// ``refreshedCredential(replacing:automatic:)``, deferred only by a `Retry-After`.
    func refreshedCredential(replacing stale: Credential) async throws -> Credential {
        try await refreshedCredential(replacing: stale, automatic: false)
    }

    /// A refreshed credential: joins the refresh under way for this epoch, or starts one.
    /// When `stale` was already replaced, returns the current credential without refreshing.
    ///
    /// After a transient failure, refreshes back off: an `automatic` one (the runtime's own,
    /// for a request) waits out the whole back-off, `Retry-After` or exponential; one the
    /// app asked for waits out a `Retry-After` only, so that `restoreSession()` can retry.
    /// - Throws: ``RefreshError``, also at once, without sending anything, while backing off;
    ///   ``SesameError/excessiveRefresh(maxRefreshes:window:)`` beyond the schema's window;
    ///   ``SesameError/notAuthenticated`` when the session ended.
    func refreshedCredential(replacing stale: Credential, automatic: Bool) async throws -> Credential {
        let epoch = self.epoch
        let userEpoch = self.userEpoch
        guard let session else { throw SesameError.notAuthenticated }
        let current = session.credential
        guard let refresh = sdk.credential.refresh else { throw SesameError.notAuthenticated }
        let now = now()
        let action = refresher.refreshNeeded(
            credentialReplaced: current.accessToken != stale.accessToken,
            automatic: automatic, now: now
        ) { id in
            Task {
                let outcome = await self.refreshAcrossProcesses(of: session)
                return try self.completeRefresh(outcome, id: id, epoch: epoch)
            }
        }
        switch action {
        case .join(let flight), .started(let flight):
            return try await awaitRefresh(flight, epoch: epoch, userEpoch: userEpoch)
        case .useCurrentCredential:
            return current
        case .deferred(let error, let remaining, let failures):
            logger.debug("refresh deferred: backing off for \(remaining) s after \(failures) transient failure(s)")
            throw error
        case .limitReached:
            logger.warning("refresh refused: \(refresh.maxRefreshes) refreshes in \(refresh.window) already")
            broadcaster.broadcast(
                .refreshFailed(
                    RefreshFailure(kind: .limitReached, reason: "more than \(refresh.maxRefreshes) refreshes in \(refresh.window)")),
                logger: logger)
            throw SesameError.excessiveRefresh(maxRefreshes: refresh.maxRefreshes, window: refresh.window)
        }
    }

    private func awaitRefresh(_ task: Task<Credential, any Error>, epoch: UInt64, userEpoch: UInt64) async throws -> Credential {
        let outcome = await task.result
        // Re-check after the await: the session may have ended or been refreshed again.
        // When only an identity was attached meanwhile, the same user is signed in: the
        // refresh was discarded for the attach's credential, which the request goes on with.
        if epoch != self.epoch, userEpoch == self.userEpoch, let current = session?.credential { return current }
        _ = try outcome.get()
        guard epoch == self.epoch, let current = session?.credential else { throw SesameError.notAuthenticated }
        return current
    }

    /// Applies a refresh's outcome, in one actor step: the new credential (keeping the
    /// refresh token when the back-end did not rotate it) replaces the old one in memory
    /// and in the session store together, and ends any back-off; a transient failure starts
    /// or extends the back-off (see ``RefreshMachine``). An outcome for an older epoch is
    /// discarded.
    func completeRefresh(_ outcome: Result<Credential, RefreshError>, id: UInt64, epoch: UInt64) throws -> Credential {
        let machineOutcome: RefreshMachine<RefreshFlight>.Outcome =
            switch outcome {
            case .success: .succeeded
            case .failure(let error): .failed(error)
            }
        let action = refresher.refreshFinished(id: id, outcome: machineOutcome, now: now())
        guard action != .discard, epoch == self.epoch, session != nil else {
            logger.debug("discarding a refresh that completed for an ended session")
            throw SesameError.notAuthenticated
        }
        switch (outcome, action) {
        case (.success(let refreshed), _):
            // The machine keeps the refresh token when the back-end did not rotate it.
            // `details: idToken`: a refresh's (validated) ID token replaces the details; none keeps them.
            let details =
                readsDetailsFromIDToken && refreshed.idToken != nil
                ? try? detailsFromIDToken(of: refreshed, operation: "refresh") : nil
            guard case .install(let credential, let actions) = machine.credentialRefreshed(refreshed, details: details, epoch: epoch)
            else {
                throw SesameError.notAuthenticated
            }
            run(actions)
            logger.info("the credential was refreshed")
            broadcaster.broadcast(.tokenRefreshed(expiresAt: credential.expiresAt), logger: logger)
            return credential
        case (.failure(let error), let action):
            if case .backOff(let delay, let isRetryAfter) = action {
                logger.info("backing off refreshes for \(delay) s (\(isRetryAfter ? "Retry-After" : "exponential"))")
            }
            logger.notice("the refresh failed: \(error.failure)")
            broadcaster.broadcast(.refreshFailed(error.failure), logger: logger)
            run(action == .reject ? machine.credentialRejected() : machine.refreshFailedTransiently())
            throw error
        }
    }

    /// Sends the schema's refresh request for `credential` and reads the token response.
    nonisolated func exchangeRefreshToken(of credential: Credential) async -> Result<Credential, RefreshError> {
        guard let refresh = sdk.credential.refresh else {
            return .failure(
                RefreshError(
                    failure: RefreshFailure(kind: .rejected, reason: "the schema declares no refresh"),
                    underlying: SesameError.notAuthenticated))
        }
        let operation = refresh.request.name
        do {
            let body = try RequestFactory.body(
                fields: refresh.fields, for: refresh.request, client: configuration.client, naming: .publicClientToo
            ) {
                credential.value(of: $0)
            }
            let request = OperationRequest(refresh.request, body: body)
            let response = try await Deadline.run(within: configuration.refreshTimeout, operation: operation, what: "the refresh") {
                try await self.send(request, credential: .none)
            }
            let json = try TokenResponseReader.json(response.body, operation: operation)
            var refreshed = try TokenResponseReader.credential(from: json, description: sdk.credential, operation: operation, now: now())
            refreshed.idToken = try await checkRefreshedIDToken(in: json, of: refreshed, replacing: credential, operation: operation)
            if readsDetailsFromIDToken, refreshed.idToken != nil {
                // The claims replace the details (completeRefresh): ones that do not fit fail the refresh.
                do {
                    _ = try detailsFromIDToken(of: refreshed, operation: operation)
                } catch {
                    throw IDTokenRefusal(operation: operation, underlying: error)
                }
            }
            return .success(refreshed)
        } catch let error as BackEndError {
            let response = error.response
            // Network failures, 5xx and 429 are transient unless the catalogue says rejected.
            let kind: RefreshFailure.Kind =
                switch response.category {
                case .credentialRejected: .rejected
                case .transient, .server: .transient
                default: response.status == 429 || response.status >= 500 ? .transient : .failed
                }
            return .failure(
                RefreshError(
                    failure: RefreshFailure(kind: kind, reason: response.description),
                    underlying: Schema.serverError(response),
                    retryAfter: kind == .transient ? RetryAfter.delay(in: error.headerFields, now: now()) : nil))
        } catch let error as IDTokenRefusal {
            return .failure(RefreshError(failure: RefreshFailure(kind: .failed, reason: error.description), underlying: error.underlying))
        } catch let error as SesameError {
            let kind: RefreshFailure.Kind = if case .transport = error { .transient } else { .failed }
            return .failure(RefreshError(failure: RefreshFailure(kind: kind, reason: error.description), underlying: error))
        } catch let error as TemplateError {
            return .failure(
                RefreshError(
                    failure: RefreshFailure(kind: .failed, reason: error.description),
                    underlying: SesameError.encoding(reason: error.description)))
        } catch {
            return .failure(RefreshError(failure: RefreshFailure(kind: .transient, reason: "\(type(of: error))"), underlying: error))
        }
    }
}
