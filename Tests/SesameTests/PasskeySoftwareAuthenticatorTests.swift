import Foundation
@testable import Sesame
import SesameTestSupport
import Testing

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// The software authenticator (WebAuthn Level 3): what it registers parses back as the
/// specification lays it out, its assertions verify with the credential's public key, and
/// every request it must refuse is refused before anything is signed.
@Suite struct PasskeySoftwareAuthenticatorTests {
    static let rpID = "example.com"
    static let origin = "https://login.example.com"

    /// A fresh challenge of 32 random bytes, base64url.
    static func challenge() -> String {
        Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max) })
    }

    static func creation(
        user: String = "alice", rpID: String? = Self.rpID, challenge: String = Self.challenge(), algorithms: [Int] = [-7],
        residentKey: String? = "required", userVerification: String = "preferred", exclude: [String] = []
    ) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: .init(name: "Example", id: rpID),
            user: .init(id: Base64URL.encode(Data("user-\(user)".utf8)), name: user, displayName: user.capitalized),
            challenge: challenge,
            pubKeyCredParams: algorithms.map { PublicKeyCredentialParameters(alg: $0) },
            excludeCredentials: exclude.map { PublicKeyCredentialDescriptorJSON(id: $0) },
            authenticatorSelection: .init(residentKey: residentKey, userVerification: userVerification))
    }

    static func request(
        allow: [String] = [], rpID: String? = Self.rpID, challenge: String = Self.challenge(), userVerification: String = "preferred"
    ) -> PublicKeyCredentialRequestOptionsJSON {
        PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge, rpId: rpID, allowCredentials: allow.map { PublicKeyCredentialDescriptorJSON(id: $0) },
            userVerification: userVerification)
    }

    /// Counts the user-presence gestures the authenticator asked for.
    final class Gestures: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded = 0
        func record() { lock.withLock { recorded += 1 } }
        var count: Int { lock.withLock { recorded } }
    }

    static func authenticator(
        store: any PasskeyCredentialStore = InMemoryPasskeyCredentialStore(), origin: String = Self.origin, rpID: String = Self.rpID,
        verifiesUser: Bool = true, gestures: Gestures = Gestures()
    ) -> SoftwareAuthenticator {
        SoftwareAuthenticator(rpID: rpID, origin: origin, store: store, verifiesUser: verifiesUser) { gestures.record() }
    }

    static func decode(_ string: String) throws -> Data { try #require(Base64URL.decode(string)) }

    // MARK: Registration

    @Test func aRegistrationParsesBackAsTheSpecificationLaysItOut() async throws {
        let challenge = Self.challenge()
        let registration = try await Self.authenticator().register(Self.creation(challenge: challenge))
        // The JSON form survives a round trip.
        let json = try JSONEncoder().encode(registration)
        #expect(try JSONDecoder().decode(RegistrationResponseJSON.self, from: json) == registration)
        #expect(registration.id == registration.rawId)
        #expect(registration.type == "public-key")
        #expect(registration.response.publicKeyAlgorithm == -7)

        let clientData = try Self.decode(registration.response.clientDataJSON)
        #expect(
            String(decoding: clientData, as: UTF8.self)
                == #"{"type":"webauthn.create","challenge":"\#(challenge)","origin":"https://login.example.com","crossOrigin":false}"#)

        // attestationObject = {"fmt": "none", "attStmt": {}, "authData": bytes}
        let attestation = [UInt8](try Self.decode(registration.response.attestationObject))
        let prefix: [UInt8] =
            [0xA3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x67] + Array("attStmt".utf8) + [0xA0, 0x68]
            + Array("authData".utf8)
        #expect(Array(attestation.prefix(prefix.count)) == prefix)
        let rest = Array(attestation.dropFirst(prefix.count))
        #expect(rest[0] == 0x58)  // a byte string with a one-byte length
        let authData = Array(rest.dropFirst(2))
        #expect(Int(rest[1]) == authData.count)
        #expect(Data(authData) == (try Self.decode(try #require(registration.response.authenticatorData))))

        // rpIdHash ‖ flags ‖ signCount ‖ AAGUID ‖ L ‖ credentialId ‖ COSE key
        #expect(Array(authData[0..<32]) == Array(SHA256.hash(data: Data(Self.rpID.utf8))))
        #expect(authData[32] == 0x45)  // UP | UV | AT
        #expect(Array(authData[33..<37]) == [0, 0, 0, 0])
        #expect(Array(authData[37..<53]) == [UInt8](repeating: 0, count: 16))
        let idLength = Int(authData[53]) << 8 | Int(authData[54])
        let credentialID = Array(authData[55..<(55 + idLength)])
        #expect(Data(credentialID) == (try Self.decode(registration.rawId)))
        let publicKey = try P256.Signing.PublicKey(derRepresentation: try Self.decode(try #require(registration.response.publicKey)))
        let raw = [UInt8](publicKey.rawRepresentation)
        let cose: [UInt8] =
            [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + raw[0..<32] + [0x22, 0x58, 0x20] + raw[32..<64]
        #expect(Array(authData[(55 + idLength)...]) == cose)
    }

    @Test func aRegistrationSavesADiscoverableCredentialWithCounterZero() async throws {
        let store = InMemoryPasskeyCredentialStore()
        let registration = try await Self.authenticator(store: store).register(Self.creation())
        let saved = try #require(await store.all().first)
        #expect(saved.id == (try Self.decode(registration.rawId)))
        #expect(saved.rpID == Self.rpID)
        #expect(saved.userHandle == Data("user-alice".utf8))
        #expect(saved.signCount == 0)
        #expect(saved.isDiscoverable)
    }

    // MARK: Assertions

    @Test func anAssertionVerifiesWithTheRegisteredKey() async throws {
        let authenticator = Self.authenticator()
        let registration = try await authenticator.register(Self.creation())
        let challenge = Self.challenge()
        let assertion = try await authenticator.assert(Self.request(allow: [registration.rawId], challenge: challenge))
        #expect(assertion.rawId == registration.rawId)
        #expect(try JSONDecoder().decode(AuthenticationResponseJSON.self, from: JSONEncoder().encode(assertion)) == assertion)

        let clientData = try Self.decode(assertion.response.clientDataJSON)
        let object = try #require(try JSONSerialization.jsonObject(with: clientData) as? [String: Any])
        #expect(object["type"] as? String == "webauthn.get")
        #expect(object["challenge"] as? String == challenge)
        #expect(object["origin"] as? String == Self.origin)
        #expect(object["crossOrigin"] as? Bool == false)

        let authData = try Self.decode(assertion.response.authenticatorData)
        #expect(authData.count == 37)
        #expect(Array(authData.prefix(32)) == Array(SHA256.hash(data: Data(Self.rpID.utf8))))
        #expect(authData[32] == 0x05)  // UP | UV
        let publicKey = try P256.Signing.PublicKey(derRepresentation: try Self.decode(try #require(registration.response.publicKey)))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: try Self.decode(assertion.response.signature))
        let signed = authData + Data(SHA256.hash(data: clientData))
        #expect(publicKey.isValidSignature(signature, for: signed))
        var tampered = signed
        tampered[32] = 0x01
        #expect(!publicKey.isValidSignature(signature, for: tampered))
        #expect(assertion.response.userHandle == Base64URL.encode(Data("user-alice".utf8)))
    }

    @Test func theCounterMovesOnByOneAtEachAssertion() async throws {
        let store = InMemoryPasskeyCredentialStore()
        let authenticator = Self.authenticator(store: store)
        let registration = try await authenticator.register(Self.creation())
        var counts: [UInt32] = []
        for _ in 0..<3 {
            let assertion = try await authenticator.assert(Self.request(allow: [registration.rawId]))
            let authData = [UInt8](try Self.decode(assertion.response.authenticatorData))
            counts.append(authData[33..<37].reduce(0) { $0 << 8 | UInt32($1) })
        }
        #expect(counts == [1, 2, 3])
        #expect(await store.all().first?.signCount == 3)
    }

    @Test func withoutAllowedCredentialsTheLastDiscoverableOneAnswers() async throws {
        let store = InMemoryPasskeyCredentialStore()
        let authenticator = Self.authenticator(store: store)
        let alice = try await authenticator.register(Self.creation(user: "alice"))
        let bob = try await authenticator.register(Self.creation(user: "bob"))
        _ = try await authenticator.register(Self.creation(user: "carol", residentKey: "discouraged"))
        let discovered = try await authenticator.assert(Self.request())
        #expect(discovered.rawId == bob.rawId)
        #expect(discovered.response.userHandle == Base64URL.encode(Data("user-bob".utf8)))
        let named = try await authenticator.assert(Self.request(allow: [Base64URL.encode(Data("unknown".utf8)), alice.rawId]))
        #expect(named.rawId == alice.rawId)

        let onlyServerSide = Self.authenticator()
        _ = try await onlyServerSide.register(Self.creation(residentKey: "discouraged"))
        await #expect(throws: PasskeyError.noCredential(rpID: Self.rpID)) { try await onlyServerSide.assert(Self.request()) }
        await #expect(throws: PasskeyError.noCredential(rpID: Self.rpID)) {
            try await authenticator.assert(Self.request(allow: [Base64URL.encode(Data("unknown".utf8))]))
        }
    }

    @Test func credentialsOfAnotherRPIDAreNotUsed() async throws {
        let store = InMemoryPasskeyCredentialStore()
        _ = try await Self.authenticator(store: store).register(Self.creation())
        let other = Self.authenticator(store: store, origin: "https://other.test", rpID: "other.test")
        await #expect(throws: PasskeyError.noCredential(rpID: "other.test")) { try await other.assert(Self.request(rpID: "other.test")) }
    }

    // MARK: Refusals, before anything is signed

    @Test func anotherRPIDIsRefusedBeforeTheUserIsAsked() async throws {
        let store = InMemoryPasskeyCredentialStore()
        let gestures = Gestures()
        let authenticator = Self.authenticator(store: store, gestures: gestures)
        await #expect(throws: PasskeyError.rpIDMismatch(expected: Self.rpID, got: "evil.example")) {
            try await authenticator.register(Self.creation(rpID: "evil.example"))
        }
        #expect(await store.all().isEmpty)
        let registration = try await authenticator.register(Self.creation())
        #expect(gestures.count == 1)
        await #expect(throws: PasskeyError.rpIDMismatch(expected: Self.rpID, got: "evil.example")) {
            try await authenticator.assert(Self.request(allow: [registration.rawId], rpID: "evil.example"))
        }
        // Without an RP ID in the options, the origin's host is the RP ID: not the authenticator's.
        await #expect(throws: PasskeyError.rpIDMismatch(expected: Self.rpID, got: "login.example.com")) {
            try await authenticator.assert(Self.request(rpID: nil))
        }
        #expect(gestures.count == 1)
        #expect(await store.all().first?.signCount == 0)
    }

    @Test(arguments: [
        ("https://example.org", "example.com"),
        ("https://notexample.com", "example.com"),
        ("http://login.example.com", "example.com"),
        ("https://example.com", "com"),
        ("not a URL", "example.com"),
    ])
    func anOriginThatCannotClaimTheRPIDIsRefused(origin: String, rpID: String) async throws {
        let gestures = Gestures()
        let store = InMemoryPasskeyCredentialStore()
        let authenticator = Self.authenticator(store: store, origin: origin, rpID: rpID, gestures: gestures)
        await #expect(throws: PasskeyError.originMismatch(origin: origin, rpID: rpID)) {
            try await authenticator.register(Self.creation(rpID: rpID))
        }
        await #expect(throws: PasskeyError.originMismatch(origin: origin, rpID: rpID)) {
            try await authenticator.assert(Self.request(rpID: rpID))
        }
        #expect(gestures.count == 0)
        #expect(await store.all().isEmpty)
    }

    @Test func localhostOverHTTPAndTheOriginsOwnHostAreAccepted() async throws {
        _ = try await Self.authenticator(origin: "http://localhost:8080", rpID: "localhost").register(Self.creation(rpID: "localhost"))
        _ = try await Self.authenticator(origin: "https://example.com", rpID: "example.com").register(Self.creation(rpID: nil))
    }

    @Test func aChallengeIsSignedOnce() async throws {
        let authenticator = Self.authenticator()
        let challenge = Self.challenge()
        let registration = try await authenticator.register(Self.creation(challenge: challenge))
        await #expect(throws: PasskeyError.challengeReused) {
            try await authenticator.assert(Self.request(allow: [registration.rawId], challenge: challenge))
        }
        let next = Self.challenge()
        _ = try await authenticator.assert(Self.request(allow: [registration.rawId], challenge: next))
        await #expect(throws: PasskeyError.challengeReused) {
            try await authenticator.assert(Self.request(allow: [registration.rawId], challenge: next))
        }
    }

    @Test func aShortOrMalformedChallengeIsRefused() async throws {
        let authenticator = Self.authenticator()
        for challenge in [Base64URL.encode(Data(count: 15)), "not base64url!"] {
            await #expect(throws: PasskeyError.self) { try await authenticator.register(Self.creation(challenge: challenge)) }
        }
    }

    @Test func withoutES256NothingIsRegistered() async throws {
        let store = InMemoryPasskeyCredentialStore()
        await #expect(throws: PasskeyError.unsupportedAlgorithm(requested: [-257, -8])) {
            try await Self.authenticator(store: store).register(Self.creation(algorithms: [-257, -8]))
        }
        #expect(await store.all().isEmpty)
    }

    @Test func requiredUserVerificationIsRefusedByAnAuthenticatorThatDoesNotVerify() async throws {
        let authenticator = Self.authenticator(verifiesUser: false)
        await #expect(throws: PasskeyError.userVerificationUnavailable) {
            try await authenticator.register(Self.creation(userVerification: "required"))
        }
        let registration = try await authenticator.register(Self.creation())
        let flags = try Self.decode(try #require(registration.response.authenticatorData))[32]
        #expect(flags == 0x41)  // UP | AT, no UV
        await #expect(throws: PasskeyError.userVerificationUnavailable) {
            try await authenticator.assert(Self.request(userVerification: "required"))
        }
    }

    @Test func anExcludedCredentialStopsTheRegistration() async throws {
        let store = InMemoryPasskeyCredentialStore()
        let authenticator = Self.authenticator(store: store)
        let first = try await authenticator.register(Self.creation())
        await #expect(throws: PasskeyError.credentialExcluded) { try await authenticator.register(Self.creation(exclude: [first.rawId])) }
        #expect(await store.all().count == 1)
    }

    // MARK: Cancellation

    @Test func cancellingWhileTheUserIsAskedThrowsCancelledAndSavesNothing() async throws {
        let store = InMemoryPasskeyCredentialStore()
        let asked = LockedValue(false)
        let authenticator = SoftwareAuthenticator(rpID: Self.rpID, origin: Self.origin, store: store) {
            asked.set(true)
            try await Task.sleep(for: .seconds(3600))
        }
        let registration = Task { try await authenticator.register(Self.creation()) }
        #expect(await poll { asked.value })
        registration.cancel()
        await #expect(throws: PasskeyError.cancelled) { try await registration.value }
        #expect(await store.all().isEmpty)

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Self.authenticator().register(Self.creation())
        }
        await #expect(throws: PasskeyError.cancelled) { try await cancelledFirst.value }
    }

    @Test func anAssertionCancelledWhileTheUserIsAskedLeavesTheCounter() async throws {
        let store = InMemoryPasskeyCredentialStore()
        let registration = try await Self.authenticator(store: store).register(Self.creation())
        let asked = LockedValue(false)
        let authenticator = SoftwareAuthenticator(rpID: Self.rpID, origin: Self.origin, store: store) {
            asked.set(true)
            try await Task.sleep(for: .seconds(3600))
        }
        let assertion = Task { try await authenticator.assert(Self.request(allow: [registration.rawId])) }
        #expect(await poll { asked.value })
        assertion.cancel()
        await #expect(throws: PasskeyError.cancelled) { try await assertion.value }
        #expect(await store.all().first?.signCount == 0)
    }

    // MARK: Secrets

    @Test func noDescriptionShowsThePrivateKey() async throws {
        let store = InMemoryPasskeyCredentialStore()
        _ = try await Self.authenticator(store: store).register(Self.creation())
        let credential = try #require(await store.all().first)
        for secret in [credential.privateKey.base64EncodedString(), Base64URL.encode(credential.privateKey)] {
            #expect(!"\(credential)".contains(secret))
            #expect(!String(reflecting: credential).contains(secret))
            var dumped = ""
            dump(credential, to: &dumped)
            #expect(!dumped.contains(secret))
        }
    }
}
