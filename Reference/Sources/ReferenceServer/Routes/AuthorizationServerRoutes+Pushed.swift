import Foundation
import HTTPTypes
import Hummingbird

/// Pushed authorization requests (RFC 9126): `POST /oauth/par` keeps an authorization
/// request's parameters and answers a `request_uri`, which the authorization endpoint then
/// takes with `client_id` in place of the parameters.
extension AuthorizationServerRoutes {
    /// The pushed authorization request endpoint's path.
    static let pushedPath = "/oauth/par"

    /// The answer of the pushed authorization request endpoint (RFC 9126 §2.2).
    struct PushedAuthorizationResponse: Codable, Sendable {
        var request_uri: String
        var expires_in: Int
    }

    /// `POST /oauth/par` (RFC 9126 §2.1): the client authenticates as at the token endpoint;
    /// the parameters are checked as the authorization endpoint checks them, and an error is
    /// 400 with its code (a redirect URI that is not the client's: `invalid_request`). With
    /// DPoP, a proof or `dpop_jkt` (the same key, when both come) binds the code (RFC 9449
    /// §10). 201 with `request_uri` and `expires_in`.
    func push(_ request: Request) async throws -> Response {
        let form = try await RequestDecoding.form(from: request)
        let client = try await authenticatedClient(request, form: form)
        guard form["request_uri"] == nil else {
            throw OAuthError.invalidRequest("A pushed request cannot carry `request_uri`.")
        }
        var parameters = form
        parameters["client_secret"] = nil
        parameters["client_id"] = client.id
        switch validate(parameters, issuer: nil) {
        case .failure(.page(let description)):
            throw OAuthError.invalidRequest(description)
        case .failure(.redirect(_, let error, let description)):
            throw OAuthError(status: .badRequest, code: error, description: description)
        case .success: break
        }
        let proofKey = try await DPoPRequest.proofKey(of: request, state: state, at: .authorizationServer)
        if let proofKey, let named = form["dpop_jkt"], named != proofKey {
            throw OAuthError.dpop(.invalidProof("`dpop_jkt` is not the thumbprint of the proof's key."), at: .authorizationServer)
        }
        let dpopJKT = proofKey ?? form["dpop_jkt"]
        parameters["dpop_jkt"] = nil
        let pushed = await state.push(parameters: parameters, clientID: client.id, dpopJKT: dpopJKT)
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return try Responses.json(
            PushedAuthorizationResponse(request_uri: pushed.requestURI, expires_in: pushed.expiresIn), status: .created,
            headers: headers)
    }

    /// The parameters an authorization request stands for: with `request_uri`, those its
    /// client pushed (RFC 9126 §4: the URL's others are ignored), with `request_uri` and the
    /// push's `dpop_jkt` added; without it, its own, unless the server accepts pushed requests
    /// only. `opening` is the login page's `GET`, which a pushed request allows once.
    func resolve(_ parameters: [String: String], opening: Bool) async -> Result<[String: String], AuthorizationFailure> {
        guard let requestURI = parameters["request_uri"] else {
            if configuration.pushedAuthorization.required {
                return .failure(.page("This server takes pushed authorization requests only (`request_uri`)."))
            }
            return .success(parameters)
        }
        guard let clientID = parameters["client_id"] else { return .failure(.page("`client_id` is missing.")) }
        guard let record = await state.pushedRequest(requestURI, clientID: clientID, opening: opening) else {
            return .failure(.page("The `request_uri` is unknown, expired or already used."))
        }
        var pushed = record.parameters
        pushed["request_uri"] = requestURI
        pushed["dpop_jkt"] = record.dpopJKT
        return .success(pushed)
    }
}
