import Crypto
import Foundation

/// The key a client proves possession of (RFC 9449): one P-256 key pair, which signs DPoP
/// proofs with ES256 and whose public key a server binds tokens to by its JWK thumbprint
/// (``thumbprint``, the `jkt`).
///
/// The private key leaves the value only through ``rawRepresentation`` and
/// ``pemRepresentation``, for a ``DPoPKeyStore``: the value's `description`,
/// `debugDescription` and mirror (`dump`, string interpolation) show its thumbprint and say
/// that the private key is redacted, and no error of this module carries it.
public struct DPoPKey: Sendable {
    /// The private key (swift-crypto); never printed.
    let privateKey: P256.Signing.PrivateKey

    /// A new random key, from the system's secure random number generator.
    public init() {
        privateKey = P256.Signing.PrivateKey()
    }

    /// The key whose private scalar is `rawRepresentation` (32 bytes, big-endian), as
    /// ``rawRepresentation`` gives it.
    /// - Throws: ``DPoPKeyError/malformedRawRepresentation`` when the bytes are not a P-256
    ///   private key.
    public init(rawRepresentation: some ContiguousBytes) throws(DPoPKeyError) {
        do {
            privateKey = try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
        } catch {
            throw .malformedRawRepresentation
        }
    }

    /// The key in a PEM document: PKCS #8 (`BEGIN PRIVATE KEY`, what ``pemRepresentation``
    /// writes) or SEC 1 (`BEGIN EC PRIVATE KEY`).
    /// - Throws: ``DPoPKeyError/malformedPEM`` when the text is not a PEM P-256 private key
    ///   (a public key, another curve, a damaged document).
    public init(pemRepresentation: String) throws(DPoPKeyError) {
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: pemRepresentation)
        } catch {
            throw .malformedPEM
        }
    }

    /// The private scalar, 32 bytes: secret, for storage only.
    public var rawRepresentation: Data { privateKey.rawRepresentation }

    /// The private key as a PKCS #8 PEM document (`BEGIN PRIVATE KEY`): secret, for storage
    /// only.
    public var pemRepresentation: String { privateKey.pemRepresentation }

    /// The public key as a JWK (RFC 7517, RFC 7518 §6.2.1): `kty`, `crv`, `x` and `y`, no
    /// private member. This is what a proof's `jwk` header carries.
    public var publicJWK: DPoPPublicJWK {
        // ANSI X9.63: 0x04, then the 32-byte x, then the 32-byte y.
        let point = privateKey.publicKey.x963Representation
        return DPoPPublicJWK(
            x: point[point.startIndex + 1..<point.startIndex + 33].base64URLEncodedWithoutPadding,
            y: point[point.startIndex + 33..<point.startIndex + 65].base64URLEncodedWithoutPadding)
    }

    /// The public key's JWK SHA-256 thumbprint (RFC 7638), base64url without padding: the
    /// `jkt` a server binds tokens to (RFC 9449 §6).
    public var thumbprint: String { publicJWK.thumbprint }
}

extension DPoPKey: Equatable {
    /// Whether both are the same key (their public keys are equal, so their private keys
    /// are).
    public static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool {
        lhs.privateKey.publicKey.x963Representation == rhs.privateKey.publicKey.x963Representation
    }
}

/// Why a ``DPoPKey`` could not be loaded. It never carries the bytes it was given.
public enum DPoPKeyError: Error, Sendable, Hashable {
    /// The raw representation is not a P-256 private scalar (not 32 bytes, or out of range).
    case malformedRawRepresentation
    /// The text is not a PEM document of a P-256 private key.
    case malformedPEM
}
