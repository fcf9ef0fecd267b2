import Foundation
@_spi(Generated) @testable import Sesame
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// The redirect URI at run time: the configuration's replaces the schema's, the browser may
/// prepare another (a loopback one with its port), and the authorization request, the token
/// request and the check of the redirect all use the one prepared.
@Suite struct RedirectURITests {
    let transport = TwoServerTransport()
    let logs = LogCapture()

    func service(browser: any Browser, redirectURI: URL? = nil) -> AuthenticationService<TwoServerSchema> {
        AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                logger: logs.logger(), receivesServerEvents: false, browser: browser, redirectURI: redirectURI))
    }

    /// A browser that signs in and redirects to `answer(redirect_uri)` with the code.
    func signingIn(
        prepare: @escaping @Sendable (URL) -> URL = { $0 }, answer: @escaping @Sendable (String) -> String = { $0 }
    ) -> PreparingBrowser {
        let transport = self.transport
        return PreparingBrowser(prepare: prepare) { url, redirectURI in
            let query = queryParameters(of: url)
            let code = await transport.issueCode(challenge: query["code_challenge"] ?? "")
            let target = answer(query["redirect_uri"] ?? "")
            return URL(string: "\(target)?code=\(code)&state=\(query["state"] ?? "")")!
        }
    }

    private func tokenRequestRedirectURI() async throws -> String? {
        let token = try #require(await transport.sent.first { $0.url == "https://idp.test/oauth/token" })
        return formFields(token.body)["redirect_uri"]
    }

    @Test func theConfigurationsRedirectURIReplacesTheSchemas() async throws {
        let browser = signingIn()
        let service = service(browser: browser, redirectURI: URL(string: "com.example.app.staging://oauth/callback")!)
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let opened = try #require(browser.opened.value)
        #expect(queryParameters(of: opened.url)["redirect_uri"] == "com.example.app.staging://oauth/callback")
        #expect(opened.redirectURI.absoluteString == "com.example.app.staging://oauth/callback")
        #expect(try await tokenRequestRedirectURI() == "com.example.app.staging://oauth/callback")
    }

    @Test func aRedirectToTheSchemasURIIsRefusedOnceTheConfigurationReplacedIt() async throws {
        let browser = signingIn(answer: { _ in "com.example.app://oauth/callback" })
        let service = service(browser: browser, redirectURI: URL(string: "com.example.app.staging://oauth/callback")!)
        await #expect(throws: BrowserSignInError.malformedRedirect(reason: "it is not a URL of the redirect URI")) {
            try await service.authenticate(with: TwoServerMethod.oauth2)
        }
        #expect(await transport.sent.isEmpty)
        #expect(await service.state == .unauthenticated)
    }

    @Test func theURITheBrowserPreparedIsSentAndMatched() async throws {
        // As a loopback browser does: the port it listens on, chosen when it starts listening.
        let loopback = signingIn(prepare: { uri in
            URL(string: uri.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "127.0.0.1:4567"))!
        })
        let service = service(browser: loopback, redirectURI: URL(string: "http://127.0.0.1/callback")!)
        _ = try await service.authenticate(with: TwoServerMethod.oauth2)
        let opened = try #require(loopback.opened.value)
        #expect(queryParameters(of: opened.url)["redirect_uri"] == "http://127.0.0.1:4567/callback")
        #expect(opened.redirectURI.absoluteString == "http://127.0.0.1:4567/callback")
        #expect(try await tokenRequestRedirectURI() == "http://127.0.0.1:4567/callback")

        // A redirect to another port is not the redirect URI: refused, its code never sent.
        let otherPort = signingIn(
            prepare: { _ in URL(string: "http://127.0.0.1:4567/callback")! }, answer: { _ in "http://127.0.0.1:4568/callback" })
        let refused = self.service(browser: otherPort, redirectURI: URL(string: "http://127.0.0.1/callback")!)
        let sentBefore = await transport.sent.count
        await #expect(throws: BrowserSignInError.malformedRedirect(reason: "it is not a URL of the redirect URI")) {
            try await refused.authenticate(with: TwoServerMethod.oauth2)
        }
        #expect(await transport.sent.count == sentBefore)
    }

    @Test func aBrowserThatCannotPrepareFailsTheSignInBeforeAnythingIsSent() async throws {
        let failing = PreparingBrowser(prepare: { _ in nil }) { _, _ in URL(string: "x://never")! }
        let service = service(browser: failing)
        await #expect(throws: LoopbackBrowserError.cannotListen(reason: "no port")) {
            try await service.authenticate(with: TwoServerMethod.oauth2)
        }
        #expect(failing.opened.value == nil)
        #expect(await transport.sent.isEmpty)
    }
}

/// A browser whose `prepareRedirect(to:)` returns `prepare(redirectURI)` (nil: it cannot
/// listen), and whose page answers with `answer(url, redirectURI)`.
final class PreparingBrowser: Browser, Sendable {
    let prepare: @Sendable (URL) -> URL?
    let answer: @Sendable (URL, URL) async -> URL
    /// The authorization request and the redirect URI `authorize` was called with.
    let opened = LockedValue<(url: URL, redirectURI: URL)?>(nil)

    init(prepare: @escaping @Sendable (URL) -> URL?, answer: @escaping @Sendable (URL, URL) async -> URL) {
        self.prepare = prepare
        self.answer = answer
    }

    func prepareRedirect(to redirectURI: URL) async throws -> URL {
        guard let prepared = prepare(redirectURI) else { throw LoopbackBrowserError.cannotListen(reason: "no port") }
        return prepared
    }

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        opened.set((url, redirectURI))
        return await answer(url, redirectURI)
    }
}
