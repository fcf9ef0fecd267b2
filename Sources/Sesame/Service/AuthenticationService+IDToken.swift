import Foundation
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// Validates the `id_token` of a browser step's token response with the configuration's
    /// ``IDTokenValidating`` (OpenID Connect Core §3.1.3.7), against the `nonce` the
    /// authorization request sent, the access token issued with it, and what `requested` asked
    /// (`acr_values`: the token's `acr` must be one of them; `max_age`: its `auth_time` must be
    /// within it). Nothing without a validator.
    /// - Throws: the validator's error, or ``SesameError/decoding(operation:reason:)`` when the
    ///   response has no `id_token` (§3.1.3.3 requires one). The response's tokens are then
    ///   revoked (RFC 7009) when the schema declares revocation, dropped otherwise: a refused
    ///   ID token leaves no token behind, and the state does not change.
    nonisolated func checkIDToken(
        in response: JSONValue, of step: AuthenticationStepDescription, nonce: String?, requested: AuthorizationParameters? = nil
    ) async throws {
        guard let validator = configuration.idTokenValidator else { return }
        do {
            guard case .object(let fields) = response, case .string(let idToken)? = fields["id_token"] else {
                throw SesameError.decoding(
                    operation: step.request.name, reason: "$.id_token: required property is missing (OpenID Connect Core §3.1.3.3)")
            }
            let accessToken = try? TokenResponseReader.credential(
                from: response, description: sdk.credential, operation: step.request.name, now: now()
            ).accessToken
            _ = try await validator.validateIDToken(
                idToken,
                expecting: IDTokenExpectations(
                    nonce: nonce, accessToken: accessToken, maxAge: requested?.maxAge.map { .seconds($0) },
                    acrValues: requested?.acrValues ?? []),
                now: now())
            logger.info("the ID token of \(step.request.name) was validated")
        } catch {
            await revokeDiscarded(tokenResponse: response, of: step, whose: "the refused ID token's")
            throw error
        }
    }
}

extension AuthenticationService {
    /// The `id_token` of a token response, when a validator checked it; nil otherwise.
    nonisolated static func idToken(in response: JSONValue, validatedBy validator: (any IDTokenValidating)?) -> String? {
        guard validator != nil, case .object(let fields) = response, case .string(let idToken)? = fields["id_token"] else { return nil }
        return idToken
    }

    /// Validates the `id_token` a refresh returned (OpenID Connect Core §12.2): no nonce, the
    /// same `sub` as the session's ID token, the new access token for `at_hash`.
    /// - Returns: the refreshed ID token, or nil (the session's one is kept) when the refresh
    ///   returned none or there is no validator.
    /// - Throws: ``IDTokenRefusal``: the refresh fails as `failed` and the session keeps its
    ///   credential.
    nonisolated func checkRefreshedIDToken(
        in response: JSONValue, of refreshed: Credential, replacing previous: Credential, operation: String
    ) async throws -> String? {
        guard let validator = configuration.idTokenValidator, let idToken = Self.idToken(in: response, validatedBy: validator)
        else { return nil }
        do {
            _ = try await validator.validateIDToken(
                idToken, expecting: IDTokenExpectations(accessToken: refreshed.accessToken, previousIDToken: previous.idToken),
                now: now())
            return idToken
        } catch {
            throw IDTokenRefusal(operation: operation, underlying: error)
        }
    }
}

/// A refresh's ID token the validator refused: the refresh fails with `underlying` (the
/// validator's error). Internal.
struct IDTokenRefusal: Error, CustomStringConvertible {
    var operation: String
    var underlying: any Error

    var description: String { "\(operation): the ID token was refused: \(underlying)" }
}
