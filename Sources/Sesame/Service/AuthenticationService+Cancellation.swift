import Foundation
@_spi(Generated) import SesameDescription

/// Cancelling a sign-in (docs/runtime.md, "Cancelling a sign-in"): the browser of a browser
/// step closes at once, a code is never exchanged after the cancel, and tokens the server
/// issued to a sign-in that is then discarded are revoked (RFC 7009) rather than dropped.
extension AuthenticationService {
    /// Cancels the process under way, closing its browser when it is still open.
    /// - Returns: the cancelled method's name, nil when none was under way.
    @discardableResult
    func cancelSignIn() -> String? {
        let closesBrowser = signIn.isBrowserOpen
        let method = signIn.cancel()
        if closesBrowser { openBrowser?.close() }
        openBrowser = nil
        return method
    }

    /// The browser session of the browser step about to run; nil without a browser (the
    /// step then fails as not configured).
    func openBrowserSession() -> BrowserSession? {
        let session = configuration.browser.map { BrowserSession(browser: $0) }
        openBrowser = session
        return session
    }

    /// Revokes the tokens of a token response the cancelled sign-in discards (or, `whose`
    /// says, a sign-in that refused it); nothing when the response has no credential.
    func revokeDiscarded(
        tokenResponse: JSONValue, of step: AuthenticationStepDescription, whose: String = "the cancelled sign-in's"
    ) async {
        guard
            let credential = try? TokenResponseReader.credential(
                from: tokenResponse, description: sdk.credential, operation: step.request.name, now: now())
        else { return }
        await revokeDiscarded(credential, operation: step.request.name, whose: whose)
    }

    /// Revokes `credential`, issued by `operation` to a sign-in that was cancelled, with the
    /// schema's `lifecycle.revoke` (RFC 7009), in a task of its own that the sign-in's
    /// cancellation does not cancel. Never throws: a failure, or a schema without
    /// revocation, is logged (without the token).
    func revokeDiscarded(_ credential: Credential, operation: String, whose: String = "the cancelled sign-in's") async {
        guard sdk.lifecycle.revocation != nil else {
            logger.notice("\(whose) tokens (\(operation)) were dropped: the schema declares no revocation")
            return
        }
        let failure = await Task { await self.sendRevocation(of: credential) }.value
        if let failure {
            logger.notice("\(whose) tokens (\(operation)) were not revoked: \(failure)")
        } else {
            logger.info("\(whose) tokens (\(operation)) were revoked")
        }
    }

    /// Sends the schema's `lifecycle.revoke` request (RFC 7009) for `credential`, with
    /// client authentication; skipped when it would send `{refreshToken}` and the credential
    /// has none.
    /// - Returns: nil when revoked or when the schema declares no revocation; otherwise why
    ///   not, naming the request (never the token).
    nonisolated func sendRevocation(of credential: Credential) async -> String? {
        guard let revocation = sdk.lifecycle.revocation else { return nil }
        if credential.refreshToken == nil, revocation.fields.reads(.refreshToken) {
            // Nothing to revoke: no request, and the reason says so.
            return "\(revocation.request.name): no refresh token to revoke"
        }
        do {
            let body = try RequestFactory.body(
                fields: revocation.fields, for: revocation.request, client: configuration.client, naming: .publicClientToo
            ) {
                credential.value(of: $0)
            }
            _ = try await send(OperationRequest(revocation.request, body: body), credential: .none)
            return nil
        } catch let error as TemplateError {
            return "\(revocation.request.name): \(error)"
        } catch {
            return "\(revocation.request.name): \(Self.publicError(error))"
        }
    }
}
