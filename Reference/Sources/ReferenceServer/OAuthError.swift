import Foundation
import HTTPTypes
import Hummingbird

/// An error the server answers with: a status, an RFC 6749 §5.2 body (`error`,
/// `error_description`) and any challenge headers. Handlers throw it; Hummingbird turns it
/// into the response.
struct OAuthError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var code: String
    var description: String?
    var headers: HTTPFields = [:]
    /// False for the RFC 6750 §3.1 "no credential" answer, which carries no body.
    var hasBody = true

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.cacheControl] = "no-store"
        headers[.pragma] = "no-cache"
        guard hasBody else {
            return Response(status: status, headers: headers, body: .init())
        }
        headers[.contentType] = "application/json; charset=utf-8"
        let body = try WireCoding.encoder().encode(ErrorBody(error: code, error_description: description))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension OAuthError {
    /// The realm every challenge names.
    static let realm = "sesame"

    /// 400 `invalid_request`: the request is malformed.
    static func invalidRequest(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "invalid_request", description: description)
    }

    /// 400 `invalid_grant` (RFC 6749 §5.2).
    static func invalidGrant(_ description: String) -> OAuthError {
        OAuthError(status: .badRequest, code: "invalid_grant", description: description)
    }

    /// 401 `invalid_client` with a Basic challenge (RFC 6749 §5.2).
    static func invalidClient(_ description: String) -> OAuthError {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = "Basic realm=\"\(realm)\""
        return OAuthError(status: .unauthorized, code: "invalid_client", description: description, headers: headers)
    }

    /// 401 with a bare Bearer challenge: the request carried no credential (RFC 6750 §3.1).
    static func missingBearer() -> OAuthError {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = "Bearer realm=\"\(realm)\""
        return OAuthError(status: .unauthorized, code: "", headers: headers, hasBody: false)
    }

    /// A Bearer challenge with an error (RFC 6750 §3): 401 `invalid_token` or 400 `invalid_request`.
    static func bearer(status: HTTPResponse.Status, code: String, description: String) -> OAuthError {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] =
            "Bearer realm=\"\(realm)\", error=\"\(code)\", error_description=\"\(description)\""
        return OAuthError(status: status, code: code, description: description, headers: headers)
    }

    /// 401 `invalid_token` with its challenge.
    static func invalidToken(_ description: String) -> OAuthError {
        bearer(status: .unauthorized, code: "invalid_token", description: description)
    }

    /// 403 `token_too_old`: the operation needs a more recent sign-in.
    static func tokenTooOld(maxAge: Int) -> OAuthError {
        OAuthError(
            status: .forbidden,
            code: "token_too_old",
            description: "This operation needs a sign-in within the last \(maxAge) seconds."
        )
    }

    /// 404 `not_found`.
    static func notFound(_ description: String) -> OAuthError {
        OAuthError(status: .notFound, code: "not_found", description: description)
    }
}
