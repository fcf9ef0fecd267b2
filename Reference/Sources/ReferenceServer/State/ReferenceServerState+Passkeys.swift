import Foundation

/// The relying party's memory: the challenges it handed out and the credentials it registered.
struct PasskeyServerState: Sendable {
    /// What a challenge was issued for.
    enum Ceremony: Sendable {
        /// A registration for `uid` (an account signed in), or for a new account named `username`.
        case registration(uid: String?, username: String, displayName: String, userHandle: [UInt8])
        /// A sign-in: of `uid` with one of `allowed`, or (nil, none) of any discoverable credential.
        case authentication(uid: String?, allowed: [[UInt8]])
    }

    struct PendingChallenge: Sendable {
        var ceremony: Ceremony
        var expiresAt: Date
    }

    struct Credential: Sendable {
        var uid: String
        /// The P-256 public key, raw `x ‖ y`.
        var publicKey: Data
        var signCount: UInt32
    }

    /// Pending challenges by their base64url form, each used at most once.
    var challenges: [String: PendingChallenge] = [:]
    /// Registered credentials by id.
    var credentials: [[UInt8]: Credential] = [:]
    /// The user handle of each account that has passkeys.
    var userHandles: [String: [UInt8]] = [:]
    /// The accounts made by a passkey registration, by user name.
    var usernames: [String: String] = [:]
}

extension ReferenceServerState {
    // MARK: Options

    /// The options of a registration: for the account of `accessToken` (a passkey added to
    /// it), or for a new account named `username`. Throws 401 `invalid_token` for a dead
    /// token, 400 `invalid_request` without a user name, and 409 `username_taken` when a
    /// passkey account has it.
    func passkeyCreationOptions(
        _ options: ReferenceServer.PasskeyOptions, username: String?, displayName: String?, accessToken: String?
    ) throws -> PasskeyCreationOptions {
        let uid: String?
        let name: String
        if let accessToken {
            let session = try authenticate(accessToken: accessToken)
            uid = session.uid
            name = username ?? session.providerUID
        } else {
            guard let username, !username.isEmpty, username.utf8.count <= 64 else {
                throw OAuthError.invalidRequest("`username` must be 1 to 64 bytes.")
            }
            guard passkeys.usernames[username] == nil else {
                throw OAuthError(status: .conflict, code: "username_taken", description: "A passkey account has this user name.")
            }
            uid = nil
            name = username
        }
        let userHandle = uid.flatMap { passkeys.userHandles[$0] } ?? Self.randomBytes(32)
        let excluded =
            uid.map { uid in passkeys.credentials.filter { $0.value.uid == uid }.map(\.key).sorted { $0.lexicographicallyPrecedes($1) } }
            ?? []
        let challenge = issuePasskeyChallenge(
            .registration(uid: uid, username: name, displayName: displayName ?? name, userHandle: userHandle), options: options)
        return PasskeyCreationOptions(
            rp: .init(name: options.rpName, id: options.rpID),
            user: .init(id: Base64URL.encode(Data(userHandle)), name: name, displayName: displayName ?? name),
            challenge: challenge,
            pubKeyCredParams: [.init(alg: -7)],
            timeout: Self.milliseconds(options.challengeLifetime),
            excludeCredentials: excluded.map { PasskeyDescriptor(id: Base64URL.encode(Data($0))) },
            authenticatorSelection: .init(
                residentKey: "required", requireResidentKey: true,
                userVerification: options.requireUserVerification ? "required" : "preferred"),
            attestation: "none")
    }

    /// The options of a sign-in: with `username`, its account's credentials in
    /// `allowCredentials`; without, none (a discoverable credential answers). Throws 404
    /// `not_found` when the user has no passkey.
    func passkeyRequestOptions(_ options: ReferenceServer.PasskeyOptions, username: String?) throws -> PasskeyRequestOptions {
        var uid: String?
        var allowed: [[UInt8]] = []
        if let username {
            let account =
                passkeys.usernames[username].flatMap { liveUID($0) }
                ?? liveAccount(for: IdentityKey(provider: .password, providerUID: username))
            allowed = account.map { uid in passkeys.credentials.filter { $0.value.uid == uid }.map(\.key) } ?? []
            allowed.sort { $0.lexicographicallyPrecedes($1) }
            guard let account, !allowed.isEmpty else { throw OAuthError.notFound("The user has no passkey.") }
            uid = account
        }
        let challenge = issuePasskeyChallenge(.authentication(uid: uid, allowed: allowed), options: options)
        return PasskeyRequestOptions(
            challenge: challenge, timeout: Self.milliseconds(options.challengeLifetime), rpId: options.rpID,
            allowCredentials: allowed.map { PasskeyDescriptor(id: Base64URL.encode(Data($0))) },
            userVerification: options.requireUserVerification ? "required" : "preferred")
    }

    // MARK: Ceremonies

    /// Verifies a registration (WebAuthn §7.1) and keeps its credential: a new account signed
    /// in (the token response), or a passkey added to the account of `accessToken` (then nil).
    /// Throws 400 `invalid_request` for malformed input and `invalid_grant` for a rule it
    /// breaks (see ``PasskeyVerifier``); the challenge is used up either way.
    func registerPasskey(
        _ body: PasskeyRegistrationBody, options: ReferenceServer.PasskeyOptions, accessToken: String?
    ) throws -> (tokens: TokenResponse?, registered: PasskeyRegistered) {
        let verifier = PasskeyVerifier(options: options)
        guard body.type == "public-key" else { throw OAuthError.invalidRequest("`type` is not public-key.") }
        let rawID = try PasskeyVerifier.bytes(body.rawId, member: "rawId")
        guard body.id == body.rawId else { throw OAuthError.invalidRequest("`id` is not `rawId`.") }
        let clientDataBytes = try PasskeyVerifier.bytes(body.response.clientDataJSON, member: "response.clientDataJSON")
        let clientData = try verifier.clientData(clientDataBytes, type: "webauthn.create")
        guard case .registration(let uid, let username, let displayName, let userHandle) = try consumePasskeyChallenge(clientData.challenge)
        else { throw OAuthError.invalidGrant("The challenge was not issued for a registration.") }
        try verifier.checkOrigin(clientData)
        let attestation = try PasskeyVerifier.bytes(body.response.attestationObject, member: "response.attestationObject")
        let authenticatorData = try PasskeyVerifier.readAuthenticatorData(try PasskeyVerifier.authenticatorData(ofAttestation: attestation))
        try verifier.checkAuthenticatorData(authenticatorData)
        guard let attested = authenticatorData.attested else {
            throw OAuthError.invalidRequest("The authenticator data has no attested credential data (AT).")
        }
        guard attested.credentialID == rawID else { throw OAuthError.invalidRequest("`rawId` is not the attested credential id.") }
        let publicKey = try PasskeyVerifier.publicKey(fromCOSE: attested.publicKey)
        guard passkeys.credentials[rawID] == nil else { throw OAuthError.invalidGrant("The credential is already registered.") }

        let account: String
        if let uid {
            guard let accessToken, (try? authenticate(accessToken: accessToken))?.uid == uid else {
                throw OAuthError.invalidToken("Adding a passkey needs the access token of the account it is for.")
            }
            account = uid
        } else {
            guard passkeys.usernames[username] == nil else {
                throw OAuthError(status: .conflict, code: "username_taken", description: "A passkey account has this user name.")
            }
            account = "pk-" + SecretGenerator.uid()
            passkeys.usernames[username] = account
            let handle = Base64URL.encode(Data(userHandle))
            store(
                Account(
                    uid: account, identities: [IdentityRecord(provider: .passkey, providerUID: handle, attachedAt: now())],
                    displayName: displayName, isAnonymous: false))
        }
        if passkeys.userHandles[account] == nil {
            passkeys.userHandles[account] = userHandle
            if var record = accounts[account], !record.identities.contains(where: { $0.provider == .passkey }) {
                record.identities.append(
                    IdentityRecord(provider: .passkey, providerUID: Base64URL.encode(Data(userHandle)), attachedAt: now()))
                record.isAnonymous = false
                store(record)
            }
        }
        passkeys.credentials[rawID] = .init(uid: account, publicKey: publicKey.rawRepresentation, signCount: authenticatorData.signCount)
        let registered = PasskeyRegistered(credentialId: body.rawId, uid: account)
        guard uid == nil else { return (nil, registered) }
        return (passkeySession(uid: account), registered)
    }

    /// Verifies an assertion (WebAuthn §7.2) and signs its credential's account in. Throws
    /// 400 `invalid_request` for malformed input and `invalid_grant` for a rule it breaks:
    /// an unknown, used or expired challenge, another ceremony's type, origin or RP ID, no
    /// UP (or no UV when required), an unknown credential or one the options did not allow,
    /// a user handle of another account, a bad signature, or a counter that did not
    /// increase (a cloned authenticator).
    func signInWithPasskey(_ body: PasskeyAuthenticationBody, options: ReferenceServer.PasskeyOptions) throws -> TokenResponse {
        let verifier = PasskeyVerifier(options: options)
        guard body.type == "public-key" else { throw OAuthError.invalidRequest("`type` is not public-key.") }
        let rawID = try PasskeyVerifier.bytes(body.rawId, member: "rawId")
        guard body.id == body.rawId else { throw OAuthError.invalidRequest("`id` is not `rawId`.") }
        let clientDataBytes = try PasskeyVerifier.bytes(body.response.clientDataJSON, member: "response.clientDataJSON")
        let authenticatorDataBytes = try PasskeyVerifier.bytes(body.response.authenticatorData, member: "response.authenticatorData")
        let signature = try PasskeyVerifier.bytes(body.response.signature, member: "response.signature")
        let userHandle = try body.response.userHandle.map { try PasskeyVerifier.bytes($0, member: "response.userHandle") }
        let clientData = try verifier.clientData(clientDataBytes, type: "webauthn.get")
        guard case .authentication(let expectedUID, let allowed) = try consumePasskeyChallenge(clientData.challenge) else {
            throw OAuthError.invalidGrant("The challenge was not issued for a sign-in.")
        }
        // §7.2 steps 5–6: the credential, and the account it is bound to.
        guard var credential = passkeys.credentials[rawID], liveUID(credential.uid) != nil else {
            throw OAuthError.invalidGrant("The credential is unknown.")
        }
        if let expectedUID {
            guard credential.uid == expectedUID, allowed.contains(rawID) else {
                throw OAuthError.invalidGrant("The credential is not one the sign-in's options allowed.")
            }
        }
        if let userHandle {
            guard passkeys.userHandles[credential.uid] == userHandle else {
                throw OAuthError.invalidGrant("The user handle is not the credential's account's.")
            }
        } else if expectedUID == nil {
            throw OAuthError.invalidGrant("A sign-in with a discoverable credential needs its user handle.")
        }
        try verifier.checkOrigin(clientData)
        let authenticatorData = try PasskeyVerifier.readAuthenticatorData(authenticatorDataBytes)
        try verifier.checkAuthenticatorData(authenticatorData)
        let key: P256PublicKey
        do {
            key = try P256PublicKey(rawRepresentation: credential.publicKey)
        } catch {
            throw OAuthError.invalidGrant("The credential's key is unusable.")
        }
        try PasskeyVerifier.checkSignature(signature, of: authenticatorDataBytes, clientData: clientDataBytes, key: key)
        // §7.2 step 22: a counter that does not move on is a cloned authenticator's.
        if authenticatorData.signCount != 0 || credential.signCount != 0 {
            guard authenticatorData.signCount > credential.signCount else {
                throw OAuthError.invalidGrant("The signature counter did not increase: the authenticator may be cloned.")
            }
        }
        credential.signCount = authenticatorData.signCount
        passkeys.credentials[rawID] = credential
        return passkeySession(uid: credential.uid)
    }

    // MARK: Helpers

    private func passkeySession(uid: String) -> TokenResponse {
        let handle = passkeys.userHandles[uid].map { Base64URL.encode(Data($0)) } ?? uid
        return startSession(uid: uid, provider: .passkey, providerUID: handle, scope: nil, grant: "passkey").tokens
    }

    /// A fresh challenge (32 random bytes, base64url) for `ceremony`; expired ones are forgotten.
    private func issuePasskeyChallenge(_ ceremony: PasskeyServerState.Ceremony, options: ReferenceServer.PasskeyOptions) -> String {
        let current = now()
        passkeys.challenges = passkeys.challenges.filter { $0.value.expiresAt > current }
        let challenge = Base64URL.encode(Data(Self.randomBytes(32)))
        passkeys.challenges[challenge] = .init(
            ceremony: ceremony, expiresAt: current.addingTimeInterval(options.challengeLifetime.timeInterval))
        return challenge
    }

    /// §7.1 step 8, §7.2 step 12: the ceremony of a challenge this server issued, used up
    /// now. Throws 400 `invalid_grant` for an unknown (or already used) or expired one.
    private func consumePasskeyChallenge(_ challenge: String) throws -> PasskeyServerState.Ceremony {
        guard let pending = passkeys.challenges.removeValue(forKey: challenge) else {
            throw OAuthError.invalidGrant("The challenge is unknown or was already used.")
        }
        guard now() < pending.expiresAt else { throw OAuthError.invalidGrant("The challenge expired.") }
        return pending.ceremony
    }

    private func liveUID(_ uid: String) -> String? {
        guard let account = accounts[uid], !account.destroyed else { return nil }
        return uid
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int.max : Int(clamping: product) + Int(attoseconds / 1_000_000_000_000_000)
    }
}
