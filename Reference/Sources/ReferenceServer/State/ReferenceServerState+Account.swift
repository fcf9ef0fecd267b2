import Foundation

extension ReferenceServerState {
    /// The details `GET /me` answers for a session.
    func details(of session: AuthenticatedSession) -> AuthenticationDetails {
        let account = accounts[session.uid]
        return AuthenticationDetails(
            uid: session.uid,
            provider: session.provider,
            providerUID: session.providerUID,
            displayName: account?.displayName,
            email: account?.email,
            authenticatedAt: WireCoding.dateTime(session.authenticatedAt),
            expiresAt: WireCoding.dateTime(session.tokenExpiresAt),
            isAnonymous: account?.isAnonymous ?? false
        )
    }

    /// The identities attached to the session's account; none once it is destroyed.
    func identities(of session: AuthenticatedSession) -> [Identity] {
        guard let account = accounts[session.uid], !account.destroyed else { return [] }
        return account.identities.map(Self.wire)
    }

    /// Detaches the account's identity of `provider`; detaching the last one destroys the
    /// account. Throws 403 `token_too_old` unless the session signed in within the fresh
    /// authentication window, and 404 `not_found` when there is no such identity.
    func detachIdentity(_ provider: Provider, session: AuthenticatedSession) throws -> DetachResult {
        try requireFreshAuthentication(session)
        guard var account = accounts[session.uid], !account.destroyed,
            let index = account.identities.firstIndex(where: { $0.provider == provider })
        else {
            throw OAuthError.notFound("The account has no \(provider.rawValue) identity.")
        }
        let identity = account.identities.remove(at: index)
        identityIndex[IdentityKey(provider: identity.provider, providerUID: identity.providerUID)] = nil
        accounts[session.uid] = account
        if account.identities.isEmpty {
            destroy(uid: session.uid)
            return DetachResult(accountDestroyed: true, remaining: [])
        }
        return DetachResult(accountDestroyed: false, remaining: account.identities.map(Self.wire))
    }

    /// Destroys the session's account. Its access tokens stay valid until they expire; its
    /// refresh tokens die. Throws 403 `token_too_old` for a stale sign-in and 404 `not_found`
    /// when the account is already gone.
    func destroyAccount(session: AuthenticatedSession) throws {
        try requireFreshAuthentication(session)
        guard let account = accounts[session.uid], !account.destroyed else {
            throw OAuthError.notFound("The account was already destroyed.")
        }
        destroy(uid: session.uid)
    }

    private func destroy(uid: String) {
        guard var account = accounts[uid] else { return }
        for identity in account.identities {
            identityIndex[IdentityKey(provider: identity.provider, providerUID: identity.providerUID)] = nil
        }
        account.identities = []
        account.notes = []
        account.destroyed = true
        accounts[uid] = account
        for session in sessions.values where session.uid == uid {
            if let refreshToken = session.refreshToken {
                refreshTokens[refreshToken]?.status = .revoked
            }
        }
    }

    private func requireFreshAuthentication(_ session: AuthenticatedSession) throws {
        let window = configuration.freshAuthenticationWindow.timeInterval
        guard now().timeIntervalSince(session.authenticatedAt) <= window else {
            throw OAuthError.tokenTooOld(maxAge: Int(window))
        }
    }

    private static func wire(_ identity: IdentityRecord) -> Identity {
        Identity(provider: identity.provider, providerUID: identity.providerUID, attachedOn: WireCoding.fullDate(identity.attachedAt))
    }

    // MARK: Notes

    /// The user's notes, oldest first, optionally only (un)pinned ones, at most `limit`.
    func notes(of session: AuthenticatedSession, limit: Int?, pinned: Bool?) -> [Note] {
        var notes = accounts[session.uid]?.notes ?? []
        if let pinned { notes = notes.filter { $0.pinned == pinned } }
        if let limit { notes = Array(notes.prefix(limit)) }
        return notes
    }

    /// Adds a note to the user's account. Throws 404 `not_found` once the account is destroyed.
    func createNote(text: String, pinned: Bool, session: AuthenticatedSession) throws -> Note {
        guard var account = accounts[session.uid], !account.destroyed else {
            throw OAuthError.notFound("The account was destroyed.")
        }
        let note = Note(id: UUID().uuidString.lowercased(), text: text, pinned: pinned, createdAt: WireCoding.dateTime(now()))
        account.notes.append(note)
        accounts[session.uid] = account
        return note
    }
}
