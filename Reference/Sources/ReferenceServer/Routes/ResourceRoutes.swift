import Foundation
import Hummingbird

/// The operations of auth.yaml. All but `GET /status` need a Bearer access token.
struct ResourceRoutes {
    let state: ReferenceServerState

    func register(on router: Router<ServerRequestContext>) {
        router.get("/status") { _, _ in
            try Responses.json(ServerStatus(status: "ok", version: "1.0", uptimeSeconds: await state.uptimeSeconds()))
        }
        router.get("/me") { request, _ in
            let session = try await authenticate(request)
            return try Responses.json(await state.details(of: session))
        }
        router.post("/auth/logout") { request, _ in
            let session = try await authenticate(request)
            await state.signOut(session)
            return Responses.noContent()
        }
        router.get("/identities") { request, _ in
            let session = try await authenticate(request)
            return try Responses.json(await state.identities(of: session))
        }
        router.delete("/identities/{provider}") { request, context in
            let session = try await authenticate(request)
            let name = context.parameters.get("provider") ?? ""
            guard let provider = Provider(rawValue: name) else {
                throw OAuthError.invalidRequest("`\(name)` is not a provider.")
            }
            return try Responses.json(try await state.detachIdentity(provider, session: session))
        }
        router.delete("/account") { request, _ in
            let session = try await authenticate(request)
            try await state.destroyAccount(session: session)
            return Responses.noContent()
        }
        router.get("/notes") { request, _ in
            let session = try await authenticate(request)
            let (limit, pinned) = try notesQuery(request)
            return try Responses.json(await state.notes(of: session, limit: limit, pinned: pinned))
        }
        router.post("/notes") { request, _ in
            let session = try await authenticate(request)
            let body = try await RequestDecoding.json(NewNote.self, from: request)
            guard let text = body.text else { throw OAuthError.invalidRequest("The body lacks `text`.") }
            // Counted in code points, as the schema's `minLength`/`maxLength` (JSON Schema) count.
            guard (1...10_000).contains(text.unicodeScalars.count) else {
                throw OAuthError.invalidRequest("`text` needs 1 to 10000 characters.")
            }
            let note = try await state.createNote(text: text, pinned: body.pinned ?? false, session: session)
            return try Responses.json(note, status: .created)
        }
    }

    /// The session of the request's access token; throws the RFC 6750 answers otherwise.
    ///
    /// With ``ReferenceServer/Configuration/dpop``, `Authorization: DPoP <token>` is accepted
    /// with a proof of the key the token is bound to, whose `ath` is the token's hash (RFC
    /// 9449 §7.1); a bound token presented as `Bearer` is refused (`invalid_token`).
    func authenticate(_ request: Request) async throws -> AuthenticatedSession {
        if state.configuration.dpop != nil, let (scheme, token) = RequestDecoding.authorization(of: request), scheme == "dpop" {
            guard RequestDecoding.isB64Token(token) else {
                throw OAuthError.dpop(.invalidToken("The Authorization header is malformed."), at: .resource)
            }
            let key = try await DPoPRequest.proofKey(of: request, state: state, accessToken: token, required: true, at: .resource)
            return try await state.authenticate(accessToken: token, dpopJKT: key)
        }
        return try await state.authenticate(accessToken: try RequestDecoding.bearerToken(of: request))
    }

    private func notesQuery(_ request: Request) throws -> (limit: Int?, pinned: Bool?) {
        let query = request.uri.queryParameters
        var limit: Int?
        if let text = query["limit"] {
            guard let value = Int(String(text)), (1...100).contains(value) else {
                throw OAuthError.invalidRequest("`limit` must be an integer from 1 to 100.")
            }
            limit = value
        }
        var pinned: Bool?
        if let text = query["pinned"] {
            switch text {
            case "true": pinned = true
            case "false": pinned = false
            default: throw OAuthError.invalidRequest("`pinned` must be true or false.")
            }
        }
        return (limit, pinned)
    }
}
