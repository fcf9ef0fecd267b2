import Foundation

/// Makes the random strings the server hands out, from the system's secure generator.
enum SecretGenerator {
    /// An opaque token: 32 random bytes, base64url without padding (43 characters).
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    /// A one-time code of six decimal digits.
    static func code() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = Int.random(in: 0..<1_000_000, using: &generator)
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// A user identifier: 20 lowercase letters and digits.
    static func uid() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<20).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
