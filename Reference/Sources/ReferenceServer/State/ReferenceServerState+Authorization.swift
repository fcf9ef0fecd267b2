import Foundation

extension ReferenceServerState {
    // MARK: Authorization codes (RFC 6749 §4.1, RFC 7636)

    /// Makes a code for `username`, who signed in on the login page, bound to the client,
    /// redirect URI and S256 challenge of the authorization request. Valid for
    /// ``ReferenceServer/Configuration/authorizationCodeLifetime``, single use.
    func issueAuthorizationCode(
        clientID: String,
        redirectURI: String,
        codeChallenge: String,
        username: String,
        scope: String?,
        dpopJKT: String? = nil
    ) -> String {
        let code = SecretGenerator.token()
        authorizationCodes[code] = AuthorizationCodeRecord(
            clientID: clientID,
            redirectURI: redirectURI,
            codeChallenge: codeChallenge,
            username: username,
            scope: scope,
            expiresAt: now().addingTimeInterval(configuration.authorizationCodeLifetime.timeInterval),
            dpopJKT: dpopJKT
        )
        return code
    }

    /// The `authorization_code` grant (RFC 6749 §4.1.3) with its PKCE check (RFC 7636 §4.6).
    ///
    /// Any request of the code's own client uses the code up, whether it succeeds or not.
    /// Throws 400 `invalid_grant` for an unknown code, a code of another client, a code used
    /// before (and then revokes the session its tokens started, RFC 6749 §4.1.2), an expired
    /// code, a redirect URI other than the authorization request's, and a verifier that is
    /// malformed or does not hash to the challenge, and a code bound to a DPoP key (RFC 9449
    /// §10) redeemed without a proof of that key (`dpopJKT`, which the tokens are bound to).
    func redeemAuthorizationCode(
        _ code: String, clientID: String, redirectURI: String, verifier: String, dpopJKT: String? = nil
    ) throws -> TokenResponse {
        guard var record = authorizationCodes[code] else {
            throw OAuthError.invalidGrant("The authorization code is unknown.")
        }
        guard record.clientID == clientID else {
            throw OAuthError.invalidGrant("The authorization code was issued to another client.")
        }
        guard !record.redeemed else {
            if let sessionID = record.sessionID { revokeSession(sessionID) }
            throw OAuthError.invalidGrant("The authorization code was already used; the tokens issued for it are revoked.")
        }
        record.redeemed = true
        authorizationCodes[code] = record
        guard now() < record.expiresAt else {
            throw OAuthError.invalidGrant("The authorization code expired.")
        }
        guard record.redirectURI == redirectURI else {
            throw OAuthError.invalidGrant("`redirect_uri` differs from the authorization request's.")
        }
        guard PKCE.isWellFormedVerifier(verifier) else {
            throw OAuthError.invalidGrant("`code_verifier` is not 43 to 128 unreserved characters.")
        }
        guard PKCE.verifier(verifier, matches: record.codeChallenge) else {
            throw OAuthError.invalidGrant("`code_verifier` does not match the code challenge.")
        }
        if let bound = record.dpopJKT {
            guard let dpopJKT, ConstantTime.equals(bound, dpopJKT) else {
                throw OAuthError.invalidGrant("The authorization code is bound to another DPoP key.")
            }
        }
        accepted(IssuedSecret(kind: .codeVerifier, value: verifier))
        let started = startSession(
            uid: passwordAccount(username: record.username),
            provider: .password,
            providerUID: record.username,
            scope: record.scope ?? "profile",
            grant: "authorization_code",
            clientID: clientID,
            dpopJKT: dpopJKT
        )
        record.sessionID = started.sessionID
        authorizationCodes[code] = record
        bindAuthenticationContext(ofCode: code, to: started.sessionID)
        bindNonce(ofCode: code, to: started.sessionID)
        return started.tokens
    }

    // MARK: Consent

    /// Makes the login page deny consent (`access_denied`) however the user answers, or
    /// stops it doing so.
    public func setDenyConsent(_ deny: Bool) {
        deniesConsent = deny
    }

    /// Whether the login page denies consent; see ``setDenyConsent(_:)``.
    public func isDenyingConsent() -> Bool {
        deniesConsent
    }

    /// Sets the authorization server's issuer identifier (RFC 8414 §2): `start()` sets its
    /// origin, `http://host:port`, once it listens.
    public func setIssuer(_ issuer: String) {
        self.issuer = issuer
    }

    /// The authorization server's issuer; nil before it listens (the redirects then name
    /// the `Host` the request reached).
    public func currentIssuer() -> String? {
        issuer
    }

    /// Sets what the authorization endpoint's redirects carry in `iss` (RFC 9207).
    public func setIssuerMode(_ mode: IssuerMode) {
        issuerMode = mode
    }

    /// What the authorization endpoint's redirects carry in `iss`; see ``setIssuerMode(_:)``.
    public func currentIssuerMode() -> IssuerMode {
        issuerMode
    }

    // MARK: Revocation (RFC 7009)

    /// Revokes `token` for `clientID`. A refresh token ends its session: it and every access
    /// token issued with it stop working. An access token stops working alone. An unknown
    /// token is not an error (RFC 7009 §2.2). `hint` (`refresh_token`, `access_token`)
    /// only orders the search. Throws 400 `unauthorized_client` when the token's session was
    /// started by another client through the token endpoint (RFC 7009 §2.1).
    func revoke(token: String, hint: String?, clientID: String) throws {
        let found =
            hint == "access_token"
            ? try revokeAccessToken(token, clientID: clientID) || revokeRefreshToken(token, clientID: clientID)
            : try revokeRefreshToken(token, clientID: clientID) || revokeAccessToken(token, clientID: clientID)
        if found { counts.revocations += 1 }
    }

    /// The `cnf.jkt` of the DPoP key `token` (a refresh or an access token) is bound to; nil
    /// for an unbound or unknown token.
    func boundKey(of token: String) -> String? {
        refreshTokens[token]?.dpopJKT ?? accessTokens[token]?.dpopJKT
    }

    private func revokeRefreshToken(_ token: String, clientID: String) throws -> Bool {
        guard let record = refreshTokens[token] else { return false }
        try requireClient(clientID, of: record.sessionID)
        revokeSession(record.sessionID)
        return true
    }

    private func revokeAccessToken(_ token: String, clientID: String) throws -> Bool {
        guard let record = accessTokens[token] else { return false }
        try requireClient(clientID, of: record.sessionID)
        accessTokens[token]?.revoked = true
        return true
    }

    private func requireClient(_ clientID: String, of sessionID: UUID) throws {
        guard isSession(sessionID, of: clientID) else {
            throw OAuthError(status: .badRequest, code: "unauthorized_client", description: "The token was issued to another client.")
        }
    }

    /// False when the session was started by another client through the token endpoint.
    /// Sessions of the `/auth/*` methods belong to no client, and so to every client.
    func isSession(_ sessionID: UUID, of clientID: String) -> Bool {
        guard let owner = sessions[sessionID]?.clientID else { return true }
        return owner == clientID
    }
}
