import Foundation
import HTTPTypes
import ReferenceServer
import Sesame
import Testing

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// Passkeys (WebAuthn Level 3 §7.1, §7.2) over real HTTP, with the runtime's software
/// authenticator as the client. Each refusal test breaks one rule and checks the server
/// names that rule; the happy paths register, sign in and add a second passkey.
@Suite struct PasskeyTests {
    /// Expects a 400 with `code` whose description contains `rule`.
    static func expectRefused(
        _ result: HTTPResult, code: String = "invalid_grant", _ rule: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        #expect(result.status == .badRequest, "\(result.body)", sourceLocation: sourceLocation)
        #expect(try result.errorCode() == code, "\(result.body)", sourceLocation: sourceLocation)
        let description = try result.object()["error_description"] as? String ?? ""
        #expect(description.contains(rule), "\(description)", sourceLocation: sourceLocation)
    }

    /// A server with alice registered by passkey (signed in once), her authenticator and its store.
    static func withAlice(
        _ options: ReferenceServer.PasskeyOptions = Harness.passkeys,
        _ body: (Harness, SoftwareAuthenticator, InMemoryPasskeyCredentialStore) async throws -> Void
    ) async throws {
        try await Harness.runPasskeys(options) { h in
            let store = InMemoryPasskeyCredentialStore()
            let authenticator = Harness.authenticator(store: store)
            try await h.registerPasskey("alice", with: authenticator)
            try await body(h, authenticator, store)
        }
    }

    static func credential(_ store: InMemoryPasskeyCredentialStore) async throws -> PasskeyCredential {
        try #require(await store.all().last)
    }

    // MARK: Happy paths

    @Test func registerThenSignInWithTheUserNameAndWithADiscoverableCredential() async throws {
        try await Harness.runPasskeys { h in
            let authenticator = Harness.authenticator()
            let options = try await h.creationOptions(username: "carol")
            #expect(options.rp.id == "localhost")
            #expect(options.pubKeyCredParams == [.es256])
            #expect(options.attestation == "none")
            let registered = try await h.postJSON("/passkeys/register", try await authenticator.register(options))
            #expect(registered.status == .ok)
            let uid = try await h.uid(try Harness.tokens(from: registered).access)
            let me = try await h.sendAuthorized(.get, "/me", token: try Harness.tokens(from: registered).access).object()
            #expect(me["provider"] as? String == "passkey")

            let named = try await h.requestOptions(username: "carol")
            #expect(named.allowCredentials.count == 1)
            let signedIn = try await h.postJSON("/passkeys/signin", try await authenticator.assert(named))
            #expect(signedIn.status == .ok)
            #expect(try await h.uid(try Harness.tokens(from: signedIn).access) == uid)

            let discoverable = try await h.requestOptions()
            #expect(discoverable.allowCredentials.isEmpty)
            let discovered = try await h.postJSON("/passkeys/signin", try await authenticator.assert(discoverable))
            #expect(discovered.status == .ok)
            #expect(try await h.uid(try Harness.tokens(from: discovered).access) == uid)
            // The refresh token works like any other.
            #expect(try await h.refresh(try Harness.tokens(from: discovered).refresh).status == .ok)
        }
    }

    @Test func aSignedInAccountAddsASecondPasskey() async throws {
        try await Harness.runPasskeys { h in
            let password = try await h.password()
            let laptop = Harness.authenticator()
            let first = try await h.creationOptions(username: nil, token: password.access)
            #expect(first.user.name == "alice")
            #expect(first.excludeCredentials.isEmpty)
            let added = try await h.postJSON("/passkeys/register", try await laptop.register(first), token: password.access)
            #expect(added.status == .created)
            #expect(try added.object()["uid"] as? String == "pw-alice")

            let phone = Harness.authenticator()
            let second = try await h.creationOptions(username: nil, token: password.access)
            #expect(second.excludeCredentials.count == 1)
            #expect(second.user.id == first.user.id, "one user handle per account")
            #expect(try await h.postJSON("/passkeys/register", try await phone.register(second), token: password.access).status == .created)
            // The laptop holds an excluded credential: it refuses to register again.
            await #expect(throws: PasskeyError.credentialExcluded) {
                try await laptop.register(try await h.creationOptions(username: nil, token: password.access))
            }

            #expect(try await h.requestOptions(username: "alice").allowCredentials.count == 2)
            for authenticator in [laptop, phone] {
                let result = try await h.passkeySignIn(username: "alice", with: authenticator)
                #expect(try await h.uid(try Harness.tokens(from: result).access) == "pw-alice")
            }
        }
    }

    @Test func addingAPasskeyNeedsTheAccountsToken() async throws {
        try await Harness.runPasskeys { h in
            let password = try await h.password()
            let options = try await h.creationOptions(username: nil, token: password.access)
            let registration = try await Harness.authenticator().register(options)
            let result = try await h.postJSON("/passkeys/register", registration)
            #expect(result.status == .unauthorized)
        }
    }

    @Test func withoutTheConfigurationThereAreNoPasskeyRoutes() async throws {
        try await Harness.run { h in
            let result = try await h.sendJSON(.post, "/passkeys/signin/options", "{}")
            #expect(result.status == .notFound)
        }
    }

    @Test func aTakenUserNameIsRefused() async throws {
        try await Self.withAlice { h, _, _ in
            let result = try await h.sendJSON(.post, "/passkeys/register/options", #"{"username":"alice"}"#)
            #expect(result.status == .conflict)
            #expect(try result.errorCode() == "username_taken")
        }
    }

    // MARK: §7.2: one rule each

    @Test func aReplayedAssertionIsRefused() async throws {
        try await Self.withAlice { h, authenticator, _ in
            let assertion = try await authenticator.assert(try await h.requestOptions(username: "alice"))
            #expect(try await h.postJSON("/passkeys/signin", assertion).status == .ok)
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", assertion), "The challenge is unknown or was already used.")
        }
    }

    @Test func anExpiredChallengeIsRefused() async throws {
        try await Self.withAlice { h, authenticator, _ in
            let assertion = try await authenticator.assert(try await h.requestOptions(username: "alice"))
            await h.state.advanceClock(by: .seconds(301))
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", assertion), "The challenge expired.")
        }
    }

    @Test func aChallengeOfARegistrationDoesNotSignIn() async throws {
        try await Self.withAlice { h, _, store in
            let challenge = try await h.creationOptions(username: "dave").challenge
            let forged = try AssertionForger(credential: try await Self.credential(store)).assertion(challenge: challenge, signCount: 5)
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", forged), "not issued for a sign-in")
        }
    }

    @Test func aWrongClientDataTypeIsRefused() async throws {
        try await Self.withAlice { h, _, store in
            let challenge = try await h.requestOptions(username: "alice").challenge
            let forged = try AssertionForger(credential: try await Self.credential(store))
                .assertion(challenge: challenge, type: "webauthn.create", signCount: 5)
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", forged), "type is not webauthn.get")
        }
    }

    @Test func aWrongOriginIsRefused() async throws {
        try await Self.withAlice { h, _, store in
            // The same credentials, used by an authenticator that speaks for another origin.
            let elsewhere = Harness.authenticator(store: store, origin: "http://localhost:9999")
            try Self.expectRefused(try await h.passkeySignIn(username: "alice", with: elsewhere), "origin is not the relying party's")
            let registration = try await elsewhere.register(try await h.creationOptions(username: "erin"))
            try Self.expectRefused(try await h.postJSON("/passkeys/register", registration), "origin is not the relying party's")
        }
    }

    @Test func aWrongRPIDHashIsRefused() async throws {
        try await Self.withAlice { h, _, store in
            let challenge = try await h.requestOptions(username: "alice").challenge
            let forged = try AssertionForger(credential: try await Self.credential(store))
                .assertion(challenge: challenge, rpID: "evil.localhost", signCount: 5)
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", forged), "rpIdHash is not the RP ID's")
        }
    }

    @Test func anAssertionWithoutUserPresenceIsRefused() async throws {
        try await Self.withAlice { h, _, store in
            let challenge = try await h.requestOptions(username: "alice").challenge
            let forged = try AssertionForger(credential: try await Self.credential(store)).assertion(
                challenge: challenge, flags: 0x04, signCount: 5)
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", forged), "not present (UP)")
        }
    }

    @Test func withoutUserVerificationWhenRequiredTheAssertionIsRefused() async throws {
        var options = Harness.passkeys
        options.requireUserVerification = true
        try await Self.withAlice(options) { h, _, store in
            var request = try await h.requestOptions(username: "alice")
            #expect(request.userVerification == "required")
            request.userVerification = "preferred"  // what a client that cannot verify would ask for
            let unverified = Harness.authenticator(store: store, verifiesUser: false)
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", try await unverified.assert(request)), "not verified (UV)")
        }
        // The same assertion passes when verification is not required.
        try await Self.withAlice { h, _, store in
            let unverified = Harness.authenticator(store: store, verifiesUser: false)
            let result = try await h.passkeySignIn(username: "alice", with: unverified)
            #expect(result.status == .ok)
        }
    }

    @Test func aBadSignatureIsRefused() async throws {
        try await Self.withAlice { h, _, store in
            let forger = AssertionForger(credential: try await Self.credential(store))
            let challenge = try await h.requestOptions(username: "alice").challenge
            let otherKey = try forger.assertion(challenge: challenge, signCount: 5, signer: P256.Signing.PrivateKey())
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", otherKey), "signature is not valid")
            var notDER = try forger.assertion(challenge: try await h.requestOptions(username: "alice").challenge, signCount: 5)
            notDER.response.signature = Base64URLTest.encode(Data(repeating: 7, count: 64))
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", notDER), "signature is not valid")
        }
    }

    @Test func anUnknownCredentialIsRefused() async throws {
        try await Self.withAlice { h, _, _ in
            // A credential the server never registered (made with options it never sent).
            let stranger = Harness.authenticator()
            let local = PublicKeyCredentialCreationOptionsJSON(
                rp: .init(name: "local", id: "localhost"),
                user: .init(id: Base64URLTest.encode(Data("x".utf8)), name: "x", displayName: "x"),
                challenge: Base64URLTest.encode(Data(repeating: 1, count: 32)))
            _ = try await stranger.register(local)
            try Self.expectRefused(try await h.passkeySignIn(with: stranger), "The credential is unknown.")
        }
    }

    @Test func aCounterThatGoesBackIsRefusedAsACloned() async throws {
        try await Self.withAlice { h, authenticator, store in
            for _ in 0..<2 { #expect(try await h.passkeySignIn(username: "alice", with: authenticator).status == .ok) }
            let forger = AssertionForger(credential: try await Self.credential(store))
            for count: UInt32 in [1, 2, 0] {
                let forged = try forger.assertion(challenge: try await h.requestOptions(username: "alice").challenge, signCount: count)
                try Self.expectRefused(try await h.postJSON("/passkeys/signin", forged), "counter did not increase")
            }
            let next = try forger.assertion(challenge: try await h.requestOptions(username: "alice").challenge, signCount: 3)
            #expect(try await h.postJSON("/passkeys/signin", next).status == .ok)
        }
    }

    @Test func aUserHandleOfAnotherAccountIsRefused() async throws {
        try await Self.withAlice { h, _, store in
            let alice = try await Self.credential(store)
            let bobs = InMemoryPasskeyCredentialStore()
            try await h.registerPasskey("bob", with: Harness.authenticator(store: bobs))
            let bob = try await Self.credential(bobs)
            let forged = try AssertionForger(credential: alice)
                .assertion(challenge: try await h.requestOptions().challenge, signCount: 5, userHandle: bob.userHandle)
            try Self.expectRefused(try await h.postJSON("/passkeys/signin", forged), "user handle is not the credential's account's")
        }
    }

    @Test func aCredentialOfAnotherUserThanTheOptionsNamedIsRefused() async throws {
        try await Self.withAlice { h, authenticator, _ in
            try await h.registerPasskey("bob", with: Harness.authenticator())
            var options = try await h.requestOptions(username: "bob")
            options.allowCredentials = []  // alice's authenticator answers with her own credential
            try Self.expectRefused(
                try await h.postJSON("/passkeys/signin", try await authenticator.assert(options)), "not one the sign-in's options allowed")
        }
    }

    // MARK: Malformed CBOR

    enum MalformedCBOR: String, CaseIterable, Sendable {
        case truncated, tooDeep, lengthBeyondTheData, hugeCount, hugeMapCount, tooManyItems, notCBORAtAll, trailingBytes

        func bytes(valid: [UInt8]) -> [UInt8] {
            switch self {
            case .truncated: return Array(valid.prefix(valid.count / 2))
            // 20 nested one-element arrays around 0.
            case .tooDeep: return [UInt8](repeating: 0x81, count: 20) + [0x00]
            // A byte string that claims 4 GiB.
            case .lengthBeyondTheData: return [0xA1, 0x63] + Array("fmt".utf8) + [0x5A, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x02]
            // An array that claims 2^32 - 1 items.
            case .hugeCount: return [0x9A, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00]
            // A map that claims 2^64 - 1 pairs, more than an Int holds.
            case .hugeMapCount: return [0xBB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]
            // An array of 2000 zeroes: there, but more items than the reader takes.
            case .tooManyItems: return [0x99, 0x07, 0xD0] + [UInt8](repeating: 0, count: 2000)
            case .notCBORAtAll: return [0xFF, 0xFE, 0xFD]
            case .trailingBytes: return valid + [0x00]
            }
        }

        /// What the error's description says.
        var rule: String {
            switch self {
            case .truncated: return "length goes beyond the data"
            case .tooDeep: return "nested too deeply"
            case .lengthBeyondTheData: return "byte string length goes beyond the data"
            case .hugeCount: return "array count goes beyond the data"
            case .hugeMapCount: return "map count goes beyond the data"
            case .tooManyItems: return "array count exceeds the limit"
            case .notCBORAtAll: return "simple values are not accepted"
            case .trailingBytes: return "bytes follow the CBOR item"
            }
        }
    }

    @Test(arguments: MalformedCBOR.allCases)
    func aMalformedAttestationObjectIsA400(_ malformed: MalformedCBOR) async throws {
        try await Harness.runPasskeys { h in
            let authenticator = Harness.authenticator()
            var registration = try await authenticator.register(try await h.creationOptions(username: "mallory"))
            let valid = [UInt8](Base64URLTest.decode(registration.response.attestationObject))
            registration.response.attestationObject = Base64URLTest.encode(Data(malformed.bytes(valid: valid)))
            try Self.expectRefused(try await h.postJSON("/passkeys/register", registration), code: "invalid_request", malformed.rule)
            // The server still answers, and the name is still free.
            #expect(try await h.registerPasskey("mallory", with: authenticator).access.isEmpty == false)
        }
    }

    @Test func aMalformedCOSEKeyIsA400() async throws {
        try await Harness.runPasskeys { h in
            var registration = try await Harness.authenticator().register(try await h.creationOptions(username: "mallory"))
            var object = [UInt8](Base64URLTest.decode(registration.response.attestationObject))
            // The COSE key's x coordinate claims 255 bytes where 32 follow.
            let index = try #require(
                object.indices.dropLast(2).first { object[$0] == 0x21 && object[$0 + 1] == 0x58 && object[$0 + 2] == 0x20 })
            object[index + 2] = 0xFF
            registration.response.attestationObject = Base64URLTest.encode(Data(object))
            try Self.expectRefused(
                try await h.postJSON("/passkeys/register", registration), code: "invalid_request",
                "The authenticator data is malformed: a CBOR byte string length goes beyond the data")
        }
    }
}
