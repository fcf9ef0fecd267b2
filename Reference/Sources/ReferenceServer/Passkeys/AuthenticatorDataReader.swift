import Foundation

/// Authenticator data (WebAuthn Level 3 §6.1) read from its bytes, bounds-checked at every
/// step: `rpIdHash ‖ flags ‖ signCount`, then the attested credential data when AT is set.
struct AuthenticatorDataReader: Sendable {
    /// The flag bits (§6.1).
    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        static let userPresent = Flags(rawValue: 0x01)
        static let userVerified = Flags(rawValue: 0x04)
        static let backupEligible = Flags(rawValue: 0x08)
        static let backedUp = Flags(rawValue: 0x10)
        static let attestedCredentialData = Flags(rawValue: 0x40)
        static let extensionData = Flags(rawValue: 0x80)
    }

    /// The credential of a registration (§6.5.2).
    struct AttestedCredential: Sendable {
        var aaguid: [UInt8]
        var credentialID: [UInt8]
        /// The credential public key, a COSE_Key map.
        var publicKey: CBORValue
    }

    var rpIDHash: [UInt8]
    var flags: Flags
    var signCount: UInt32
    var attested: AttestedCredential?

    /// The longest credential id the server accepts (§7.1 step 25: 1023 bytes).
    static let maximumCredentialIDLength = 1023

    /// Reads `bytes`.
    /// - Throws: ``CBORError`` when they are shorter than they claim, the attested data or
    ///   extensions are malformed CBOR, or bytes follow them.
    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 37 else { throw CBORError(description: "the authenticator data is shorter than 37 bytes") }
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw CBORError(description: "the attested credential data is truncated") }
            let aaguid = Array(bytes[offset..<(offset + 16)])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length <= Self.maximumCredentialIDLength, bytes.count - offset >= length else {
                throw CBORError(description: "the credential id length goes beyond the data")
            }
            let credentialID = Array(bytes[offset..<(offset + length)])
            offset += length
            let (key, consumed) = try CBORReader.readPrefix(Array(bytes[offset...]))
            offset += consumed
            attested = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: key)
        } else {
            attested = nil
        }
        if flags.contains(.extensionData) {
            let (_, consumed) = try CBORReader.readPrefix(Array(bytes[offset...]))
            offset += consumed
        }
        guard offset == bytes.count else { throw CBORError(description: "bytes follow the authenticator data") }
    }
}
