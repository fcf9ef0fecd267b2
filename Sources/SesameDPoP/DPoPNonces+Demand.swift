import Foundation
import HTTPTypes
@_spi(Generated) import Sesame

extension DPoPNonces {
    /// The largest body ``asksForNonce(_:body:)`` reads as JSON, in bytes; a larger body
    /// asks for nothing.
    public static let maximumErrorBodySize = 16 << 10

    /// Whether `response` asks for a proof with a (new) nonce (RFC 9449 §8, §9): a 400 whose
    /// JSON body's `error` is `use_dpop_nonce` (the authorization server's token endpoint),
    /// or a 401 with a `DPoP` challenge (the scheme in any case) whose `error` parameter is
    /// `use_dpop_nonce` (a resource server). The nonce itself is the response's `DPoP-Nonce`
    /// field, which ``update(from:of:)`` keeps.
    ///
    /// Everything else asks for nothing: another status, a body that is not a JSON object or
    /// is larger than ``maximumErrorBodySize``, the error in another scheme's challenge
    /// (`Bearer error="use_dpop_nonce"`), a malformed challenge.
    public nonisolated static func asksForNonce(_ response: HTTPResponse, body: Data?) -> Bool {
        switch response.status.code {
        case 400:
            struct ErrorBody: Decodable { var error: String? }
            guard let body, body.count <= maximumErrorBodySize,
                let decoded = try? JSONDecoder().decode(ErrorBody.self, from: body)
            else { return false }
            return decoded.error == "use_dpop_nonce"
        case 401:
            return AuthenticationChallenge.challenges(in: response.headerFields).contains {
                $0.scheme == "dpop" && $0.parameters["error"] == "use_dpop_nonce"
            }
        default:
            return false
        }
    }
}
