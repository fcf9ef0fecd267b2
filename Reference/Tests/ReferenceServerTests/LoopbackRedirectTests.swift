import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// A loopback redirect URI registered without a port (`http://127.0.0.1/callback`) is
/// accepted with any port, as RFC 8252 §7.3 requires; nothing else is loosened.
@Suite struct LoopbackRedirectTests {
    @Test(arguments: ["http://127.0.0.1/callback", "http://127.0.0.1:51234/callback", "http://127.0.0.1:1/callback"])
    func anyPortOfTheRegisteredLoopbackURIGetsTheLoginPage(redirectURI: String) async throws {
        try await Harness.run { h in
            let page = try await h.authorizationPage(Harness.authorizationQuery(redirectURI: redirectURI))
            #expect(page.status == .ok)
            let fields = try LoginForm.hiddenFields(of: page.body)
            #expect(fields.first { $0.0 == "redirect_uri" }?.1 == redirectURI)
        }
    }

    @Test(arguments: [
        "http://127.0.0.1:51234/callback/more", "http://127.0.0.1:51234/other", "http://localhost:51234/callback",
        "https://127.0.0.1:51234/callback", "http://user@127.0.0.1:51234/callback", "http://127.0.0.1:51234/callback?x=1",
        "http://127.0.0.2:51234/callback",
    ])
    func otherLoopbackURIsAreRefused(redirectURI: String) async throws {
        try await Harness.run { h in
            let page = try await h.authorizationPage(Harness.authorizationQuery(redirectURI: redirectURI))
            #expect(page.status == .badRequest)
            #expect(page.headers[.location] == nil)
        }
    }
}
