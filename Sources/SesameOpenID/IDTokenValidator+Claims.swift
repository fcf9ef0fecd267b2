import Crypto
import Foundation
import Sesame

extension IDTokenValidator {
    /// The claim rules of OIDC Core §3.1.3.7 (2–5, 9–13: `acr` among the `acr_values` asked,
    /// `auth_time` within `max_age`), §3.2.2.9 (`at_hash`) and §12.2 (`sub` on refresh), in that
    /// order.
    /// - Throws: the ``IDTokenRejection`` of the first rule that fails.
    func check(_ payload: IDTokenPayload, alg: String, _ expected: IDTokenExpectations, now: Date) throws(IDTokenRejection) {
        guard payload.iss == issuer else { throw .issuer(expected: issuer, received: payload.iss) }
        let audience = payload.aud.value
        guard audience.contains(clientID), audience.allSatisfy({ $0 == clientID || trustedAudiences.contains($0) }) else {
            throw .audience(received: audience)
        }
        if let azp = payload.azp, azp != clientID { throw .authorizedParty(received: azp) }
        if audience.count > 1, payload.azp == nil { throw .authorizedParty(received: nil) }
        let leeway = Double(clockSkew.components.seconds) + Double(clockSkew.components.attoseconds) / 1e18
        let seconds = now.timeIntervalSince1970
        guard payload.exp + leeway > seconds else { throw .expired(at: Date(timeIntervalSince1970: payload.exp)) }
        guard payload.iat - leeway <= seconds else { throw .issuedInFuture(at: Date(timeIntervalSince1970: payload.iat)) }
        if let nonce = expected.nonce, payload.nonce != nonce { throw .nonce }
        if let atHash = payload.atHash, let accessToken = expected.accessToken {
            guard Self.accessTokenHash(accessToken, alg: alg) == atHash else { throw .accessTokenHash }
        }
        if let maxAge = expected.maxAge {
            let allowed = Double(maxAge.components.seconds) + leeway
            guard let authTime = payload.authTime, seconds - authTime <= allowed else {
                throw .authenticationTime(payload.authTime.map(Date.init(timeIntervalSince1970:)))
            }
        }
        if !expected.acrValues.isEmpty {
            guard let acr = payload.acr, expected.acrValues.contains(acr) else {
                throw .authenticationContext(requested: expected.acrValues, received: payload.acr)
            }
        }
        if let subject = expected.subject, payload.sub != subject { throw .subject }
    }

    /// `at_hash` (OIDC Core §3.1.3.6): the left half of the access token's hash with the hash
    /// function of the token's `alg`, base64url without padding.
    static func accessTokenHash(_ accessToken: String, alg: String) -> String {
        let bytes = Data(accessToken.utf8)
        let digest: [UInt8] =
            switch alg.suffix(3) {
            case "384": Array(SHA384.hash(data: bytes))
            case "512": Array(SHA512.hash(data: bytes))
            default: Array(SHA256.hash(data: bytes))
            }
        return Data(digest.prefix(digest.count / 2)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
