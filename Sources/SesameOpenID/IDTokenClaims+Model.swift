import Foundation
import JWTKit
import Sesame

extension IDTokenClaims {
    /// The claims of `idToken` decoded into `Claims`, the model the schema's `openID.claims`
    /// names. The token is one the session keeps: it was validated (signature and every rule)
    /// when it was received, so its payload is read with jwt-kit's parser and not verified
    /// again — at a restore an ID token is usually past its `exp`, which a new validation would
    /// refuse, although nothing about the user changed.
    /// - Throws: ``IDTokenClaimsMismatch`` when the payload does not decode into `Claims`.
    @_spi(Generated) public static func decode<Claims: Decodable & Sendable>(
        _ type: Claims.Type, fromValidated idToken: String
    ) throws(IDTokenClaimsMismatch) -> Claims {
        let decoded: Result<Claims, any Error>
        do {
            decoded = try DefaultJWTParser().parse(Array(idToken.utf8), as: ModelPayload<Claims>.self).payload.claims
        } catch {
            // Its structure, not the model: the model's own errors are in the payload's result.
            throw IDTokenClaimsMismatch(reason: "the ID token is not a JWT whose payload is a JSON object")
        }
        switch decoded {
        case .success(let claims):
            return claims
        case .failure(let error as DecodingError):
            throw IDTokenClaimsMismatch(reason: Self.reason(error))
        case .failure(let violation as SchemaViolation):
            // A generated model's own check (a pattern, a bound, a format): its path and keyword,
            // not its message, which may quote the claim's value.
            throw IDTokenClaimsMismatch(reason: "\(violation.path): \(violation.keyword)")
        case .failure:
            throw IDTokenClaimsMismatch(reason: "the claims did not decode")
        }
    }

    /// `$.path: what`, without the value that did not fit.
    private static func reason(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            "$" + codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): required claim is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            // Not the decoder's description: it may quote the value.
            return "\(path(context.codingPath)): the value does not decode"
        @unknown default:
            return "the claims did not decode"
        }
    }
}

/// The payload as the model decodes it; its rules were checked when the token was received.
/// jwt-kit turns a payload's decoding error into a `malformedToken` whose reason may quote the
/// payload: the model's error is kept here instead, so that the mismatch names only its path.
private struct ModelPayload<Claims: Decodable & Sendable>: JWTPayload {
    var claims: Result<Claims, any Error>
    init(from decoder: any Decoder) throws {
        // A payload that is not a JSON object is the token's structure, refused by the parser.
        _ = try decoder.container(keyedBy: AnyKey.self)
        claims = Result { try Claims(from: decoder) }
    }
    func encode(to encoder: any Encoder) throws {}
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
