import Foundation
import ReferenceSDK
import SesameTestSupport
import Testing

/// The API and the authorization server on two origins of the reference server, over real
/// HTTP: browser sign-in with authorization code + PKCE through the headless browser, the
/// origin rules read from the server's request log, revocation at sign-out, and signing in
/// to the current account.
@Suite("Two servers, browser sign-in and revocation, end to end", .secretScan)
struct TwoServerEndToEndTests {
    static let redirect = URL(string: "sesame-demo://oauth/callback")!

    func alice(_ action: HeadlessBrowser.Action = .allow) -> HeadlessBrowser {
        HeadlessBrowser(username: "alice", password: "wonderland", action: action)
    }

    @Test("browser sign-in, refresh and sign-out: the token only to the API, client credentials only to the authorization server")
    func originsAndRevocation() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            #expect(e2e.backEnd.authorizationBaseURL != e2e.backEnd.baseURL)
            let store = InMemorySessionStore<AuthenticationDetails>()
            let browser = alice()
            let service = e2e.makeService(store: store, browser: browser)
            let details = try await service.authenticate(with: SingleStepMethod.oauth2())
            #expect(await service.state == .authenticated(details))
            #expect(details.provider == .password)
            _ = try await service.listNotes()
            await e2e.advanceTime(by: 3600)
            _ = try await service.listNotes()
            let credential = try #require(try store.load()?.credential)
            let refreshToken = try #require(credential.refreshToken)

            #expect(await service.unauthenticate() == .revoked)
            #expect(await service.state == .unauthenticated)

            // The headless browser went to the authorization server only, and stopped at the app's scheme.
            let authorization = e2e.backEnd.authorizationBaseURL.absoluteString.trimmingCharacters(in: ["/"])
            #expect(browser.visited.all == ["GET \(authorization)/oauth/authorize", "POST \(authorization)/oauth/authorize"])
            let log = await e2e.backEnd.requestLog()
            #expect(!log.isEmpty)
            for entry in log where entry.listener == .authorization {
                #expect(!entry.bearer, "the access token reached the authorization server: \(entry.method) \(entry.path)")
            }
            for entry in log where entry.listener == .api {
                #expect(!entry.clientAuthentication, "client credentials reached the API: \(entry.method) \(entry.path)")
            }
            let authorizationRequests = log.filter { $0.listener == .authorization }.map { "\($0.method) \($0.path)" }
            #expect(
                authorizationRequests == [
                    "GET /oauth/authorize", "POST /oauth/authorize", "POST /oauth/token", "POST /oauth/token", "POST /oauth/revoke",
                ])
            let tokenRequests = log.filter { $0.listener == .authorization && $0.path == "/oauth/token" }
            #expect(tokenRequests.allSatisfy { $0.clientAuthentication })
            #expect(log.filter { $0.listener == .api }.map(\.path).contains("/auth/logout"))
            // The revoked refresh token no longer works.
            let refresh = try await RawHTTP.refresh(e2e.backEnd.authorizationBaseURL, refreshToken: refreshToken)
            #expect(refresh.status == 400)
        }
    }

    @Test("the password grant goes to the authorization server too")
    func passwordGrantOnTheAuthorizationServer() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let service = e2e.makeService()
            _ = try await service.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
            let log = await e2e.backEnd.requestLog()
            #expect(log.map { "\($0.listener) \($0.method) \($0.path)" } == ["authorization POST /oauth/token", "api GET /me"])
        }
    }

    @Test("denied consent is a typed error that changes nothing")
    func deniedConsent() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let service = e2e.makeService(browser: alice(.deny))
            let guest = try await e2e.signInAsGuest(service)
            // Typed through errors.yaml as the token endpoint's errors are, its description kept.
            let denied = await #expect(throws: ReferenceSDKError.self) { try await service.authenticate(with: SingleStepMethod.oauth2()) }
            guard case .accessDenied(let response)? = denied else {
                Issue.record("expected accessDenied, got \(String(describing: denied))")
                return
            }
            #expect(response.code == "access_denied")
            #expect(response.message == "The user denied the request.")
            #expect(response.category == .client)
            #expect(await service.state == .authenticated(guest))
            // The control API can make the page deny consent even when the user allows it.
            await e2e.backEnd.setDenyConsent(true)
            let allowing = e2e.makeService(browser: alice())
            await #expect(throws: ReferenceSDKError.self) { try await allowing.authenticate(with: SingleStepMethod.oauth2()) }
            #expect(await allowing.state == .unauthenticated)
            #expect(await e2e.backEnd.requestLog().filter { $0.path == "/oauth/token" }.isEmpty)
        }
    }

    @Test("closing the browser on the login page is a typed cancellation that changes nothing")
    func cancelledBrowser() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let service = e2e.makeService(browser: alice(.close))
            let guest = try await e2e.signInAsGuest(service)
            await #expect(throws: BrowserSignInError.cancelled) { try await service.authenticate(with: SingleStepMethod.oauth2()) }
            #expect(await service.state == .authenticated(guest))
            #expect(await service.ongoingAuthentication == nil)
            #expect(await e2e.backEnd.requestLog().filter { $0.path == "/oauth/token" }.isEmpty)
        }
    }

    @Test("a redirect with another state is refused and its code never sent")
    func wrongState() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let forging = TamperingBrowser(inner: alice()) { callback, _ in
                Self.replacing("state", with: "forged", in: callback)
            }
            let service = e2e.makeService(browser: forging)
            await #expect(throws: BrowserSignInError.stateMismatch) { try await service.authenticate(with: SingleStepMethod.oauth2()) }
            #expect(await service.state == .unauthenticated)
            #expect(await e2e.backEnd.requestLog().filter { $0.path == "/oauth/token" }.isEmpty)
        }
    }

    @Test("a code issued for another challenge fails on its verifier (invalid_grant)")
    func wrongVerifier() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            // An attacker's code: the same login, with the attacker's own challenge.
            let injecting = TamperingBrowser(inner: alice()) { callback, url in
                nil
            } opening: { url in
                Self.replacing("code_challenge", with: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbFqKrO7mjxM", in: url)
            }
            let service = e2e.makeService(browser: injecting)
            let error = await #expect(throws: ReferenceSDKError.self) { try await service.authenticate(with: SingleStepMethod.oauth2()) }
            guard case .invalidGrant = error else {
                Issue.record("expected invalid_grant, got \(String(describing: error))")
                return
            }
            #expect(await service.state == .unauthenticated)
            let tokens = await e2e.backEnd.requestLog().filter { $0.path == "/oauth/token" }
            #expect(tokens.count == 1)
        }
    }

    @Test("a code used twice is refused, and the session it gave first is revoked (RFC 6749 §4.1.2)")
    func reusedCode() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let first = LockedValue<URL?>(nil)
            let recording = TamperingBrowser(inner: alice()) { callback, _ in
                first.set(callback)
                return callback
            }
            let service = e2e.makeService(browser: recording)
            let details = try await service.authenticate(with: SingleStepMethod.oauth2())
            let used = try #require(first.value)
            // A second sign-in that gets the first redirect's code back, with the new state.
            let replaying = TamperingBrowser(inner: alice()) { callback, _ in
                let state = queryParameters(of: callback)["state"] ?? ""
                return Self.replacing("state", with: state, in: used)
            }
            let other = e2e.makeService(browser: replaying)
            await #expect(throws: ReferenceSDKError.self) { try await other.authenticate(with: SingleStepMethod.oauth2()) }
            #expect(await other.state == .unauthenticated)
            // The first session's tokens were revoked with the code.
            await #expect(throws: (any Error).self) { try await service.listNotes() }
            #expect(await service.state == .invalid)
            _ = details
        }
    }

    @Test("sign-out still ends unauthenticated when the revocation fails, and says so")
    func failedRevocation() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let service = e2e.makeService(browser: alice())
            _ = try await service.authenticate(with: SingleStepMethod.oauth2())
            await e2e.backEnd.injectFailure(method: "POST", path: "/oauth/revoke", status: 503)
            let result = await service.unauthenticate()
            #expect(await service.state == .unauthenticated)
            let reason = try #require(result.localOnlyReason, "expected localOnly, got \(result)")
            #expect(reason.hasPrefix("revoke: "))
        }
    }

    @Test("a method run into the current account attaches its identity to the same user")
    func currentAccount() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let ada = try await e2e.signInInternal(service, identifier: "ada@example.com")
            let attached = try await service.authenticate(
                with: SingleStepMethod.custom(token: "custom-ada-acme", provider: "acme"), context: .currentAccount)
            #expect(attached.uid == ada.uid)
            #expect(await service.state == .authenticated(attached))
            #expect(try await service.identities().count == 2)
            // An identity that belongs to someone else: refused, nothing changes.
            let other = e2e.makeService()
            _ = try await e2e.signInInternal(other, identifier: "bob@example.com")
            let before = await other.state
            await #expect(throws: ReferenceSDKError.self) {
                try await other.authenticate(
                    with: SingleStepMethod.custom(token: "custom-ada-acme", provider: "acme"), context: .currentAccount)
            }
            #expect(await other.state == before)
        }
    }

    // MARK: Helpers

    static func replacing(_ name: String, with value: String, in url: URL) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = (components.queryItems ?? []).map { $0.name == name ? URLQueryItem(name: name, value: value) : $0 }
        return components.url!
    }
}

/// A browser in front of the headless one that changes the URL it opens or the redirect it
/// returns, as an attacker in the middle would.
struct TamperingBrowser: Browser {
    let inner: HeadlessBrowser
    let redirect: @Sendable (URL, URL) -> URL?
    var opening: @Sendable (URL) -> URL = { $0 }

    init(inner: HeadlessBrowser, redirect: @escaping @Sendable (URL, URL) -> URL?, opening: @escaping @Sendable (URL) -> URL = { $0 }) {
        self.inner = inner
        self.redirect = redirect
        self.opening = opening
    }

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        let callback = try await inner.authorize(url: opening(url), redirectURI: redirectURI)
        return redirect(callback, url) ?? callback
    }
}
