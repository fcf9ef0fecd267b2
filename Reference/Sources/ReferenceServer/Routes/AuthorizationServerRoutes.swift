import Foundation
import HTTPTypes
import Hummingbird

/// The authorization server's endpoints: the authorization endpoint with its login page
/// (RFC 6749 §4.1, RFC 7636 S256), the token endpoint (RFC 6749 §3.2) and the revocation
/// endpoint (RFC 7009). Served on the API's listener or on one of their own
/// (``ReferenceServer/AuthorizationServerPlacement``).
struct AuthorizationServerRoutes {
    let state: ReferenceServerState
    let configuration: ReferenceServer.Configuration

    func register(on router: Router<ServerRequestContext>) {
        router.get("/oauth/authorize") { request, _ in
            let parameters: [String: String]
            do {
                parameters = try FormURLEncoding.parse(request.uri.query ?? "")
            } catch let error as FormURLEncoding.DuplicateParameter {
                return LoginPage.badRequest("The parameter `\(error.name)` is repeated.")
            }
            let resolved: [String: String]
            switch await resolve(parameters, opening: true) {
            case .failure(let failure): return failure.response
            case .success(let pushed): resolved = pushed
            }
            switch validate(resolved, issuer: await issuer(answering: request)) {
            case .failure(let failure): return failure.response
            case .success(let authorization): return LoginPage.page(for: authorization, username: authorization.loginHint)
            }
        }
        router.post("/oauth/authorize") { request, _ in
            try await authorize(request)
        }
        router.post("/oauth/token") { request, _ in
            try await token(request)
        }
        router.post("/oauth/revoke") { request, _ in
            try await revoke(request)
        }
        router.post(RouterPath(Self.pushedPath)) { request, _ in
            try await push(request)
        }
        DeviceRoutes(state: state, configuration: configuration) { try await authenticatedClient($0, form: $1) }
            .register(on: router)
        DiscoveryRoutes(state: state, configuration: configuration).register(on: router)
        OpenIDRoutes(state: state).register(on: router)
        EndSessionRoutes(state: state, configuration: configuration).register(on: router)
    }

    // MARK: Authorization endpoint

    /// `POST /oauth/authorize`: the login page's form, with the authorization request in
    /// hidden fields, the user's name and password, and the decision.
    private func authorize(_ request: Request) async throws -> Response {
        let form: [String: String]
        do {
            form = try await RequestDecoding.form(from: request)
        } catch let error as OAuthError {
            return LoginPage.badRequest(error.description ?? "The form is malformed.")
        }
        let resolved: [String: String]
        switch await resolve(form, opening: false) {
        case .failure(let failure): return failure.response
        case .success(let pushed): resolved = pushed
        }
        let authorization: AuthorizationRequest
        switch validate(resolved, issuer: await issuer(answering: request)) {
        case .failure(let failure): return failure.response
        case .success(let valid): authorization = valid
        }
        switch form["decision"] {
        case "deny":
            if let requestURI = authorization.pushedRequestURI { await state.consumePushedRequest(requestURI) }
            return LoginPage.redirect(authorization, error: "access_denied", description: "The user denied the request.")
        case "allow":
            guard let username = form["username"], let password = form["password"],
                await state.checkPassword(username: username, password: password)
            else {
                return LoginPage.page(for: authorization, username: form["username"], error: "The user name or password is wrong.")
            }
            if let requestURI = authorization.pushedRequestURI { await state.consumePushedRequest(requestURI) }
            if await state.isDenyingConsent() {
                return LoginPage.redirect(authorization, error: "access_denied", description: "Consent was denied.")
            }
            let code = await state.issueAuthorizationCode(
                clientID: authorization.client.id,
                redirectURI: authorization.redirectURI,
                codeChallenge: authorization.codeChallenge,
                username: username,
                scope: authorization.scope,
                dpopJKT: authorization.dpopJKT
            )
            await state.recordAuthenticationContext(StepUpRoutes.achievedACR(for: authorization.acrValues), forCode: code)
            await state.recordNonce(authorization.nonce, forCode: code)
            return LoginPage.redirect(authorization, code: code)
        default:
            return LoginPage.redirect(authorization, error: "invalid_request", description: "`decision` must be allow or deny.")
        }
    }

    /// The `iss` of the redirects that answer `request` (RFC 9207 §2), as the control API's
    /// ``IssuerMode`` says: by default the issuer the client knows this server by.
    private func issuer(answering request: Request) async -> String? {
        switch await state.currentIssuerMode() {
        case .correct: await state.currentIssuer() ?? request.head.authority.map { "http://\($0)" }
        case .wrong: IssuerMode.wrongIssuer
        case .missing: nil
        }
    }

    /// The server's issuer identifier, the `iss` of its ID tokens, whatever the control API
    /// made the redirects' `iss`.
    private func issuer(of request: Request) async -> String {
        await state.currentIssuer() ?? request.head.authority.map { "http://\($0)" } ?? ""
    }

    /// Checks an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3). A missing or unknown
    /// client or redirect URI cannot be redirected to (§4.1.2.1): it gets the 400 page. Other
    /// errors go back to the redirect URI, with `issuer` as their `iss`.
    func validate(_ parameters: [String: String], issuer: String?) -> Result<AuthorizationRequest, AuthorizationFailure> {
        guard let clientID = parameters["client_id"] else { return .failure(.page("`client_id` is missing.")) }
        guard let client = configuration.clients.first(where: { $0.id == clientID }) else {
            return .failure(.page("The client is unknown."))
        }
        guard let redirectURI = parameters["redirect_uri"] else { return .failure(.page("`redirect_uri` is missing.")) }
        guard client.accepts(redirectURI: redirectURI) else {
            return .failure(.page("`redirect_uri` is not registered for this client."))
        }
        let partial = AuthorizationRequest(
            client: client,
            redirectURI: redirectURI,
            state: parameters["state"],
            codeChallenge: parameters["code_challenge"] ?? "",
            scope: parameters["scope"],
            issuer: issuer,
            openIDParameters: AuthorizationRequest.openIDParameterNames.compactMap { name in parameters[name].map { (name, $0) } },
            pushedRequestURI: parameters["request_uri"],
            dpopJKT: parameters["dpop_jkt"]
        )
        guard let responseType = parameters["response_type"] else {
            return .failure(.redirect(partial, error: "invalid_request", description: "`response_type` is missing."))
        }
        guard responseType == "code" else {
            return .failure(.redirect(partial, error: "unsupported_response_type", description: "Only `code` is supported."))
        }
        guard let challenge = parameters["code_challenge"] else {
            return .failure(.redirect(partial, error: "invalid_request", description: "`code_challenge` is missing (PKCE is required)."))
        }
        guard parameters["code_challenge_method"] == "S256" else {
            return .failure(.redirect(partial, error: "invalid_request", description: "`code_challenge_method` must be S256."))
        }
        guard PKCE.isWellFormedS256Challenge(challenge) else {
            return .failure(.redirect(partial, error: "invalid_request", description: "`code_challenge` is not an S256 challenge."))
        }
        if let failure = StepUpRoutes.check(partial) { return .failure(failure) }
        return .success(partial)
    }

    // MARK: Token endpoint

    /// `POST /oauth/token` (RFC 6749 §3.2): form-encoded, client authenticated, then the grant.
    private func token(_ request: Request) async throws -> Response {
        let form = try await RequestDecoding.form(from: request)
        let client = try await authenticatedClient(request, form: form)
        guard let grantType = form["grant_type"] else {
            throw OAuthError.invalidRequest("`grant_type` is missing.")
        }
        // RFC 9449 §5: a valid proof binds the tokens to its key.
        let dpopJKT = try await DPoPRequest.proofKey(
            of: request, state: state, required: configuration.dpop?.requiresProof ?? false, at: .authorizationServer)
        switch grantType {
        case "password":
            guard let username = form["username"], let password = form["password"] else {
                throw OAuthError.invalidRequest("The password grant needs `username` and `password`.")
            }
            return try Responses.token(
                try await state.signInWithPassword(
                    username: username, password: password, scope: form["scope"], clientID: client.id, dpopJKT: dpopJKT))
        case "refresh_token":
            guard let refreshToken = form["refresh_token"] else {
                throw OAuthError.invalidRequest("`refresh_token` is missing.")
            }
            let tokens = try await state.refresh(
                refreshToken: refreshToken, scope: form["scope"], clientID: client.id, dpopJKT: dpopJKT)
            return try Responses.token(
                try await state.addingIDToken(
                    to: tokens, clientID: client.id, issuer: await issuer(of: request), includesNonce: false))
        case "authorization_code":
            guard let code = form["code"] else { throw OAuthError.invalidRequest("`code` is missing.") }
            guard let redirectURI = form["redirect_uri"] else { throw OAuthError.invalidRequest("`redirect_uri` is missing.") }
            guard let verifier = form["code_verifier"] else {
                throw OAuthError.invalidRequest("`code_verifier` is missing (PKCE is required).")
            }
            let tokens = try await state.redeemAuthorizationCode(
                code, clientID: client.id, redirectURI: redirectURI, verifier: verifier, dpopJKT: dpopJKT)
            return try Responses.token(
                try await state.addingIDToken(to: tokens, clientID: client.id, issuer: await issuer(of: request), includesNonce: true))
        case DeviceAuthorizationResponse.grantType:
            guard let deviceCode = form["device_code"] else { throw OAuthError.invalidRequest("`device_code` is missing.") }
            // With openid in the device authorization's scope, an ID token without a nonce:
            // RFC 8628 has none to send.
            let tokens = try await state.redeemDeviceCode(deviceCode, clientID: client.id, dpopJKT: dpopJKT)
            return try Responses.token(
                try await state.addingIDToken(to: tokens, clientID: client.id, issuer: await issuer(of: request), includesNonce: false))
        default:
            throw OAuthError(
                status: .badRequest,
                code: "unsupported_grant_type",
                description: "The grant type is not supported."
            )
        }
    }

    // MARK: Revocation endpoint

    /// `POST /oauth/revoke` (RFC 7009): 200 with an empty body whether or not the token was
    /// known; the client authenticates as at the token endpoint. With DPoP on, a proof the
    /// request carries is checked as at the token endpoint, and a token bound to a key is
    /// revoked only with a proof of that key (`invalid_dpop_proof` otherwise, the token left
    /// as it was): a copied token cannot end its session from another device.
    private func revoke(_ request: Request) async throws -> Response {
        let form = try await RequestDecoding.form(from: request)
        let client = try await authenticatedClient(request, form: form)
        guard let token = form["token"] else { throw OAuthError.invalidRequest("`token` is missing.") }
        let proofKey = try await DPoPRequest.proofKey(of: request, state: state, at: .authorizationServer)
        if let bound = await state.boundKey(of: token), bound != proofKey {
            throw OAuthError.dpop(
                .invalidProof("The token is bound to a DPoP key: its revocation needs a proof of that key."), at: .authorizationServer)
        }
        try await state.revoke(token: token, hint: form["token_type_hint"], clientID: client.id)
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init())
    }

    func authenticatedClient(_ request: Request, form: [String: String]) async throws -> ReferenceServer.Client {
        let client = try RequestDecoding.authenticateClient(request: request, form: form, clients: configuration.clients)
        if let secret = client.secret { await state.accepted(IssuedSecret(kind: .clientSecret, value: secret)) }
        return client
    }
}

/// A valid authorization request, as the login page carries it between GET and POST.
struct AuthorizationRequest: Sendable {
    var client: ReferenceServer.Client
    var redirectURI: String
    var state: String?
    var codeChallenge: String
    var scope: String?
    /// The `iss` its redirects carry (RFC 9207); not one of the login page's hidden fields.
    var issuer: String?
    /// `acr_values`, `max_age`, `prompt` and `login_hint` as the request sent them (OpenID
    /// Connect Core §3.1.2.1), in ``openIDParameterNames``'s order.
    var openIDParameters: [(String, String)] = []
    /// The `request_uri` of a pushed request (RFC 9126): the login page's hidden fields
    /// then carry it and `client_id` only.
    var pushedRequestURI: String?
    /// The DPoP key the code is bound to (RFC 9449 §10), from `dpop_jkt` or the push's proof.
    var dpopJKT: String?

    static let openIDParameterNames = ["acr_values", "max_age", "prompt", "login_hint", "nonce"]

    /// The value the ID token's `nonce` repeats (OpenID Connect Core §3.1.2.1).
    var nonce: String? { openIDParameters.first { $0.0 == "nonce" }?.1 }

    /// The requested authentication context classes, in order.
    var acrValues: [String] {
        (openIDParameters.first { $0.0 == "acr_values" }?.1 ?? "").split(separator: " ").map(String.init)
    }

    /// The user the client expects; the login page fills it in.
    var loginHint: String? { openIDParameters.first { $0.0 == "login_hint" }?.1 }

    /// The request's parameters, in the order the login page's hidden fields list them.
    var parameters: [(String, String)] {
        if let pushedRequestURI { return [("client_id", client.id), ("request_uri", pushedRequestURI)] }
        var parameters: [(String, String)] = [
            ("response_type", "code"), ("client_id", client.id), ("redirect_uri", redirectURI),
        ]
        if let state { parameters.append(("state", state)) }
        parameters.append(("code_challenge", codeChallenge))
        parameters.append(("code_challenge_method", "S256"))
        if let scope { parameters.append(("scope", scope)) }
        if let dpopJKT { parameters.append(("dpop_jkt", dpopJKT)) }
        return parameters + openIDParameters
    }
}

/// Why an authorization request failed: a 400 page, or an error sent to the redirect URI.
enum AuthorizationFailure: Error {
    case page(String)
    case redirect(AuthorizationRequest, error: String, description: String)

    var response: Response {
        switch self {
        case .page(let message): LoginPage.badRequest(message)
        case .redirect(let request, let error, let description): LoginPage.redirect(request, error: error, description: description)
        }
    }
}
