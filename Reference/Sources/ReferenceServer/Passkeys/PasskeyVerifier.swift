#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation

/// The checks of WebAuthn Level 3 §7.1 (registration) and §7.2 (assertion) that need no
/// state: client data, authenticator data, the attestation object, the COSE key and the
/// signature. The challenge, the credential and its counter are the state's
/// (`ReferenceServerState+Passkeys`). Every failure is a 400: `invalid_request` for bytes
/// that are not what they claim, `invalid_grant` for a rule they break.
struct PasskeyVerifier: Sendable {
    let options: ReferenceServer.PasskeyOptions

    /// The client data members the checks read (§5.8.1).
    struct ClientData: Decodable, Sendable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
    }

    /// The base64url bytes of `member`. Throws 400 `invalid_request` when they are not that.
    static func bytes(_ encoded: String, member: String) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(encoded) else { throw OAuthError.invalidRequest("`\(member)` is not base64url.") }
        return bytes
    }

    /// §7.1 steps 5–7, §7.2 steps 9–11: the client data as JSON, of the ceremony's `type`.
    func clientData(_ bytes: [UInt8], type: String) throws -> ClientData {
        let clientData: ClientData
        do {
            clientData = try JSONDecoder().decode(ClientData.self, from: Data(bytes))
        } catch {
            throw OAuthError.invalidRequest("`clientDataJSON` is not the client data's JSON.")
        }
        guard clientData.type == type else { throw OAuthError.invalidGrant("The client data's type is not \(type).") }
        return clientData
    }

    /// §7.1 steps 9–10, §7.2 steps 13–14: the origin is the relying party's, not inside
    /// another's frame.
    func checkOrigin(_ clientData: ClientData) throws {
        guard clientData.origin == options.origin else {
            throw OAuthError.invalidGrant("The client data's origin is not the relying party's.")
        }
        guard clientData.crossOrigin != true else { throw OAuthError.invalidGrant("Cross-origin ceremonies are not accepted.") }
    }

    /// §7.1 steps 13–17, §7.2 steps 15–18: the RP ID hash, UP, UV when required, and BS only
    /// with BE.
    func checkAuthenticatorData(_ data: AuthenticatorDataReader) throws {
        let expected = Array(SHA256.hash(data: Data(options.rpID.utf8)))
        guard data.rpIDHash == expected else { throw OAuthError.invalidGrant("The authenticator data's rpIdHash is not the RP ID's.") }
        guard data.flags.contains(.userPresent) else { throw OAuthError.invalidGrant("The user was not present (UP).") }
        if options.requireUserVerification {
            guard data.flags.contains(.userVerified) else { throw OAuthError.invalidGrant("The user was not verified (UV).") }
        }
        if data.flags.contains(.backedUp) {
            guard data.flags.contains(.backupEligible) else {
                throw OAuthError.invalidGrant("The credential is backed up (BS) but not backup eligible (BE).")
            }
        }
    }

    /// The parts of an attestation object (§6.5): attestation `none` only (§8.7: an empty
    /// `attStmt`). Throws 400 `invalid_request` for malformed CBOR, and `invalid_grant` for
    /// another attestation format.
    static func authenticatorData(ofAttestation bytes: [UInt8]) throws -> [UInt8] {
        let object: CBORValue
        do {
            object = try CBORReader.read(bytes)
        } catch let error as CBORError {
            throw OAuthError.invalidRequest("The attestation object is malformed: \(error.description).")
        }
        guard case .text(let format)? = object[.text("fmt")], case .map(let statement)? = object[.text("attStmt")],
            case .bytes(let authenticatorData)? = object[.text("authData")]
        else { throw OAuthError.invalidRequest("The attestation object lacks fmt, attStmt or authData.") }
        guard format == "none", statement.isEmpty else { throw OAuthError.invalidGrant("Only attestation none is accepted.") }
        return authenticatorData
    }

    /// Reads authenticator data. Throws 400 `invalid_request` when it is malformed.
    static func readAuthenticatorData(_ bytes: [UInt8]) throws -> AuthenticatorDataReader {
        do {
            return try AuthenticatorDataReader(bytes)
        } catch let error as CBORError {
            throw OAuthError.invalidRequest("The authenticator data is malformed: \(error.description).")
        }
    }

    /// §7.1 step 18: the credential public key, an EC2 COSE key of ES256 on P-256
    /// (RFC 9053 §7.1.1: kty 2, alg -7, crv 1, 32-byte x and y), as its raw `x ‖ y`.
    static func publicKey(fromCOSE key: CBORValue) throws -> P256.Signing.PublicKey {
        guard key[.unsigned(1)]?.int == 2, key[.unsigned(3)]?.int == -7, key[.negative(0)]?.int == 1 else {
            throw OAuthError.invalidGrant("The credential public key is not an ES256 P-256 key.")
        }
        guard case .bytes(let x)? = key[.negative(1)], case .bytes(let y)? = key[.negative(2)], x.count == 32, y.count == 32 else {
            throw OAuthError.invalidRequest("The credential public key's coordinates are malformed.")
        }
        do {
            return try P256.Signing.PublicKey(rawRepresentation: x + y)
        } catch {
            throw OAuthError.invalidRequest("The credential public key is not a point of P-256.")
        }
    }

    /// §7.2 steps 19–20: the ES256 signature (DER) over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    static func checkSignature(_ signature: [UInt8], of authenticatorData: [UInt8], clientData: [UInt8], key: P256.Signing.PublicKey) throws
    {
        let signed = Data(authenticatorData) + Data(SHA256.hash(data: Data(clientData)))
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature), key.isValidSignature(parsed, for: signed) else {
            throw OAuthError.invalidGrant("The assertion's signature is not valid.")
        }
    }
}

/// The P-256 verification key, named for the state's use (CryptoKit's or swift-crypto's).
typealias P256PublicKey = P256.Signing.PublicKey
