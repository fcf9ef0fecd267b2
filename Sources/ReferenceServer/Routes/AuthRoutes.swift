import Foundation
import Hummingbird
import Logging

/// The sign-in methods of auth.yaml and the RFC 6749 token endpoint.
struct AuthRoutes {
    let state: ReferenceServerState
    let configuration: ReferenceServer.Configuration

    func register(on router: Router<ServerRequestContext>) {
        router.post("/auth/guest") { _, _ in
            try Responses.token(await state.signInAsGuest())
        }
        router.post("/auth/internal/challenge") { request, context in
            try await challenge(request, context: context)
        }
        router.post("/auth/internal/verify") { request, _ in
            struct Body: Decodable {
                var challengeId: String
                var code: String
            }
            let body = try await RequestDecoding.json(Body.self, from: request)
            return try Responses.token(try await state.verifyChallenge(id: body.challengeId, code: body.code))
        }
        router.post("/auth/custom") { request, _ in
            struct Body: Decodable {
                var token: String
                var provider: String
            }
            let body = try await RequestDecoding.json(Body.self, from: request)
            guard !body.provider.isEmpty else { throw OAuthError.invalidRequest("`provider` is empty.") }
            return try Responses.token(try await state.signInWithCustomToken(body.token))
        }
        router.post("/oauth/token") { request, _ in
            try await token(request)
        }
    }

    private func challenge(_ request: Request, context: ServerRequestContext) async throws -> Response {
        struct Body: Decodable { var identifier: String }
        let body = try await RequestDecoding.json(Body.self, from: request)
        let identifier = body.identifier.trimmingCharacters(in: .whitespaces)
        guard identifier.count >= 3 else {
            throw OAuthError.invalidRequest("`identifier` needs at least 3 characters.")
        }
        let (response, code) = await state.startChallenge(identifier: identifier)
        if configuration.logsChallengeCodes {
            context.logger.info(
                "One-time code sent",
                metadata: ["challengeId": "\(response.challengeId)", "channel": "\(response.channel)", "code": "\(code)"]
            )
        }
        return try Responses.json(response)
    }

    /// `POST /oauth/token` (RFC 6749 §3.2): form-encoded, client authenticated, then the grant.
    private func token(_ request: Request) async throws -> Response {
        let form = try await RequestDecoding.form(from: request)
        let client = try RequestDecoding.authenticateClient(request: request, form: form, clients: configuration.clients)
        if let secret = client.secret { await state.accepted(IssuedSecret(kind: .clientSecret, value: secret)) }
        guard let grantType = form["grant_type"] else {
            throw OAuthError.invalidRequest("`grant_type` is missing.")
        }
        switch grantType {
        case "password":
            guard let username = form["username"], let password = form["password"] else {
                throw OAuthError.invalidRequest("The password grant needs `username` and `password`.")
            }
            return try Responses.token(try await state.signInWithPassword(username: username, password: password, scope: form["scope"]))
        case "refresh_token":
            guard let refreshToken = form["refresh_token"] else {
                throw OAuthError.invalidRequest("`refresh_token` is missing.")
            }
            return try Responses.token(try await state.refresh(refreshToken: refreshToken, scope: form["scope"]))
        default:
            throw OAuthError(
                status: .badRequest,
                code: "unsupported_grant_type",
                description: "The grant type is not supported."
            )
        }
    }
}
