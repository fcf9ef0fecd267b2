import Foundation

/// What the server keeps to act as an OpenID provider: its signing keys, the nonces of
/// authorization requests, and the faults the control API put on the next ID token and the
/// next UserInfo response.
struct OpenIDProviderState: Sendable {
    /// Made on first use, replaced by ``ReferenceServerState/rotateSigningKeys()``.
    var keys: OpenIDSigningKeys?
    /// The algorithm ID tokens are signed with.
    var algorithm = OpenIDSigningKeys.Algorithm.rs256
    /// Applied to the next ID token only, then cleared.
    var nextFault: IDTokenFault?
    /// Added to (or replacing) the next ID token's claims only, then cleared.
    var nextClaims: [String: JSONValue]?
    /// Applied to the next UserInfo response only, then cleared.
    var nextUserInfoFault: UserInfoFault?
    /// The `nonce` of the authorization request behind each code, then each session.
    var codeNonces: [String: String] = [:]
    var sessionNonces: [UUID: String] = [:]
}

/// One way the control API can make the next ID token bad, each breaking one rule of OpenID
/// Connect Core §3.1.3.7 (the raw values are what `POST /_control/openid/next-id-token` takes).
public enum IDTokenFault: String, Codable, Sendable, CaseIterable {
    /// Signed by the right key over other claims: the signature does not verify.
    case signature
    /// `aud` names another client.
    case audience = "aud"
    /// `iss` is not the server's issuer.
    case issuer = "iss"
    /// `exp` an hour in the past.
    case expired = "exp"
    /// `nonce` is not the authorization request's.
    case nonce
    /// `alg: none`, no signature.
    case algorithmNone = "none"
    /// Signed by a key the JWKS does not have (its `kid` is unknown).
    case unknownKey = "kid"
    /// `at_hash` is the hash of another access token.
    case accessTokenHash = "at_hash"
}

extension ReferenceServerState {
    /// How long an ID token is valid.
    static let idTokenLifetime: TimeInterval = 600

    /// The signing keys, made if there are none yet.
    /// - Throws: when the RSA key cannot be made.
    func signingKeys() throws -> OpenIDSigningKeys {
        if let keys = openID.keys { return keys }
        let keys = try OpenIDSigningKeys()
        openID.keys = keys
        return keys
    }

    /// Replaces both signing keys with new ones (new `kid`s); the JWKS then lists only the new
    /// keys, so a client holding the old set meets an unknown `kid`.
    /// - Throws: when the RSA key cannot be made; the old keys stay.
    public func rotateSigningKeys() throws {
        openID.keys = try OpenIDSigningKeys(replacing: openID.keys)
    }

    /// The key ids the JWKS lists now (RSA first).
    public func signingKeyIDs() throws -> [String] {
        let keys = try signingKeys()
        return [keys.rsaKeyID, keys.ecKeyID]
    }

    /// Makes the next ID token bad in the way `fault` says (nil: a good one).
    public func setNextIDTokenFault(_ fault: IDTokenFault?) {
        openID.nextFault = fault
    }

    /// Gives the next ID token `claims` beside (or instead of) its own, whatever their JSON
    /// type: a profile claim that changed since the last token (`name`), or one of a type a
    /// client's model does not expect. nil: the next token's claims are the server's own.
    func setNextIDTokenClaims(_ claims: [String: JSONValue]?) {
        openID.nextClaims = claims
    }

    /// Signs ID tokens with `algorithm` from now on.
    public func setIDTokenAlgorithm(_ algorithm: String) throws {
        guard let value = OpenIDSigningKeys.Algorithm(rawValue: algorithm) else {
            throw OAuthError.invalidRequest("`algorithm` must be RS256 or ES256.")
        }
        openID.algorithm = value
    }

    /// Records the `nonce` of the authorization request that `code` answers.
    func recordNonce(_ nonce: String?, forCode code: String) {
        guard let nonce else { return }
        accepted(IssuedSecret(kind: .nonce, value: nonce))
        openID.codeNonces[code] = nonce
    }

    /// Gives the session the code's tokens started the nonce of its authorization request.
    func bindNonce(ofCode code: String, to sessionID: UUID) {
        if let nonce = openID.codeNonces.removeValue(forKey: code) { openID.sessionNonces[sessionID] = nonce }
    }

    /// The JWKS document.
    func jwks() throws -> JSONValue {
        try signingKeys().jwks()
    }

    /// `tokens` with an `id_token` (OpenID Connect Core §3.1.3.3) when their session's scope
    /// contains `openid`: `iss` (`issuer`), `sub` (the account's uid), `aud` (`clientID`),
    /// `exp`, `iat`, `auth_time` (when the user signed in), `sid` (the session), `acr` (what the login page
    /// reached, when it recorded one), `at_hash`, and `nonce` when `includesNonce` (the code
    /// exchange; a refresh's ID token has none, §12.2). The claims and the fault the control
    /// API set, if any, are applied and cleared.
    /// - Throws: when the signing keys cannot be made.
    func addingIDToken(to tokens: TokenResponse, clientID: String, issuer: String, includesNonce: Bool) throws -> TokenResponse {
        guard let record = accessTokens[tokens.access_token], let session = sessions[record.sessionID],
            (session.scope ?? "").split(separator: " ").contains("openid")
        else { return tokens }
        let keys = try signingKeys()
        let fault = openID.nextFault
        openID.nextFault = nil
        let issuedAt = now().timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(fault == .issuer ? issuer + "/not-this-issuer" : issuer),
            "sub": .string(session.uid),
            "aud": .string(fault == .audience ? "another-client" : clientID),
            "iat": .number(issuedAt),
            "exp": .number(fault == .expired ? issuedAt - 3600 : issuedAt + Self.idTokenLifetime),
            "auth_time": .number(session.authenticatedAt.timeIntervalSince1970.rounded(.down)),
            // The sign-in the token belongs to (as OpenID Connect Front-Channel Logout names it),
            // which an end-session request's `id_token_hint` ends.
            "sid": .string(session.id.uuidString),
            "at_hash": .string(
                OpenIDSigningKeys.accessTokenHash(of: fault == .accessTokenHash ? SecretGenerator.token() : tokens.access_token)),
        ]
        if let acr = authenticationContexts.sessions[session.id] { claims["acr"] = .string(acr) }
        if let extra = openID.nextClaims {
            claims.merge(extra) { _, new in new }
            openID.nextClaims = nil
        }
        if fault == .nonce {
            claims["nonce"] = .string(SecretGenerator.token())
        } else if includesNonce, let nonce = openID.sessionNonces[session.id] {
            claims["nonce"] = .string(nonce)
        }
        let idToken: String
        switch fault {
        case .algorithmNone:
            idToken = try OpenIDSigningKeys.unsigned(.object(claims))
        case .unknownKey:
            let other = try OpenIDSigningKeys(replacing: signingKeys())
            idToken = try other.sign(.object(claims), algorithm: openID.algorithm, keyID: "unknown-" + SecretGenerator.uid())
        case .signature:
            // A real signature of this key, over other claims.
            var other = claims
            other["sub"] = .string(session.uid + "-other")
            let signed = try keys.sign(.object(claims), algorithm: openID.algorithm)
            let forged = try keys.sign(.object(other), algorithm: openID.algorithm)
            idToken = signed.prefix { $0 != "." } + "." + signed.split(separator: ".")[1] + "." + forged.split(separator: ".")[2]
        default:
            idToken = try keys.sign(.object(claims), algorithm: openID.algorithm)
        }
        accepted(IssuedSecret(kind: .idToken, value: idToken))
        var answered = tokens
        answered.id_token = idToken
        return answered
    }
}
