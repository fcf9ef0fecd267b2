import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding of every binary member of the
/// WebAuthn JSON forms (`Base64URLString`, WebAuthn Level 3 §5.1).
enum Base64URL {
    /// `data`, base64url-encoded without padding.
    static func encode(_ data: some Sequence<UInt8>) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of a base64url string, padded or not; nil when it is not one.
    static func decode(_ string: String) -> Data? {
        guard string.utf8.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 = base64.replacingOccurrences(of: "=", with: "")
        switch base64.utf8.count % 4 {
        case 1: return nil
        case 2: base64 += "=="
        case 3: base64 += "="
        default: break
        }
        return Data(base64Encoded: base64)
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=".utf8)
}
