import Foundation
@_spi(Generated) import SesameDescription

/// A browser step (``AuthenticationStepDescription/Kind/browser(_:)``): the authorization
/// request of the authorization code grant with PKCE, opened in the app's browser, then the
/// step's request, the token request, with the code the browser brought back. A sign-in
/// cancelled meanwhile closes the browser and fails with ``BrowserSignInError/cancelled``.
struct BrowserStep: StepInterpreter {
    var authorization: BrowserAuthorization

    var opensBrowser: Bool { true }
    var takesAuthorizationParameters: Bool { true }
    /// The token request is an OAuth token request: a public client names itself (RFC 6749 §4.1.3).
    var clientNaming: RequestFactory.ClientNaming { .publicClientToo }
    var cancellationError: (any Error)? { BrowserSignInError.cancelled }

    /// A step the schema marks `openID: true`, or any browser step when the app set its own
    /// `idTokenValidator` (which makes every browser sign-in an OpenID Connect one).
    func validatesIDToken(appValidator: Bool) -> Bool { authorization.openID || appValidator }

    func run<Schema: SDKSchema>(
        _ step: AuthenticationStepDescription, of process: AuthenticationProcess, credential: Credential?,
        browser: BrowserSession?, in service: AuthenticationService<Schema>
    ) async throws -> JSONValue {
        // The code and the verifier live in this copy only, for this step's body.
        var process = process
        let grant = try await service.authorizeInBrowser(authorization, of: process, session: browser)
        process.kindState = .browser(grant)
        let response = try await service.exchangeCode(step, of: process, credential: credential)
        try await service.checkIDToken(in: response, of: step, nonce: grant.nonce, requested: grant.requested)
        return response
    }
}

extension AuthenticationService {
    /// Runs the browser part of a browser step: opens its authorization request with a
    /// fresh `state` and PKCE challenge, waits for the redirect, checks it, and returns the
    /// values the step's token request reads (`BrowserAuthorization.providedValues`).
    /// - Throws: ``BrowserSignInError`` (cancelled, state or issuer mismatch, malformed
    ///   redirect, not configured); ``BackEndError`` for an `error` in the redirect, which
    ///   becomes the schema's typed error; ``SesameError/encoding(reason:)`` for a parameter
    ///   template without a value. Nothing changes the authentication state.
    /// The browser is opened through `session`, which the sign-in's cancellation closes.
    nonisolated func authorizeInBrowser(
        _ step: BrowserAuthorization, of process: AuthenticationProcess, session: BrowserSession?
    ) async throws -> BrowserGrant {
        guard let browser = session else {
            throw BrowserSignInError.notConfigured(reason: "the configuration has no browser")
        }
        guard let client = configuration.client else {
            throw BrowserSignInError.notConfigured(reason: "the configuration has no client id")
        }
        let extra: [(name: String, value: String)]
        do {
            extra = try step.parameters.map { ($0.name, try $0.value.resolve { process.value(of: $0, credential: nil) }.formValue) }
        } catch let error as TemplateError {
            throw SesameError.encoding(reason: error.description)
        }
        guard let configured = configuration.redirectURI ?? URL(string: step.redirectURI) else {
            throw BrowserSignInError.notConfigured(reason: "the redirect URI is not an absolute URL")
        }
        let baseURL = sdk.baseURL(of: step.request.server)
        let logger = self.logger
        let issuer = sdk.authorizationIssuer
        let sendsNonce = step.openID || configuration.idTokenValidator != nil
        if sendsNonce, idTokenValidator == nil {
            throw BrowserSignInError.notConfigured(
                reason: "the step is an OpenID Connect sign-in, but no ID token validator could be made: "
                    + "it needs the configuration's client (its id is the audience), the authorization server's issuer, "
                    + "and openID keys that resolve to a URL")
        }
        // The browser prepares the redirect (a loopback browser listens, and says on which
        // port), then opens the request made for that redirect URI.
        let (request, callback) = try await browser.run { browser in
            let redirectURI = try await browser.prepareRedirect(to: configured)
            var generator = SystemRandomNumberGenerator()
            var request = try AuthorizationRequest(
                step: step, baseURL: baseURL, redirectURI: redirectURI, clientID: client.clientID, extra: extra,
                state: PKCE.randomToken(bytes: 16, using: &generator), pkce: PKCE(), issuer: issuer,
                requested: process.authorization,
                nonce: sendsNonce ? PKCE.randomToken(bytes: 16, using: &generator) : nil)
            if let pushed = step.pushed {
                request.url = try await request.pushedURL(
                    requestURI: self.push(request, to: pushed, client: client), clientID: client.clientID)
            }
            logger.info("opening the authorization request in the browser", metadata: ["step": "\(step.request.name)"])
            return (request, try await browser.authorize(url: request.url, redirectURI: request.redirectURI))
        }
        let code: String
        do {
            code = try request.code(from: callback)
        } catch let error as AuthorizationErrorResponse {
            // Typed through the catalogue at the public boundary, as the token endpoint's are.
            throw BackEndError(response: error.response(catalogue: sdk.errors))
        }
        logger.info("the browser came back with an authorization code", metadata: ["step": "\(step.request.name)"])
        return BrowserGrant(
            code: code, codeVerifier: request.pkce.verifier, redirectURI: request.redirectURI.absoluteString,
            requested: request.requested, nonce: request.nonce)
    }
}

extension AuthenticationService {
    /// Pushes the authorization request's parameters (RFC 9126 §2) with the step's client
    /// authentication, and returns the `request_uri` the server answered.
    /// - Throws: the server's error, typed through the catalogue, for an error response;
    ///   ``SesameError/decoding(operation:reason:)`` for a response without a `request_uri`
    ///   or a positive `expires_in`.
    nonisolated func push(
        _ request: AuthorizationRequest, to pushed: RequestDescription, client: ClientCredentials
    ) async throws
        -> String
    {
        var fields = request.parameters
        if pushed.clientAuthentication == .post, let secret = client.clientSecret {
            fields.append(FormField(name: "client_secret", value: secret))
        }
        let response = try await send(OperationRequest(pushed, body: .form(fields)), credential: .none)
        let answer = try response.decode(PushedAuthorizationResponse.self)
        guard !answer.request_uri.isEmpty, answer.expires_in > 0 else {
            throw SesameError.decoding(
                operation: pushed.name, reason: "the pushed authorization response needs a request_uri and a positive expires_in")
        }
        logger.info("pushed the authorization request", metadata: ["step": "\(pushed.name)"])
        return answer.request_uri
    }
}

/// The answer to a pushed authorization request (RFC 9126 §2.2).
struct PushedAuthorizationResponse: Decodable {
    var request_uri: String
    var expires_in: Int
}

/// What a browser step's authorization brought back, for its token request. Internal: the
/// code and the verifier are secrets until that request.
struct BrowserGrant: Sendable {
    var code: String
    var codeVerifier: String
    var redirectURI: String
    /// What the authorization request asked for (`acr_values`, `max_age`), which the ID
    /// token's `acr` and `auth_time` must satisfy; nil when it asked nothing.
    var requested: AuthorizationParameters?
    /// The `nonce` the request sent, which the ID token must carry; nil without a validator.
    var nonce: String?

    /// The value of a placeholder the browser provides to the token request; nil for any other.
    func value(of placeholder: Placeholder) -> JSONValue? {
        switch placeholder {
        case .authorizationCode: .string(code)
        case .codeVerifier: .string(codeVerifier)
        case .redirectURI: .string(redirectURI)
        default: nil
        }
    }
}

extension AuthenticationService {
    /// The browser of process `id` came back with a redirect.
    /// - Returns: whether its code may be exchanged: the process still runs that step and
    ///   its task was not cancelled.
    func browserReturned(id: UInt64) -> Bool {
        openBrowser = nil
        return signIn.browserReturned(id: id) && !Task.isCancelled
    }

    /// Sends a browser step's token request with the code the browser brought back, unless
    /// the sign-in was cancelled meanwhile. Once sent, the request runs to its end even if
    /// the sign-in's task is cancelled, so that the tokens it may issue are revoked (by the
    /// caller) rather than lost on the server.
    /// - Throws: ``BrowserSignInError/cancelled`` before sending, after a cancellation; the
    ///   token request's error otherwise.
    nonisolated func exchangeCode(
        _ step: AuthenticationStepDescription, of process: AuthenticationProcess, credential: Credential?
    ) async throws -> JSONValue {
        guard await browserReturned(id: process.id) else { throw BrowserSignInError.cancelled }
        return try await Task { try await self.sendStepRequest(step, of: process, credential: credential) }.value
    }
}
