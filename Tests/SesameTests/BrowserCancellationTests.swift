import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// Cancelling a browser sign-in: `cancelAuthentication()` and the cancellation of the
/// sign-in's task close the browser at once, the code is never exchanged after the cancel,
/// and tokens issued to a sign-in that is then cancelled are revoked; the state never changes.
@Suite struct BrowserCancellationTests {
    let transport = TwoServerTransport()
    let clock = ManualClock()
    let logs = LogCapture()
    /// What the interceptor does after a request came back: set by a test.
    let afterRequest = LockedValue<(@Sendable (HTTPRequest) async -> Void)?>(nil)

    func service(browser: any Browser) -> AuthenticationService<TwoServerSchema> {
        let clock = self.clock
        let afterRequest = self.afterRequest
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                middlewares: [Interceptor { await afterRequest.value?($0) }],
                now: { clock.now }, logger: logs.logger(), receivesServerEvents: false, browser: browser))
    }

    /// A page that the user finishes after `patience`, with a code the fake authorization
    /// server issued for the request's challenge.
    func page(patience: Duration = .seconds(20), ignoresCancellation: Bool = false) -> OpenPageBrowser {
        let transport = self.transport
        return OpenPageBrowser(patience: patience, ignoresCancellation: ignoresCancellation) { url in
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            return URL(string: "com.example.app://oauth/callback?code=\(code)&state=\(query["state"] ?? "")")!
        }
    }

    /// Signs in with the password grant first, so that a test can check that nothing changes.
    func signedIn(_ service: AuthenticationService<TwoServerSchema>) async throws -> (TestDetails, Credential) {
        let details = try await service.authenticate(with: TwoServerMethod.password)
        return (details, try #require(await service.session?.credential))
    }

    @Test func cancelAuthenticationClosesAnOpenBrowserAtOnceAndSendsNothing() async throws {
        let browser = page()
        let service = service(browser: browser)
        let (details, credential) = try await signedIn(service)
        let sentBefore = await transport.sent.count
        let signIn = Task { try await service.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await poll { browser.opened.value != nil })
        await service.cancelAuthentication()
        // Without the dismissal the call would last until the user finished on the page (20 s).
        await #expect(throws: BrowserSignInError.cancelled) { try await signIn.value }
        #expect(browser.dismissals.value == 1)
        #expect(!browser.finished.value)
        #expect(await service.state == .authenticated(details))
        #expect(await service.session?.credential == credential)
        #expect(await service.ongoingAuthentication == nil)
        #expect(await transport.sent.count == sentBefore)
    }

    @Test func cancellingTheSignInsTaskClosesTheBrowserToo() async throws {
        let browser = page()
        let service = service(browser: browser)
        let signIn = Task { try await service.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await poll { browser.opened.value != nil })
        signIn.cancel()
        await #expect(throws: BrowserSignInError.cancelled) { try await signIn.value }
        #expect(browser.dismissals.value == 1)
        #expect(await service.state == .unauthenticated)
        #expect(await service.ongoingAuthentication == nil)
        #expect(await transport.sent.isEmpty)
    }

    @Test func aCodeTheBrowserBringsBackAfterTheCancelIsNeverExchanged() async throws {
        // A browser that can close nothing: it ignores the dismissal and its task's
        // cancellation, and comes back with a code a moment later (2 s: long enough that a
        // loaded machine's cancel path never takes longer; 300 ms flaked under a load of 14).
        let browser = page(patience: .seconds(2), ignoresCancellation: true)
        let service = service(browser: browser)
        let signIn = Task { try await service.authenticate(with: TwoServerMethod.oauth2) }
        #expect(await poll { browser.opened.value != nil })
        await service.cancelAuthentication()
        await #expect(throws: BrowserSignInError.cancelled) { try await signIn.value }
        #expect(!browser.finished.value, "the sign-in waited for the page")
        #expect(await poll { browser.finished.value })
        // The late redirect went nowhere: give a token request every chance to show up.
        try await Task.sleep(for: .milliseconds(100))
        #expect(await transport.sent.isEmpty)
        #expect(await service.state == .unauthenticated)
    }

    @Test func aCancelDuringTheCodeExchangeRevokesTheIssuedTokens() async throws {
        let service = service(browser: page(patience: .zero))
        let (details, credential) = try await signedIn(service)
        afterRequest.set { request in
            if request.path == "/oauth/token" { await service.cancelAuthentication() }
        }
        await #expect(throws: BrowserSignInError.cancelled) { try await service.authenticate(with: TwoServerMethod.oauth2) }
        try await expectRevokedAfterExchange(keeping: credential)
        #expect(await service.state == .authenticated(details))
        #expect(await service.session?.credential == credential)
    }

    @Test func cancellingTheTaskDuringTheCodeExchangeRevokesTheIssuedTokens() async throws {
        let service = service(browser: page(patience: .zero))
        let (details, credential) = try await signedIn(service)
        let task = LockedValue<Task<TestDetails, any Error>?>(nil)
        afterRequest.set { request in
            guard request.path == "/oauth/token" else { return }
            while task.value == nil { await Task.yield() }
            task.value?.cancel()
        }
        let signIn = Task { try await service.authenticate(with: TwoServerMethod.oauth2) }
        task.set(signIn)
        await #expect(throws: BrowserSignInError.cancelled) { try await signIn.value }
        try await expectRevokedAfterExchange(keeping: credential)
        #expect(await service.state == .authenticated(details))
    }

    @Test func aCancelWhileTheDetailsAreFetchedRevokesTheIssuedTokens() async throws {
        let service = service(browser: page(patience: .zero))
        let (details, credential) = try await signedIn(service)
        let exchanged = LockedValue(false)
        afterRequest.set { request in
            if request.path == "/oauth/token" { exchanged.set(true) }
            if request.path == "/me", exchanged.value { await service.cancelAuthentication() }
        }
        await #expect(throws: BrowserSignInError.cancelled) { try await service.authenticate(with: TwoServerMethod.oauth2) }
        let sent = await transport.sent.map { "\($0.method) \($0.path)" }
        #expect(sent.suffix(3) == ["POST /oauth/token", "GET /me", "POST /oauth/revoke"])
        #expect(await service.state == .authenticated(details))
        #expect(await service.session?.credential == credential)
    }

    /// The last two requests are the code exchange and the revocation of the refresh token
    /// it issued (not the session's), and no token is logged.
    private func expectRevokedAfterExchange(keeping credential: Credential) async throws {
        let sent = await transport.sent
        #expect(sent.suffix(2).map { "\($0.method) \($0.path)" } == ["POST /oauth/token", "POST /oauth/revoke"])
        let revoke = try #require(sent.last)
        let revoked = try #require(formFields(revoke.body)["token"])
        #expect(revoked != credential.refreshToken)
        #expect(formFields(revoke.body)["token_type_hint"] == "refresh_token")
        #expect(!logs.text.contains(revoked))
        #expect(logs.text.contains("the cancelled sign-in's tokens (token) were revoked"))
    }
}

/// A login page that stays open until the user finishes on it, after `patience`, with the
/// redirect `finish` makes of the authorization URL. It counts the runtime's dismissals. It
/// gives up when its task is cancelled (``BrowserSignInError/cancelled``), unless it
/// `ignoresCancellation`, as a browser that cannot close its page would.
final class OpenPageBrowser: Browser, Sendable {
    let patience: Duration
    let ignoresCancellation: Bool
    let finish: @Sendable (URL) async -> URL
    let opened = LockedValue<URL?>(nil)
    let dismissals = LockedValue(0)
    /// Whether the user finished on the page (the browser returned its redirect).
    let finished = LockedValue(false)

    init(patience: Duration, ignoresCancellation: Bool, finish: @escaping @Sendable (URL) async -> URL) {
        self.patience = patience
        self.ignoresCancellation = ignoresCancellation
        self.finish = finish
    }

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        opened.set(url)
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            if !ignoresCancellation, Task.isCancelled { throw BrowserSignInError.cancelled }
            try? await Task.sleep(for: .milliseconds(5))
        }
        let callback = await finish(url)
        finished.set(true)
        return callback
    }

    func dismiss() {
        dismissals.set(dismissals.value + 1)
    }
}

/// Calls `after` with each request once its response came back, before handing it on.
struct Interceptor: ClientMiddleware {
    let after: @Sendable (HTTPRequest) async -> Void

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let answer = try await next(request, body, baseURL)
        await after(request)
        return answer
    }
}
