import Foundation
import HTTPTypes
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
        guard validatesIDToken(of: step), let validator = idTokenValidator else { return }
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
    /// Whether `step`'s token response carries an ID token to validate, as its kind says
    /// (``StepInterpreter/validatesIDToken(appValidator:)``): a browser step the schema marks
    /// `openID: true`, or any browser step when the app set its own `idTokenValidator`.
    nonisolated func validatesIDToken(of step: AuthenticationStepDescription?) -> Bool {
        step?.interpreter.validatesIDToken(appValidator: configuration.idTokenValidator != nil) ?? false
    }

    /// The `id_token` of a token response, when `validated` (a validator checked it); nil otherwise.
    nonisolated static func idToken(in response: JSONValue, validated: Bool) -> String? {
        guard validated, case .object(let fields) = response, case .string(let idToken)? = fields["id_token"] else { return nil }
        return idToken
    }

    /// The validator the schema's `openID:` describes, for the configuration's issuer, client
    /// and authorization server, its keys fetched through `pipeline`; nil when the schema
    /// declares none, or the configuration has no client (a browser step fails then anyway).
    nonisolated static func schemaIDTokenValidator(
        sdk: SDKDescription, configuration: Configuration, pipeline: RequestPipeline
    ) -> (any IDTokenValidating)? {
        guard let openID = sdk.openID, let issuer = sdk.authorizationIssuer?.issuer, let client = configuration.client,
            let keysURL = openID.keysURL(authorizationServer: sdk.baseURL(of: .authorization)),
            let target = RedirectFollower.split(keysURL)
        else { return nil }
        let limit = configuration.maximumResponseSize
        let fetch: @Sendable () async throws -> Data = {
            let operation = "openID.keys"
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: target.path)
            let (response, body) = try await pipeline.send(request, body: nil, baseURL: target.baseURL, operationID: operation)
            guard response.status.code == 200 else {
                throw SesameError.transport(operation: operation, reason: "the provider's keys answered HTTP \(response.status.code)")
            }
            return try await body.collected(upTo: limit, operation: operation)
        }
        return Schema.idTokenValidator(
            OpenIDValidatorSettings(
                issuer: issuer, clientID: client.clientID, keysURL: keysURL, algorithms: openID.algorithms,
                clockSkew: openID.clockSkew, fetchKeys: fetch))
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
        // The session's ID token was validated at sign-in (or the app's validator covers every
        // browser sign-in): a refresh of a session without one has nothing to compare with.
        guard let validator = idTokenValidator, previous.idToken != nil || configuration.idTokenValidator != nil,
            let idToken = Self.idToken(in: response, validated: true)
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
