import Foundation
import HTTPTypes
import ReferenceServer
import Sesame

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

extension Harness {
    /// The relying party of the passkey tests: RP ID `localhost`, origin `http://localhost:8443`.
    static let passkeys = ReferenceServer.PasskeyOptions(rpID: "localhost", origin: "http://localhost:8443")

    /// A server that serves passkeys with `options`.
    static func runPasskeys(_ options: ReferenceServer.PasskeyOptions = passkeys, _ body: (Harness) async throws -> Void) async throws {
        try await run(configure: { $0.passkeys = options }, body)
    }

    /// A software authenticator of the tests' relying party (or of `origin`), over `store`.
    static func authenticator(
        store: InMemoryPasskeyCredentialStore = InMemoryPasskeyCredentialStore(), origin: String = passkeys.origin,
        verifiesUser: Bool = true
    ) -> SoftwareAuthenticator {
        SoftwareAuthenticator(rpID: passkeys.rpID, origin: origin, store: store, verifiesUser: verifiesUser)
    }

    /// POSTs `value` as JSON to `path`, with `token` as Bearer when given.
    func postJSON(_ path: String, _ value: some Encodable, token: String? = nil) async throws -> HTTPResult {
        try await sendJSON(.post, path, String(decoding: try JSONEncoder().encode(value), as: UTF8.self), token: token)
    }

    /// The creation options the server answers, read as the runtime's type.
    func creationOptions(username: String?, token: String? = nil) async throws -> PublicKeyCredentialCreationOptionsJSON {
        let body = username.map { #"{"username":"\#($0)"}"# } ?? "{}"
        let result = try await sendJSON(.post, "/passkeys/register/options", body, token: token)
        guard result.status == .ok else { throw HarnessError.missingField("creation options: \(result.status) \(result.body)") }
        return try JSONDecoder().decode(PublicKeyCredentialCreationOptionsJSON.self, from: Data(result.body.utf8))
    }

    /// The request options the server answers, read as the runtime's type.
    func requestOptions(username: String? = nil) async throws -> PublicKeyCredentialRequestOptionsJSON {
        let body = username.map { #"{"username":"\#($0)"}"# } ?? "{}"
        let result = try await sendJSON(.post, "/passkeys/signin/options", body)
        guard result.status == .ok else { throw HarnessError.missingField("request options: \(result.status) \(result.body)") }
        return try JSONDecoder().decode(PublicKeyCredentialRequestOptionsJSON.self, from: Data(result.body.utf8))
    }

    /// Registers a new account named `username` with `authenticator`'s new passkey; the
    /// account is signed in.
    @discardableResult
    func registerPasskey(_ username: String, with authenticator: SoftwareAuthenticator) async throws -> Tokens {
        let registration = try await authenticator.register(try await creationOptions(username: username))
        return try Self.tokens(from: try await postJSON("/passkeys/register", registration))
    }

    /// Signs in with `authenticator` (as `username`, or with a discoverable credential).
    func passkeySignIn(username: String? = nil, with authenticator: SoftwareAuthenticator) async throws -> HTTPResult {
        try await postJSON("/passkeys/signin", try await authenticator.assert(try await requestOptions(username: username)))
    }
}

/// Assertions made by hand from a stored credential's key, each breaking what a test asks:
/// what a conforming authenticator never sends.
struct AssertionForger {
    let credential: PasskeyCredential

    /// An assertion over `challenge` with the given client data and authenticator data parts,
    /// signed with the credential's key (or `signer`).
    func assertion(
        challenge: String, origin: String = Harness.passkeys.origin, type: String = "webauthn.get", rpID: String = Harness.passkeys.rpID,
        flags: UInt8 = 0x05, signCount: UInt32, userHandle: Data? = nil, signer: P256.Signing.PrivateKey? = nil
    ) throws -> AuthenticationResponseJSON {
        let clientData = Data(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
        var authenticatorData = Data(SHA256.hash(data: Data(rpID.utf8)))
        authenticatorData.append(flags)
        authenticatorData.append(contentsOf: withUnsafeBytes(of: signCount.bigEndian, Array.init))
        let key = try signer ?? P256.Signing.PrivateKey(rawRepresentation: credential.privateKey)
        let signature = try key.signature(for: authenticatorData + Data(SHA256.hash(data: clientData)))
        let id = Base64URLTest.encode(credential.id)
        return AuthenticationResponseJSON(
            id: id, rawId: id,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URLTest.encode(clientData), authenticatorData: Base64URLTest.encode(authenticatorData),
                signature: Base64URLTest.encode(signature.derRepresentation),
                userHandle: Base64URLTest.encode(userHandle ?? credential.userHandle)))
    }
}
