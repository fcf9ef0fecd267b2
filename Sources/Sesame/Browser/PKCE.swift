import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// A PKCE code verifier and its S256 challenge (RFC 7636 §4.1–4.2), and the `state` of one
/// authorization request. Internal: the verifier is a secret until the token request.
struct PKCE: Sendable, Hashable {
    /// 43 characters of the unreserved set, from 32 random bytes (RFC 7636 §4.1).
    let verifier: String
    /// `BASE64URL(SHA256(ASCII(verifier)))`, without padding (RFC 7636 §4.2).
    let challenge: String

    /// A fresh verifier from the system's secure random generator.
    init() {
        var generator = SystemRandomNumberGenerator()
        self.init(verifier: PKCE.randomToken(bytes: 32, using: &generator))
    }

    /// The challenge of a given verifier (RFC 7636 Appendix B checks it).
    init(verifier: String) {
        self.verifier = verifier
        self.challenge = PKCE.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// The code challenge method the runtime always uses.
    static let method = "S256"

    /// `bytes` random bytes, base64url-encoded without padding: a verifier, or a `state`.
    static func randomToken(bytes: Int, using generator: inout some RandomNumberGenerator) -> String {
        base64URL(Data((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension PKCE: CustomStringConvertible, CustomReflectable {
    /// `PKCE(S256, verifier: <redacted>)`.
    var description: String { "PKCE(S256, verifier: <redacted>)" }
    var customMirror: Mirror { Mirror(self, children: ["method": PKCE.method], displayStyle: .struct) }
}
