import Foundation
import Hummingbird

/// Passkeys (a WebAuthn Level 3 relying party), routed only when
/// ``ReferenceServer/Configuration/passkeys`` is set:
///
/// - `POST /passkeys/register/options` `{username, displayName?}`: the creation options of a
///   new account's passkey; with `Authorization: Bearer`, of a passkey added to that
///   token's account (`username` optional). 409 `username_taken` for a taken name.
/// - `POST /passkeys/register`: the `RegistrationResponseJSON`, verified as §7.1 says. A new
///   account is signed in (a token response); a passkey added to the signed-in account
///   answers 201 `{credentialId, uid}`.
/// - `POST /passkeys/signin/options` `{username?}`: the request options, with the user's
///   credentials in `allowCredentials`, or none for a discoverable credential.
/// - `POST /passkeys/signin`: the `AuthenticationResponseJSON`, verified as §7.2 says; a token
///   response, as the password grant gives.
///
/// Every refusal is a 400 with the server's JSON error (`invalid_request` for malformed
/// input, CBOR included; `invalid_grant` for a broken rule), 401 for a dead bearer token.
struct PasskeyRoutes {
    let state: ReferenceServerState
    let options: ReferenceServer.PasskeyOptions

    func register(on router: Router<ServerRequestContext>) {
        router.post("/passkeys/register/options") { request, _ in
            struct Body: Decodable {
                var username: String?
                var displayName: String?
            }
            let accessToken = try RequestDecoding.optionalBearerToken(of: request)
            let body = try await optionalJSON(Body.self, from: request) ?? Body()
            return try Responses.json(
                try await state.passkeyCreationOptions(
                    options, username: body.username, displayName: body.displayName, accessToken: accessToken))
        }
        router.post("/passkeys/register") { request, _ in
            let accessToken = try RequestDecoding.optionalBearerToken(of: request)
            let body = try await RequestDecoding.json(PasskeyRegistrationBody.self, from: request)
            let (tokens, registered) = try await state.registerPasskey(body, options: options, accessToken: accessToken)
            if let tokens { return try Responses.token(tokens) }
            return try Responses.json(registered, status: .created)
        }
        router.post("/passkeys/signin/options") { request, _ in
            struct Body: Decodable { var username: String? }
            let body = try await optionalJSON(Body.self, from: request) ?? Body()
            return try Responses.json(try await state.passkeyRequestOptions(options, username: body.username))
        }
        router.post("/passkeys/signin") { request, _ in
            let body = try await RequestDecoding.json(PasskeyAuthenticationBody.self, from: request)
            return try Responses.token(try await state.signInWithPasskey(body, options: options))
        }
    }

    /// A JSON body, or nil when the request has none.
    private func optionalJSON<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T? {
        let data = try await RequestDecoding.body(of: request)
        guard !data.isEmpty else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw OAuthError.invalidRequest("The body is not valid JSON.")
        }
    }
}
