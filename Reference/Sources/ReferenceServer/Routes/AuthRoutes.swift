import Foundation
import Hummingbird
import Logging

/// The sign-in methods of auth.yaml (the token endpoint is in ``AuthorizationServerRoutes``).
/// With a valid `Authorization: Bearer` access token, `/auth/internal/verify` and
/// `/auth/custom` sign in to that token's account, attaching the identity to it.
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
            let accessToken = try RequestDecoding.optionalBearerToken(of: request)
            let body = try await RequestDecoding.json(Body.self, from: request)
            return try Responses.token(
                try await state.verifyChallenge(id: body.challengeId, code: body.code, accessToken: accessToken))
        }
        router.post("/auth/custom") { request, _ in
            struct Body: Decodable {
                var token: String
                var provider: String
            }
            let accessToken = try RequestDecoding.optionalBearerToken(of: request)
            let body = try await RequestDecoding.json(Body.self, from: request)
            guard !body.provider.isEmpty else { throw OAuthError.invalidRequest("`provider` is empty.") }
            return try Responses.token(try await state.signInWithCustomToken(body.token, accessToken: accessToken))
        }
    }

    private func challenge(_ request: Request, context: ServerRequestContext) async throws -> Response {
        struct Body: Decodable { var identifier: String }
        let body = try await RequestDecoding.json(Body.self, from: request)
        let identifier = body.identifier.trimmingCharacters(in: .whitespaces)
        // Counted in code points, as the schema's `minLength: 3` (JSON Schema) counts.
        guard identifier.unicodeScalars.count >= 3 else {
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
}
