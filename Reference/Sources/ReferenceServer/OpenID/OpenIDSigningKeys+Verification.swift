#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif
import CryptoExtras
import Foundation

extension OpenIDSigningKeys {
    /// The claims of `token` when it is a JWS compact serialization signed by one of these
    /// keys, named by its `kid` with the key's own algorithm (RS256 or ES256); nil for any
    /// other token (malformed, `alg: none`, an unknown or rotated-out `kid`, a signature that
    /// does not verify). Used to check an end-session request's `id_token_hint`.
    func verifiedClaims(of token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Self.decode(parts[0]), let claimsData = Self.decode(parts[1]),
            let signature = Self.decode(parts[2]),
            case .object(let header)? = try? JSONDecoder().decode(JSONValue.self, from: headerData),
            case .string(let algorithm)? = header["alg"], case .string(let keyID)? = header["kid"],
            case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: claimsData)
        else { return nil }
        let input = Data((parts[0] + "." + parts[1]).utf8)
        let verified: Bool
        switch (algorithm, keyID) {
        case ("RS256", rsaKeyID):
            verified = rsa.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: input, padding: .insecurePKCS1v1_5)
        case ("ES256", ecKeyID):
            guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return nil }
            verified = ec.publicKey.isValidSignature(ecdsa, for: input)
        default:
            verified = false
        }
        return verified ? claims : nil
    }

    /// Base64url without padding, decoded; nil when it is not.
    private static func decode(_ segment: Substring) -> Data? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text)
    }
}
