import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// The authenticator data of WebAuthn Level 3 §6.1, as the software authenticator writes
/// it: `rpIdHash ‖ flags ‖ signCount` (big-endian), then, at registration, the attested
/// credential data (§6.5.2: AAGUID, credential id length and id, COSE key).
struct AuthenticatorData {
    /// The flag bits (§6.1).
    struct Flags: OptionSet {
        let rawValue: UInt8
        /// UP: the user was present.
        static let userPresent = Flags(rawValue: 0x01)
        /// UV: the user was verified.
        static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up (synced).
        static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up.
        static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows.
        static let attestedCredentialData = Flags(rawValue: 0x40)
    }

    var rpID: String
    var flags: Flags
    var signCount: UInt32
    /// The credential id and its public key, at registration only.
    var attested: (credentialID: Data, publicKey: P256.Signing.PublicKey)?

    /// The encoded bytes.
    var bytes: Data {
        var data = Data(SHA256.hash(data: Data(rpID.utf8)))
        data.append(attested == nil ? flags.rawValue : flags.union(.attestedCredentialData).rawValue)
        data.append(contentsOf: CBORWriter.bigEndian(UInt64(signCount), count: 4))
        if let attested {
            let (credentialID, publicKey) = attested
            // AAGUID: zeroes, as attestation `none` allows (§6.5.2).
            data.append(contentsOf: [UInt8](repeating: 0, count: 16))
            data.append(contentsOf: CBORWriter.bigEndian(UInt64(credentialID.count), count: 2))
            data.append(credentialID)
            data.append(contentsOf: Self.coseKey(publicKey))
        }
        return data
    }

    /// The EC2 COSE_Key of a P-256 public key (RFC 9053 §7.1.1), its labels in CTAP2's
    /// canonical order: kty 2, alg -7 (ES256), crv 1 (P-256), x, y.
    static func coseKey(_ key: P256.Signing.PublicKey) -> [UInt8] {
        let raw = key.rawRepresentation  // x ‖ y, 32 bytes each
        var writer = CBORWriter()
        writer.mapHeader(count: 5)
        writer.integer(1)
        writer.integer(2)
        writer.integer(3)
        writer.integer(-7)
        writer.integer(-1)
        writer.integer(1)
        writer.integer(-2)
        writer.byteString(raw.prefix(32))
        writer.integer(-3)
        writer.byteString(raw.suffix(32))
        return writer.output
    }

    /// The attestation object of attestation `none` (§8.7): `{fmt: "none", attStmt: {},
    /// authData}`, in CTAP2's canonical key order.
    static func noneAttestationObject(authenticatorData: Data) -> Data {
        var writer = CBORWriter()
        writer.mapHeader(count: 3)
        writer.text("fmt")
        writer.text("none")
        writer.text("attStmt")
        writer.mapHeader(count: 0)
        writer.text("authData")
        writer.byteString(authenticatorData)
        return Data(writer.output)
    }
}
