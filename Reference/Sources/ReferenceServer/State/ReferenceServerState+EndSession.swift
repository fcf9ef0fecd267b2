import Foundation

extension ReferenceServerState {
    /// An end-session request (OpenID Connect RP-Initiated Logout 1.0 §2) that was accepted:
    /// where to send the browser, if anywhere.
    struct EndedSession: Sendable {
        /// `post_logout_redirect_uri`, checked against the client's registered ones; nil when
        /// the request named none (the server then shows a "signed out" page).
        var redirectURI: String?
        /// The request's `state`, passed back unchanged.
        var state: String?
    }

    /// Ends the sign-in `idTokenHint` belongs to: its session's refresh token and access tokens
    /// stop working, and ``ReferenceServerCounters/endedSessions`` counts it.
    ///
    /// The hint must be an ID token this server signed with a key it still has (the JWKS's),
    /// with the server's `issuer` and a `sid`; an expired one is accepted (§2: the user may
    /// sign out long after it was issued). Its `aud` must be a known client, the same as
    /// `clientID` when the request names one, and `postLogoutRedirectURI`, when given, one of
    /// that client's ``ReferenceServer/Client/postLogoutRedirectURIs`` (exact string).
    /// - Throws: ``OAuthError`` 400 `invalid_request` naming the rule that failed; nothing ends.
    func endSession(
        idTokenHint: String?, clientID: String?, postLogoutRedirectURI: String?, state: String?, issuer: String,
        clients: [ReferenceServer.Client]
    ) throws -> EndedSession {
        guard let idTokenHint else { throw OAuthError.invalidRequest("`id_token_hint` is missing.") }
        guard let claims = try signingKeys().verifiedClaims(of: idTokenHint) else {
            throw OAuthError.invalidRequest("`id_token_hint` is not an ID token signed by this provider's keys.")
        }
        guard case .string(issuer)? = claims["iss"] else {
            throw OAuthError.invalidRequest("`id_token_hint` was issued by another issuer.")
        }
        guard case .string(let audience)? = claims["aud"], let client = clients.first(where: { $0.id == audience }) else {
            throw OAuthError.invalidRequest("`id_token_hint` was issued to an unknown client.")
        }
        if let clientID, clientID != audience {
            throw OAuthError.invalidRequest("`id_token_hint` was issued to another client than `client_id`.")
        }
        if let postLogoutRedirectURI, !client.postLogoutRedirectURIs.contains(postLogoutRedirectURI) {
            throw OAuthError.invalidRequest("`post_logout_redirect_uri` is not registered for this client.")
        }
        guard case .string(let sid)? = claims["sid"], let sessionID = UUID(uuidString: sid), sessions[sessionID] != nil else {
            throw OAuthError.invalidRequest("`id_token_hint` names no sign-in of this provider.")
        }
        revokeSession(sessionID)
        counts.endedSessions += 1
        logger.info("end-session: the sign-in of an ID token hint was ended", metadata: ["client": "\(audience)"])
        return EndedSession(redirectURI: postLogoutRedirectURI, state: state)
    }
}
