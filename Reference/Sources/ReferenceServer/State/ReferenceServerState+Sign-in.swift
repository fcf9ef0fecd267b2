import Foundation

/// The session a valid access token belongs to, as the protected routes see it.
struct AuthenticatedSession: Sendable {
    var sessionID: UUID
    var uid: String
    var provider: Provider
    var providerUID: String
    var authenticatedAt: Date
    var tokenExpiresAt: Date
}

extension ReferenceServerState {
    // MARK: Sign-in methods

    /// Makes a new guest account and signs it in.
    func signInAsGuest() -> TokenResponse {
        let uid = SecretGenerator.uid()
        let account = Account(
            uid: uid,
            identities: [IdentityRecord(provider: .guest, providerUID: uid, attachedAt: now())],
            isAnonymous: true
        )
        store(account)
        return startSession(uid: uid, provider: .guest, providerUID: uid, scope: nil, grant: "guest").tokens
    }

    /// Starts an internal challenge for `identifier` and returns it with its code.
    func startChallenge(identifier: String) -> (response: ChallengeResponse, code: String) {
        let isPhone = identifier.hasPrefix("+") || identifier.allSatisfy(\.isNumber)
        let challenge = Challenge(
            id: UUID(),
            identifier: identifier,
            channel: isPhone ? "sms" : "email",
            code: SecretGenerator.code(),
            expiresAt: now().addingTimeInterval(configuration.challengeLifetime.timeInterval),
            sequence: challengesStarted + 1
        )
        challengesStarted += 1
        challenges[challenge.id] = challenge
        let response = ChallengeResponse(
            challengeId: challenge.id.uuidString.lowercased(),
            channel: challenge.channel,
            expiresAt: WireCoding.dateTime(challenge.expiresAt)
        )
        return (response, challenge.code)
    }

    /// Checks `code` against the challenge and signs its identifier in, making the account
    /// on first use, or, with `accessToken`, attaching the identifier to that token's account
    /// (the token is checked in the same call, so it cannot die in between).
    /// Codes are single use; wrong ones count towards the attempt limit.
    /// Throws 401 `invalid_token` for a dead access token, 400 `invalid_code` for an unknown,
    /// expired, used or wrong code, and 409 `identity_already_attached` (leaving the code
    /// unused) when the identifier belongs to another account than the token's.
    func verifyChallenge(id: String, code: String, accessToken: String? = nil) throws -> TokenResponse {
        let current = try accessToken.map { try authenticate(accessToken: $0) }
        guard let uuid = UUID(uuidString: id), var challenge = challenges[uuid] else {
            throw OAuthError(status: .badRequest, code: "invalid_code", description: "The challenge is unknown.")
        }
        guard !challenge.consumed else {
            throw OAuthError(status: .badRequest, code: "invalid_code", description: "The code was already used.")
        }
        guard now() < challenge.expiresAt else {
            throw OAuthError(status: .badRequest, code: "invalid_code", description: "The code expired.")
        }
        guard challenge.code == code else {
            challenge.failedAttempts += 1
            challenge.consumed = challenge.failedAttempts >= configuration.challengeMaxAttempts
            challenges[uuid] = challenge
            throw OAuthError(status: .badRequest, code: "invalid_code", description: "The code is wrong.")
        }
        let key = IdentityKey(provider: .internal, providerUID: challenge.identifier)
        let email = challenge.channel == "email" ? challenge.identifier : nil
        if let current { try requireAttachable(key, to: current) }
        challenge.consumed = true
        challenges[uuid] = challenge
        if let current {
            return signInToCurrentAccount(current, identity: key, email: email, grant: "internal")
        }
        let uid =
            liveAccount(for: key)
            ?? {
                let uid = SecretGenerator.uid()
                store(
                    Account(
                        uid: uid,
                        identities: [IdentityRecord(provider: .internal, providerUID: challenge.identifier, attachedAt: now())],
                        email: email,
                        isAnonymous: false
                    ))
                return uid
            }()
        return startSession(uid: uid, provider: .internal, providerUID: challenge.identifier, scope: nil, grant: "internal").tokens
    }

    /// The RFC 6749 §4.3 grant. Throws 400 `invalid_grant` for a wrong user name or password.
    /// With `dpopJKT`, the tokens are bound to that DPoP key.
    func signInWithPassword(
        username: String, password: String, scope: String?, clientID: String? = nil, dpopJKT: String? = nil
    ) throws -> TokenResponse {
        guard checkPassword(username: username, password: password) else {
            throw OAuthError.invalidGrant("The user name or password is wrong.")
        }
        return startSession(
            uid: passwordAccount(username: username),
            provider: .password,
            providerUID: username,
            scope: scope ?? "profile",
            grant: "password",
            clientID: clientID,
            dpopJKT: dpopJKT
        ).tokens
    }

    /// True when `password` is the configured password of `username` (then it joins
    /// ``issuedSecrets()``).
    func checkPassword(username: String, password: String) -> Bool {
        guard let expected = configuration.users[username], ConstantTime.equals(expected, password) else { return false }
        accepted(IssuedSecret(kind: .password, value: password))
        return true
    }

    /// The uid of the account of the password identity `username`, made on first use
    /// (`pw-<username>`).
    func passwordAccount(username: String) -> String {
        let key = IdentityKey(provider: .password, providerUID: username)
        if let uid = liveAccount(for: key) { return uid }
        let uid = "pw-\(username)"
        store(
            Account(
                uid: uid,
                identities: [IdentityRecord(provider: .password, providerUID: username, attachedAt: now())],
                displayName: username.prefix(1).uppercased() + username.dropFirst(),
                email: "\(username)@example.com",
                isAnonymous: false
            ))
        return uid
    }

    /// Signs in with an app token: `custom-<id>` is accepted, and `<id>` names the user
    /// (uid `cu-<id>`), or, with `accessToken`, is attached to that token's account (the
    /// token is checked in the same call). Throws 401 `invalid_token` for a dead access
    /// token, 400 `invalid_grant` for any other custom token, and 409
    /// `identity_already_attached` when `<id>` belongs to another account than the token's.
    func signInWithCustomToken(_ token: String, accessToken: String? = nil) throws -> TokenResponse {
        let current = try accessToken.map { try authenticate(accessToken: $0) }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard token.hasPrefix("custom-"), token.count > 7, token.dropFirst(7).allSatisfy({ allowed.contains($0) }) else {
            throw OAuthError.invalidGrant("The custom token is not valid.")
        }
        accepted(IssuedSecret(kind: .customToken, value: token))
        let providerUID = String(token.dropFirst(7))
        let key = IdentityKey(provider: .custom, providerUID: providerUID)
        if let current {
            try requireAttachable(key, to: current)
            return signInToCurrentAccount(current, identity: key, email: nil, grant: "custom")
        }
        let uid =
            liveAccount(for: key)
            ?? {
                let uid = "cu-\(providerUID)"
                store(
                    Account(
                        uid: uid,
                        identities: [IdentityRecord(provider: .custom, providerUID: providerUID, attachedAt: now())],
                        isAnonymous: false
                    ))
                return uid
            }()
        return startSession(uid: uid, provider: .custom, providerUID: providerUID, scope: nil, grant: "custom").tokens
    }

    // MARK: Signing in to the current account

    /// Throws 409 `identity_already_attached` when the identity belongs to a live account other
    /// than the current one, and 401 `invalid_token` when the current account was destroyed.
    private func requireAttachable(_ key: IdentityKey, to current: AuthenticatedSession) throws {
        guard let account = accounts[current.uid], !account.destroyed else {
            throw OAuthError.invalidToken("The account of the access token was destroyed.")
        }
        if let owner = liveAccount(for: key), owner != current.uid {
            throw OAuthError(
                status: .conflict,
                code: "identity_already_attached",
                description: "The identity belongs to another account."
            )
        }
    }

    /// Attaches the identity to the current account (unless it is already there) and starts
    /// a session of that account signed in with it. The current session stays valid.
    private func signInToCurrentAccount(
        _ current: AuthenticatedSession,
        identity key: IdentityKey,
        email: String?,
        grant: String
    ) -> TokenResponse {
        if liveAccount(for: key) == nil, var account = accounts[current.uid] {
            account.identities.append(IdentityRecord(provider: key.provider, providerUID: key.providerUID, attachedAt: now()))
            account.isAnonymous = false
            account.email = account.email ?? email
            store(account)
        }
        return startSession(uid: current.uid, provider: key.provider, providerUID: key.providerUID, scope: nil, grant: grant).tokens
    }

    /// The RFC 6749 §6 refresh, with rotation: the presented refresh token dies and a new
    /// one comes back. The session keeps its original sign-in time.
    /// Throws 400 `invalid_grant` for an unknown, rotated, revoked or expired refresh token,
    /// one whose session another client started through the token endpoint (RFC 6749 §6;
    /// the token stays valid for its own client), or one whose account was destroyed;
    /// 400 `invalid_scope` for a wider scope. A refresh token bound to a DPoP key (RFC 9449
    /// §5) needs a proof of that key (`dpopJKT`): another key or none is 400 `invalid_grant`,
    /// and the new tokens are bound to the same key.
    func refresh(refreshToken: String, scope: String?, clientID: String, dpopJKT: String? = nil) throws -> TokenResponse {
        do {
            let response = try rotate(refreshToken: refreshToken, scope: scope, clientID: clientID, dpopJKT: dpopJKT)
            counts.refreshes += 1
            return response
        } catch {
            counts.rejectedRefreshes += 1
            throw error
        }
    }

    private func rotate(refreshToken: String, scope: String?, clientID: String, dpopJKT: String?) throws -> TokenResponse {
        guard let record = refreshTokens[refreshToken] else {
            throw OAuthError.invalidGrant("The refresh token is unknown.")
        }
        guard isSession(record.sessionID, of: clientID) else {
            throw OAuthError.invalidGrant("The refresh token was issued to another client.")
        }
        switch record.status {
        case .rotated: throw OAuthError.invalidGrant("The refresh token was already used.")
        case .revoked: throw OAuthError.invalidGrant("The refresh token was revoked.")
        case .active: break
        }
        if let expiresAt = record.expiresAt, now() >= expiresAt {
            throw OAuthError.invalidGrant("The refresh token expired.")
        }
        if let bound = record.dpopJKT {
            guard let dpopJKT, ConstantTime.equals(dpopJKT, bound) else {
                throw OAuthError.invalidGrant("The refresh token is bound to another DPoP key.")
            }
        }
        guard let session = sessions[record.sessionID], let account = accounts[session.uid], !account.destroyed else {
            throw OAuthError.invalidGrant("The account was destroyed.")
        }
        if let scope {
            let granted = Set((session.scope ?? "").split(separator: " "))
            guard Set(scope.split(separator: " ")).isSubset(of: granted) else {
                throw OAuthError(status: .badRequest, code: "invalid_scope", description: "The scope exceeds the one granted.")
            }
        }
        return issueTokens(sessionID: session.id, grant: "refresh_token")
    }

    // MARK: Access tokens

    /// The session of a valid access token. Throws 401 `invalid_token` (with its RFC 6750
    /// challenge) for an unknown, expired or revoked token.
    ///
    /// `dpopJKT` is the key of the request's verified DPoP proof, nil for a bearer request:
    /// a token bound to a key (RFC 9449 §7.1) needs a proof of that key, and an unbound token
    /// is refused with a proof (it was not issued for DPoP). Both are `invalid_token`, with a
    /// `DPoP` challenge when a proof came.
    func authenticate(accessToken: String, dpopJKT: String? = nil) throws -> AuthenticatedSession {
        let refuse = { (description: String) in
            dpopJKT == nil ? OAuthError.invalidToken(description) : OAuthError.dpop(.invalidToken(description), at: .resource)
        }
        guard let record = accessTokens[accessToken], let session = sessions[record.sessionID] else {
            throw refuse("The access token is unknown.")
        }
        guard !record.revoked else { throw refuse("The access token was revoked.") }
        guard now() < record.expiresAt else { throw refuse("The access token expired.") }
        switch (record.dpopJKT, dpopJKT) {
        case (nil, nil): break
        case (.some, nil): throw refuse("The access token is bound to a DPoP key: it needs the DPoP scheme and a proof.")
        case (nil, .some): throw refuse("The access token is not bound to a DPoP key.")
        case (.some(let bound), .some(let presented)):
            guard ConstantTime.equals(bound, presented) else { throw refuse("The access token is bound to another DPoP key.") }
        }
        return AuthenticatedSession(
            sessionID: session.id,
            uid: session.uid,
            provider: session.provider,
            providerUID: session.providerUID,
            authenticatedAt: session.authenticatedAt,
            tokenExpiresAt: record.expiresAt
        )
    }

    /// Ends a session: every access token it was given and its refresh token die.
    func signOut(_ session: AuthenticatedSession) {
        revokeSession(session.sessionID)
    }

    // MARK: Helpers

    func store(_ account: Account) {
        accounts[account.uid] = account
        for identity in account.identities {
            identityIndex[IdentityKey(provider: identity.provider, providerUID: identity.providerUID)] = account.uid
        }
    }

    /// The uid of the account that holds this identity, unless it was destroyed.
    func liveAccount(for key: IdentityKey) -> String? {
        guard let uid = identityIndex[key], let account = accounts[uid], !account.destroyed else { return nil }
        return uid
    }

    func startSession(
        uid: String,
        provider: Provider,
        providerUID: String,
        scope: String?,
        grant: String,
        clientID: String? = nil,
        dpopJKT: String? = nil
    ) -> (tokens: TokenResponse, sessionID: UUID) {
        let session = Session(
            id: UUID(),
            uid: uid,
            provider: provider,
            providerUID: providerUID,
            authenticatedAt: now(),
            scope: scope,
            clientID: clientID,
            dpopJKT: dpopJKT
        )
        sessions[session.id] = session
        return (issueTokens(sessionID: session.id, grant: grant), session.id)
    }

    /// Gives the session a new access token and a new refresh token, killing the old refresh token.
    private func issueTokens(sessionID: UUID, grant: String) -> TokenResponse {
        var session = sessions[sessionID]!
        let accessToken = SecretGenerator.token()
        let refreshToken = SecretGenerator.token()
        let issuedAt = now()
        accessTokens[accessToken] = AccessTokenRecord(
            sessionID: sessionID,
            dpopJKT: session.dpopJKT,
            expiresAt: issuedAt.addingTimeInterval(accessTokenLifetime.timeInterval)
        )
        if let old = session.refreshToken {
            refreshTokens[old]?.status = .rotated
        }
        refreshTokens[refreshToken] = RefreshTokenRecord(
            sessionID: sessionID,
            dpopJKT: session.dpopJKT,
            expiresAt: configuration.refreshTokenLifetime.map { issuedAt.addingTimeInterval($0.timeInterval) },
            status: .active
        )
        session.refreshToken = refreshToken
        session.accessTokens.insert(accessToken)
        sessions[sessionID] = session
        counts.tokenGrants[grant, default: 0] += 1
        return TokenResponse(
            access_token: accessToken,
            token_type: session.dpopJKT == nil ? "Bearer" : "DPoP",
            expires_in: max(0, Int(accessTokenLifetime.timeInterval.rounded(.down))),
            refresh_token: refreshToken,
            scope: session.scope
        )
    }

    /// Revokes every access token of the session and its refresh token.
    func revokeSession(_ id: UUID) {
        guard let session = sessions[id] else { return }
        for token in session.accessTokens {
            accessTokens[token]?.revoked = true
        }
        if let refreshToken = session.refreshToken {
            refreshTokens[refreshToken]?.status = .revoked
        }
    }
}
