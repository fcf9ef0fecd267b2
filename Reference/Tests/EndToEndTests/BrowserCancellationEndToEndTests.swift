import Foundation
import HTTPTypes
import OpenAPIRuntime
import ReferenceSDK
import SesameTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Cancelling a browser sign-in, run-time and loopback redirect URIs, over real HTTP against
/// the reference server (its authorization server on an origin of its own), read from its
/// request log.
@Suite("Browser cancellation and redirect URIs, end to end", .secretScan)
struct BrowserCancellationEndToEndTests {
    func alice(_ action: HeadlessBrowser.Action = .allow) -> HeadlessBrowser {
        HeadlessBrowser(username: "alice", password: "wonderland", action: action)
    }

    @Test("cancelAuthentication() while the login page is open dismisses the browser; no token request reaches the server")
    func cancelWhileThePageIsOpen() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let browser = LingeringBrowser(page: alice(.close), user: alice())
            let service = e2e.makeService(browser: browser)
            let guest = try await e2e.signInAsGuest(service)
            let signIn = Task { try await service.authenticate(with: SingleStepMethod.oauth2()) }
            #expect(await poll(timeout: .seconds(60)) { browser.pageLoaded.value })
            await service.cancelAuthentication()
            await #expect(throws: BrowserSignInError.cancelled) { try await signIn.value }
            #expect(browser.dismissals.value == 1)
            #expect(await service.state == .authenticated(guest))
            // Had the runtime waited for the user, they would have signed in after 20 s.
            #expect(!browser.userFinished.value)
            let log = await e2e.backEnd.requestLog().filter { $0.listener == .authorization }.map { "\($0.method) \($0.path)" }
            #expect(log == ["GET /oauth/authorize"])
        }
    }

    @Test("cancelling the sign-in's task while the page is open dismisses the browser too")
    func taskCancelledWhileThePageIsOpen() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let browser = LingeringBrowser(page: alice(.close), user: alice())
            let service = e2e.makeService(browser: browser)
            let signIn = Task { try await service.authenticate(with: SingleStepMethod.oauth2()) }
            #expect(await poll(timeout: .seconds(60)) { browser.pageLoaded.value })
            signIn.cancel()
            await #expect(throws: BrowserSignInError.cancelled) { try await signIn.value }
            #expect(browser.dismissals.value == 1)
            #expect(await service.state == .unauthenticated)
            #expect(await e2e.backEnd.requestLog().filter { $0.path == "/oauth/token" }.isEmpty)
        }
    }

    @Test("a cancel after the code exchange revokes the tokens the server issued")
    func cancelAfterTheExchange() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let issued = LockedValue<String?>(nil)
            let holder = LockedValue<Service?>(nil)
            let interceptor = TokenResponseTap { refreshToken in
                issued.set(refreshToken)
                await holder.value?.cancelAuthentication()
            }
            let service = e2e.makeService(browser: alice(), middlewares: [interceptor])
            holder.set(service)
            let guest = try await e2e.signInAsGuest(service)
            await #expect(throws: BrowserSignInError.cancelled) { try await service.authenticate(with: SingleStepMethod.oauth2()) }
            #expect(await service.state == .authenticated(guest))
            let log = await e2e.backEnd.requestLog().filter { $0.listener == .authorization }.map { "\($0.method) \($0.path)" }
            #expect(log == ["GET /oauth/authorize", "POST /oauth/authorize", "POST /oauth/token", "POST /oauth/revoke"])
            // The refresh token the exchange issued no longer works.
            let refreshToken = try #require(issued.value)
            let refresh = try await RawHTTP.refresh(e2e.backEnd.authorizationBaseURL, refreshToken: refreshToken)
            #expect(refresh.status == 400)
        }
    }

    @Test("a redirect URI set at run time goes in the authorization request and the token request")
    func runTimeRedirectURI() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            // Not registered for the demo client: the server's page refuses it, which proves it was sent.
            let opened = LockedValue<URL?>(nil)
            let recording = TamperingBrowser(inner: alice()) { _, _ in
                nil
            } opening: { url in
                opened.set(url)
                return url
            }
            let unregistered = e2e.makeService(browser: recording, redirectURI: URL(string: "sesame-staging://oauth/callback")!)
            await #expect(throws: HeadlessBrowser.UnexpectedPage.self) {
                try await unregistered.authenticate(with: SingleStepMethod.oauth2())
            }
            #expect(queryParameters(of: try #require(opened.value))["redirect_uri"] == "sesame-staging://oauth/callback")
            #expect(await e2e.backEnd.requestLog().filter { $0.path == "/oauth/token" }.isEmpty)
            // A registered one, set at run time, signs in.
            let registered = e2e.makeService(browser: alice(), redirectURI: URL(string: "http://127.0.0.1:8123/callback")!)
            _ = try await registered.authenticate(with: SingleStepMethod.oauth2())
            #expect(await registered.state.isAuthenticated)
        }
    }

    @Test("the loopback browser signs in: it listens on a free port, answers the redirect with a page, and stops")
    func loopbackBrowser() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let page = LockedValue<RawHTTP.Result?>(nil)
            let redirect = LockedValue<URL?>(nil)
            let alice = alice()
            // The "system browser": it signs in on the server's page, then loads the redirect
            // from the loopback listener as a user agent would.
            let browser = LoopbackBrowser { url in
                let redirectURI = try #require(URL(string: queryParameters(of: url)["redirect_uri"] ?? ""))
                let callback = try await alice.authorize(url: url, redirectURI: redirectURI)
                redirect.set(callback)
                page.set(try await RawHTTP.get(callback))
            }
            let service = e2e.makeService(browser: browser, redirectURI: URL(string: "http://127.0.0.1/callback")!)
            let details = try await service.authenticate(with: SingleStepMethod.oauth2())
            #expect(await service.state == .authenticated(details))
            #expect(page.value?.status == 200)
            #expect(page.value?.body.contains("You can close this window") == true)
            let callback = try #require(redirect.value)
            let port = try #require(callback.port)
            #expect(callback.host == "127.0.0.1" && port != 80 && callback.path == "/callback")
            // The listener is gone.
            await #expect(throws: (any Error).self) { try await RawHTTP.get(URL(string: "http://127.0.0.1:\(port)/callback")!) }
            let log = await e2e.backEnd.requestLog().filter { $0.listener == .authorization }.map { "\($0.method) \($0.path)" }
            #expect(log == ["GET /oauth/authorize", "POST /oauth/authorize", "POST /oauth/token"])
        }
    }
}

/// A browser that loads the login page with `page` (the page is open), then leaves it open
/// until dismissed or cancelled; after 20 s the user finishes on it with `user`. It counts
/// dismissals.
final class LingeringBrowser: Browser, Sendable {
    let page: HeadlessBrowser
    let user: HeadlessBrowser
    let pageLoaded = LockedValue(false)
    let userFinished = LockedValue(false)
    let dismissals = LockedValue(0)

    init(page: HeadlessBrowser, user: HeadlessBrowser) {
        self.page = page
        self.user = user
    }

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        _ = try? await page.authorize(url: url, redirectURI: redirectURI)
        pageLoaded.set(true)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if Task.isCancelled { throw BrowserSignInError.cancelled }
            try? await Task.sleep(for: .milliseconds(10))
        }
        userFinished.set(true)
        return try await user.authorize(url: url, redirectURI: redirectURI)
    }

    func dismiss() { dismissals.set(dismissals.value + 1) }
}

/// Reads the refresh token of an authorization-code token response and hands it to `tapped`
/// before the runtime sees the response.
struct TokenResponseTap: ClientMiddleware {
    let tapped: @Sendable (String?) async -> Void

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var sent = Data()
        if let body { sent = try await Data(collecting: body, upTo: 1 << 20) }
        let (response, responseBody) = try await next(request, body == nil ? nil : HTTPBody(sent), baseURL)
        guard request.path == "/oauth/token", String(decoding: sent, as: UTF8.self).contains("grant_type=authorization_code")
        else { return (response, responseBody) }
        var received = Data()
        if let responseBody { received = try await Data(collecting: responseBody, upTo: 1 << 20) }
        let json = try? JSONSerialization.jsonObject(with: received) as? [String: Any]
        await tapped(json?["refresh_token"] as? String)
        return (response, HTTPBody(received))
    }
}
