import Foundation

extension Base64URL {
    /// The bytes of an unpadded base64url string (RFC 4648 §5), as WebAuthn's JSON forms
    /// write them; nil for anything else (padding, another alphabet, a bad length).
    static func decode(_ string: String) -> [UInt8]? {
        let alphabet = Self.alphabet
        guard string.utf8.allSatisfy({ alphabet.contains($0) }), string.utf8.count % 4 != 1 else { return nil }
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
