#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import Foundation

/// Proof Key for Code Exchange (RFC 7636), the S256 method only.
enum PKCE {
    /// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))` (RFC 7636 §4.2), without padding.
    /// SHA-256 is CryptoKit's on Apple platforms and swift-crypto's (the same API) elsewhere.
    static func s256Challenge(of verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// True when `verifier` is 43 to 128 characters of `[A-Za-z0-9-._~]` (RFC 7636 §4.1).
    static func isWellFormedVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count) && verifier.utf8.allSatisfy(isUnreserved)
    }

    /// True when `challenge` can be an S256 challenge: 43 base64url characters, the length
    /// of an unpadded 32-byte hash.
    static func isWellFormedS256Challenge(_ challenge: String) -> Bool {
        challenge.utf8.count == 43
            && challenge.utf8.allSatisfy { isUnreserved($0) && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "~") }
    }

    /// True when `verifier` hashes to `challenge`, compared in constant time.
    static func verifier(_ verifier: String, matches challenge: String) -> Bool {
        ConstantTime.equals(s256Challenge(of: verifier), challenge)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}

/// Base64url without padding (RFC 4648 §5, as RFC 7636 Appendix A uses it).
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Comparison of secrets whose time does not depend on where they differ.
enum ConstantTime {
    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
