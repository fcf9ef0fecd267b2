import Foundation

extension AuthenticationService {
    /// Ends the user's session at the OpenID provider (RP-Initiated Logout 1.0): opens the
    /// configured end-session endpoint in the browser with `id_token_hint`, `client_id`,
    /// `post_logout_redirect_uri` and a fresh `state`, and waits, at most the configured
    /// timeout, for the provider to redirect to the post-logout URI with that `state`. The
    /// ID token and the URL that carries it are never logged.
    /// - Returns: nil when the provider redirected back with the `state` sent; otherwise why
    ///   it did not confirm (no browser, cancelled, timed out, state mismatch, browser
    ///   failure), never thrown: the local session is already cleared.
    nonisolated func endSessionAtProvider(idToken: String, endSession: EndSessionConfiguration) async -> String? {
        guard let browser = configuration.browser else { return "the configuration has no browser" }
        var generator = SystemRandomNumberGenerator()
        let state = PKCE.randomToken(bytes: 16, using: &generator)
        guard
            let url = endSession.requestURL(
                idTokenHint: idToken, clientID: configuration.client?.clientID, state: state)
        else { return "the end-session endpoint is not a URL a query can be added to" }
        let session = BrowserSession(browser: browser)
        let timeout = endSession.timeout
        let timer = Task {
            do { try await Task.sleep(for: timeout) } catch { return false }
            session.close()
            return true
        }
        defer { timer.cancel() }
        logger.info("opening the provider's end-session endpoint in the browser")
        let callback: URL
        do {
            callback = try await session.run { browser in
                try await browser.authorize(url: url, redirectURI: endSession.postLogoutRedirectURI)
            }
        } catch BrowserSignInError.cancelled {
            timer.cancel()
            let reason =
                await timer.value
                ? "the provider did not redirect back within \(timeout)"
                : "the browser was closed before the provider redirected back"
            logger.notice("signed out locally; the provider did not confirm the end of its session: \(reason)")
            return reason
        } catch let error as BrowserSignInError {
            return "the browser failed: \(error)"
        } catch {
            // Not the error's description: a browser's error may quote the URL, which holds the ID token.
            return "the browser failed: \(type(of: error))"
        }
        let returned = URLComponents(url: callback, resolvingAgainstBaseURL: false)?
            .queryItems?.first { $0.name == "state" }?.value
        guard returned == state else {
            logger.warning("the provider's post-logout redirect does not carry the state sent: it was not taken as confirmation")
            return "the post-logout redirect's state does not match the end-session request's"
        }
        logger.info("the provider confirmed the end of its session")
        return nil
    }
}
