import Foundation
import HTTPTypes

/// Where a DPoP proof was refused: the answer's shape differs (RFC 9449 §7.1, §8, §9).
enum DPoPEndpoint: Sendable {
    /// The token, PAR or revocation endpoint: 400 with the error in the JSON body.
    case authorizationServer
    /// A protected resource: 401 with a `DPoP` challenge.
    case resource
}

extension OAuthError {
    /// The answer to a refused DPoP proof or token: at the authorization server 400
    /// `invalid_dpop_proof` or `use_dpop_nonce`; at a resource 401 with
    /// `WWW-Authenticate: DPoP error="…", algs="ES256"`. The server's nonce is added by
    /// ``DPoPNonceMiddleware``.
    static func dpop(_ failure: DPoPFailure, at endpoint: DPoPEndpoint) -> OAuthError {
        let (code, description): (String, String)
        switch failure {
        case .invalidProof(let reason): (code, description) = ("invalid_dpop_proof", reason)
        case .useNonce: (code, description) = ("use_dpop_nonce", "The DPoP proof must carry the server's nonce (DPoP-Nonce).")
        case .invalidToken(let reason): (code, description) = ("invalid_token", reason)
        }
        switch endpoint {
        case .authorizationServer:
            return OAuthError(status: .badRequest, code: code, description: description)
        case .resource:
            var headers = HTTPFields()
            let algorithms = ReferenceServer.DPoPOptions.algorithms.joined(separator: " ")
            headers[.wwwAuthenticate] =
                "DPoP realm=\"\(realm)\", error=\"\(code)\", error_description=\"\(description)\", algs=\"\(algorithms)\""
            return OAuthError(status: .unauthorized, code: code, description: description, headers: headers)
        }
    }
}
