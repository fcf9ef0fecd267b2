import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// A ``PasskeyProvider`` in software: the client and a WebAuthn authenticator in one, for
/// the origin and RP ID it is made for, with ES256 (P-256) keys kept in a
/// ``PasskeyCredentialStore``. Tests, demos and command-line tools use it where no platform
/// authenticator exists.
///
/// - Registration returns attestation `none` (§8.7): an attestation object
///   `{fmt: "none", attStmt: {}, authData}` whose authenticator data holds the new
///   credential's id and EC2 COSE key, with a zero AAGUID.
/// - Assertions sign `authenticatorData ‖ SHA-256(clientDataJSON)` (§6.3.3) with ES256 (a DER
///   signature) and move the credential's counter on by one each time.
/// - Before anything is signed, the options' RP ID must be the one the authenticator serves,
///   and its origin must be allowed to claim that RP ID (its host is the RP ID or a
///   subdomain of it; `https`, or `http` on localhost). A challenge is signed at most once
///   (the last ``rememberedChallenges`` are remembered).
/// - Flags: UP always; UV when ``verifiesUser``; AT at registration. BE and BS are never set:
///   the store's keys are not synced.
///
/// RP IDs are checked without the Public Suffix List: a single-label RP ID other than the
/// origin's own host (`com`) is refused, but a multi-label public suffix (`co.uk`) is not.
public actor SoftwareAuthenticator: PasskeyProvider {
    /// The RP ID the authenticator serves (lower-cased).
    public nonisolated let rpID: String
    /// The origin it speaks for in the client data (`https://login.example.com`).
    public nonisolated let origin: String
    /// Whether it reports the user verified (UV); true by default. With false, options that
    /// require user verification fail with ``PasskeyError/userVerificationUnavailable``.
    public nonisolated let verifiesUser: Bool
    /// How many signed challenges are remembered to refuse their reuse.
    public static let rememberedChallenges = 1024

    private let store: any PasskeyCredentialStore
    private let userPresence: @Sendable () async throws -> Void
    private var signedChallenges: Set<Data> = []
    private var challengeOrder: [Data] = []
    /// The last counter of each credential this authenticator signed with: the store's
    /// value may lag behind while a save is under way.
    private var counters: [Data: UInt32] = [:]

    /// An authenticator for `rpID` at `origin`.
    /// - Parameters:
    ///   - rpID: The relying party it serves (`example.com`): options naming another are refused.
    ///   - origin: The origin its client data names (`https://example.com`); its host must be
    ///     `rpID` or under it.
    ///   - store: Where credentials are kept; in memory by default.
    ///   - verifiesUser: Whether assertions and registrations carry UV.
    ///   - userPresence: The user's gesture, awaited once per request after the options are
    ///     checked and before anything is signed; a test can make it wait, and cancelling the
    ///     request's task then ends it with ``PasskeyError/cancelled``. Returns at once by default.
    public init(
        rpID: String,
        origin: String,
        store: any PasskeyCredentialStore = InMemoryPasskeyCredentialStore(),
        verifiesUser: Bool = true,
        userPresence: @escaping @Sendable () async throws -> Void = {}
    ) {
        self.rpID = rpID.lowercased()
        self.origin = origin
        self.store = store
        self.verifiesUser = verifiesUser
        self.userPresence = userPresence
    }

    /// Creates a discoverable (unless `residentKey` is `discouraged`) ES256 credential for
    /// `options.user` and saves it in the store with counter 0.
    /// - Throws: ``PasskeyError``: ``PasskeyError/rpIDMismatch(expected:got:)``,
    ///   ``PasskeyError/originMismatch(origin:rpID:)``, ``PasskeyError/unsupportedAlgorithm(requested:)``
    ///   when ES256 is not among `pubKeyCredParams`, ``PasskeyError/invalidOptions(reason:)``,
    ///   ``PasskeyError/userVerificationUnavailable``, ``PasskeyError/credentialExcluded``,
    ///   ``PasskeyError/challengeReused``, ``PasskeyError/cancelled``, or the store's error.
    ///   Nothing is signed or saved then.
    public func register(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON {
        try Self.checkCancellation()
        try checkRelyingParty(options.rp.id)
        let algorithms = options.pubKeyCredParams.filter { $0.type == "public-key" }.map(\.alg)
        guard options.pubKeyCredParams.isEmpty || algorithms.contains(PublicKeyCredentialParameters.es256.alg) else {
            throw PasskeyError.unsupportedAlgorithm(requested: options.pubKeyCredParams.map(\.alg))
        }
        let challenge = try Self.challenge(options.challenge)
        guard let userHandle = Base64URL.decode(options.user.id), (1...64).contains(userHandle.count) else {
            throw PasskeyError.invalidOptions(reason: "user.id is not 1 to 64 bytes of base64url")
        }
        if options.authenticatorSelection?.userVerification == "required", !verifiesUser {
            throw PasskeyError.userVerificationUnavailable
        }
        let excluded = Set(options.excludeCredentials.compactMap { Base64URL.decode($0.id) })
        if try await store.credentials(rpID: rpID).contains(where: { excluded.contains($0.id) }) {
            throw PasskeyError.credentialExcluded
        }
        try reserve(challenge)
        try await confirmPresence()

        let key = P256.Signing.PrivateKey()
        var generator = SystemRandomNumberGenerator()
        let credentialID = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let authenticatorData = AuthenticatorData(
            rpID: rpID, flags: flags, signCount: 0, attested: (credentialID, key.publicKey)
        ).bytes
        let clientData = clientDataJSON(type: "webauthn.create", challenge: challenge)
        let credential = PasskeyCredential(
            id: credentialID, rpID: rpID, userHandle: userHandle, userName: options.user.name, privateKey: key.rawRepresentation,
            signCount: 0, isDiscoverable: options.authenticatorSelection?.wantsDiscoverableCredential ?? true)
        try await store.save(credential)
        counters[credentialID] = 0
        let id = Base64URL.encode(credentialID)
        return RegistrationResponseJSON(
            id: id, rawId: id,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URL.encode(clientData),
                authenticatorData: Base64URL.encode(authenticatorData),
                transports: ["internal"],
                publicKey: Base64URL.encode(key.publicKey.derRepresentation),
                publicKeyAlgorithm: PublicKeyCredentialParameters.es256.alg,
                attestationObject: Base64URL.encode(AuthenticatorData.noneAttestationObject(authenticatorData: authenticatorData))
            ),
            authenticatorAttachment: "platform")
    }

    /// Signs `options.challenge` with the first of `allowCredentials` the store holds, or,
    /// when the list is empty, with the discoverable credential of the RP ID saved last; the
    /// credential's counter moves on by one and is saved before the assertion is returned.
    /// - Throws: ``PasskeyError``: ``PasskeyError/rpIDMismatch(expected:got:)``,
    ///   ``PasskeyError/originMismatch(origin:rpID:)``, ``PasskeyError/invalidOptions(reason:)``,
    ///   ``PasskeyError/userVerificationUnavailable``, ``PasskeyError/noCredential(rpID:)``,
    ///   ``PasskeyError/challengeReused``, ``PasskeyError/cancelled``, or the store's error.
    ///   Nothing is signed then.
    public func assert(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON {
        try Self.checkCancellation()
        try checkRelyingParty(options.rpId)
        let challenge = try Self.challenge(options.challenge)
        if options.userVerification == "required", !verifiesUser {
            throw PasskeyError.userVerificationUnavailable
        }
        var allowed: [Data] = []
        for descriptor in options.allowCredentials {
            guard let id = Base64URL.decode(descriptor.id) else {
                throw PasskeyError.invalidOptions(reason: "an allowCredentials id is not base64url")
            }
            allowed.append(id)
        }
        guard let chosen = try await credential(allowed: allowed) else { throw PasskeyError.noCredential(rpID: rpID) }
        try reserve(challenge)
        try await confirmPresence()

        // Read again after the awaits: the credential may have been removed, or used meanwhile.
        guard var credential = try await store.credentials(rpID: rpID).first(where: { $0.id == chosen.id }) else {
            throw PasskeyError.noCredential(rpID: rpID)
        }
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(rawRepresentation: credential.privateKey)
        } catch {
            throw PasskeyError.storeFailed(reason: "a stored private key is malformed")
        }
        let last = max(counters[credential.id] ?? 0, credential.signCount)
        let signCount = last == .max ? last : last + 1
        counters[credential.id] = signCount
        credential.signCount = signCount
        let authenticatorData = AuthenticatorData(rpID: rpID, flags: flags, signCount: signCount).bytes
        let clientData = clientDataJSON(type: "webauthn.get", challenge: challenge)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.signature(for: authenticatorData + Data(SHA256.hash(data: clientData)))
        } catch {
            throw PasskeyError.failed(reason: "the signature could not be made")
        }
        try await store.save(credential)
        let id = Base64URL.encode(credential.id)
        return AuthenticationResponseJSON(
            id: id, rawId: id,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URL.encode(clientData),
                authenticatorData: Base64URL.encode(authenticatorData),
                signature: Base64URL.encode(signature.derRepresentation),
                userHandle: Base64URL.encode(credential.userHandle)
            ),
            authenticatorAttachment: "platform")
    }

    // MARK: Checks

    private var flags: AuthenticatorData.Flags { verifiesUser ? [.userPresent, .userVerified] : [.userPresent] }

    /// Refuses an RP ID other than the authenticator's (`requested`; nil stands for the
    /// origin's host, WebAuthn's default), and an origin that cannot claim it.
    private func checkRelyingParty(_ requested: String?) throws {
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty
        else { throw PasskeyError.originMismatch(origin: origin, rpID: rpID) }
        let requested = requested?.lowercased() ?? host
        guard requested == rpID else { throw PasskeyError.rpIDMismatch(expected: rpID, got: requested) }
        let isLocalhost = host == "localhost" || host.hasSuffix(".localhost")
        let secure = scheme == "https" || (scheme == "http" && isLocalhost)
        let claims = host == rpID || (rpID.contains(".") && host.hasSuffix("." + rpID))
        guard secure, claims else { throw PasskeyError.originMismatch(origin: origin, rpID: rpID) }
    }

    /// The challenge's bytes: base64url, at least 16 bytes (WebAuthn §13.4.3).
    private static func challenge(_ encoded: String) throws -> Data {
        guard let challenge = Base64URL.decode(encoded), challenge.count >= 16 else {
            throw PasskeyError.invalidOptions(reason: "the challenge is not at least 16 bytes of base64url")
        }
        return challenge
    }

    /// Marks `challenge` signed, or refuses it when it already was.
    private func reserve(_ challenge: Data) throws {
        guard signedChallenges.insert(challenge).inserted else { throw PasskeyError.challengeReused }
        challengeOrder.append(challenge)
        if challengeOrder.count > Self.rememberedChallenges {
            signedChallenges.remove(challengeOrder.removeFirst())
        }
    }

    /// The stored credential that answers: the first of `allowed` held, or the last
    /// discoverable one when `allowed` is empty.
    private func credential(allowed: [Data]) async throws -> PasskeyCredential? {
        let stored = try await store.credentials(rpID: rpID)
        guard !allowed.isEmpty else { return stored.last(where: \.isDiscoverable) }
        for id in allowed {
            if let credential = stored.first(where: { $0.id == id }) { return credential }
        }
        return nil
    }

    /// Awaits the user's gesture; a cancellation before, during or after it is ``PasskeyError/cancelled``.
    private func confirmPresence() async throws {
        do {
            try await userPresence()
        } catch is CancellationError {
            throw PasskeyError.cancelled
        }
        try Self.checkCancellation()
    }

    private static func checkCancellation() throws {
        if Task.isCancelled { throw PasskeyError.cancelled }
    }

    /// `{"type":…,"challenge":…,"origin":…,"crossOrigin":false}`, in the order of
    /// WebAuthn §5.8.1.1's serialization.
    private func clientDataJSON(type: String, challenge: Data) -> Data {
        let members = [("type", type), ("challenge", Base64URL.encode(challenge)), ("origin", origin)]
        let json = members.map { "\(Self.quoted($0.0)):\(Self.quoted($0.1))" }.joined(separator: ",")
        return Data("{\(json),\"crossOrigin\":false}".utf8)
    }

    private static func quoted(_ string: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(string)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
