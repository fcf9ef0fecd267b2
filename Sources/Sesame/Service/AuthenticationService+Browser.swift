import Foundation

extension AuthenticationService {
    /// Runs the browser part of a browser step: opens its authorization request with a
    /// fresh `state` and PKCE challenge, waits for the redirect, checks it, and returns the
    /// values the step's token request reads: `code`, `codeVerifier` and `redirectURI`.
    /// - Throws: ``BrowserSignInError`` (cancelled, refused, state mismatch, malformed
    ///   redirect, not configured); ``SesameError/encoding(reason:)`` for a parameter
    ///   template without a value. Nothing changes the authentication state.
    nonisolated func authorizeInBrowser(
        _ step: BrowserStepDescription, of process: AuthenticationProcess
    ) async throws -> [String: JSONValue] {
        guard let browser = configuration.browser else {
            throw BrowserSignInError.notConfigured(reason: "the configuration has no browser")
        }
        guard let client = configuration.client else {
            throw BrowserSignInError.notConfigured(reason: "the configuration has no client id")
        }
        let extra: [(name: String, value: String)]
        do {
            extra = try step.parameters.map { ($0.name, try $0.value.resolve { process.value(at: $0, credential: nil) }.formValue) }
        } catch let error as TemplateError {
            throw SesameError.encoding(reason: error.description)
        }
        var generator = SystemRandomNumberGenerator()
        let request = try AuthorizationRequest(
            step: step, baseURL: sdk.baseURL(of: step.request.server), clientID: client.clientID, extra: extra,
            state: PKCE.randomToken(bytes: 16, using: &generator), pkce: PKCE())
        logger.info("opening the authorization request in the browser", metadata: ["step": "\(step.request.name)"])
        let callback: URL
        do {
            callback = try await browser.authorize(url: request.url, redirectURI: request.redirectURI)
        } catch is CancellationError {
            throw BrowserSignInError.cancelled
        }
        let code = try request.code(from: callback)
        logger.info("the browser came back with an authorization code", metadata: ["step": "\(step.request.name)"])
        return ["code": .string(code), "codeVerifier": .string(request.pkce.verifier), "redirectURI": .string(step.redirectURI)]
    }
}
