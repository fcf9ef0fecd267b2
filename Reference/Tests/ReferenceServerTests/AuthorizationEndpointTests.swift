import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// `GET/POST /oauth/authorize`: the login page and the redirects of RFC 6749 §4.1.2.
@Suite struct AuthorizationEndpointTests {
    @Test func loginPageCarriesTheRequestInHiddenFieldsOfOneForm() async throws {
        try await Harness.run { h in
            let page = try await h.authorizationPage(Harness.authorizationQuery(state: "a\"<b>&c", scope: "profile notes"))
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.body.components(separatedBy: "<form ").count == 2)
            #expect(page.body.contains("<form id=\"login\" method=\"post\" action=\"/oauth/authorize\">"))
            #expect(page.body.contains("<input name=\"username\""))
            #expect(page.body.contains("<input type=\"password\" name=\"password\""))
            #expect(page.body.contains("<button type=\"submit\" name=\"decision\" value=\"allow\">"))
            #expect(page.body.contains("<button type=\"submit\" name=\"decision\" value=\"deny\">"))
            // HTML-escaped: the state cannot break out of its attribute.
            #expect(page.body.contains("name=\"state\" value=\"a&quot;&lt;b&gt;&amp;c\""))
            #expect(!page.body.contains("a\"<b>"))
            let fields = try LoginForm.hiddenFields(of: page.body)
            #expect(
                fields.map(\.0) == [
                    "response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope",
                ])
            #expect(fields.first { $0.0 == "state" }?.1 == "a\"<b>&c")
            #expect(fields.first { $0.0 == "redirect_uri" }?.1 == "sesame-demo://oauth/callback")
            #expect(fields.first { $0.0 == "scope" }?.1 == "profile notes")
        }
    }

    @Test(arguments: [
        Harness.authorizationQuery(clientID: "unknown-client"),
        Harness.authorizationQuery(clientID: nil),
        Harness.authorizationQuery(redirectURI: "https://evil.example/callback"),
        Harness.authorizationQuery(redirectURI: "sesame-demo://oauth/callback/more"),
        Harness.authorizationQuery(redirectURI: nil),
        Harness.authorizationQuery() + "&client_id=sesame-demo",
    ])
    func badClientOrRedirectURIGetsA400PageAndNoRedirect(query: String) async throws {
        try await Harness.run { h in
            for result in [
                try await h.authorizationPage(query), try await h.postForm("/oauth/authorize", query + "&decision=allow", basic: nil),
            ] {
                #expect(result.status == .badRequest)
                #expect(result.headers[.location] == nil)
                #expect(result.headers[.contentType] == "text/html; charset=utf-8")
                #expect(result.body.contains("Bad request"))
            }
        }
    }

    @Test(arguments: [
        (Harness.authorizationQuery(responseType: "token"), "unsupported_response_type"),
        (Harness.authorizationQuery(responseType: nil), "invalid_request"),
        (Harness.authorizationQuery(challenge: nil), "invalid_request"),
        (Harness.authorizationQuery(method: "plain"), "invalid_request"),
        (Harness.authorizationQuery(method: nil), "invalid_request"),
        (Harness.authorizationQuery(challenge: "too-short"), "invalid_request"),
    ])
    func otherRequestErrorsRedirectWithTheErrorAndState(query: String, error: String) async throws {
        try await Harness.run { h in
            let result = try await h.authorizationPage(query)
            #expect(result.status == .found)
            #expect(result.redirectTarget == "sesame-demo://oauth/callback")
            #expect(result.redirectParameters?["error"] == error)
            #expect(result.redirectParameters?["state"] == "xyz")
            #expect(result.redirectParameters?["code"] == nil)
        }
    }

    @Test func allowWithTheRightPasswordRedirectsWithCodeAndState() async throws {
        try await Harness.run { h in
            let result = try await h.submitLoginPage(try await h.authorizationPage())
            #expect(result.status == .found)
            #expect(result.headers[.cacheControl] == "no-store")
            #expect(result.redirectTarget == "sesame-demo://oauth/callback")
            let parameters = try #require(result.redirectParameters)
            #expect(Set(parameters.keys) == ["code", "state", "iss"])
            #expect(parameters["state"] == "xyz")
            let code = try #require(parameters["code"])
            #expect(code.count == 43)
            #expect(await h.state.issuedSecrets().contains(IssuedSecret(kind: .authorizationCode, value: code)))
            #expect(await h.state.counters().requests("GET /oauth/authorize") == 1)
            #expect(await h.state.counters().requests("POST /oauth/authorize") == 1)
        }
    }

    @Test func redirectURIQueryIsKept() async throws {
        let client = ReferenceServer.Client(id: "web", secret: nil, redirectURIs: ["https://app.example/cb?tenant=7"])
        try await Harness.run(configure: { $0.clients = [client] }) { h in
            let query = Harness.authorizationQuery(clientID: "web", redirectURI: "https://app.example/cb?tenant=7", state: nil)
            let result = try await h.submitLoginPage(try await h.authorizationPage(query))
            let location = try #require(result.headers[.location])
            #expect(location.hasPrefix("https://app.example/cb?tenant=7&code="))
            #expect(result.redirectParameters?["state"] == nil)
        }
    }

    @Test func denyRedirectsWithAccessDenied() async throws {
        try await Harness.run { h in
            let result = try await h.submitLoginPage(try await h.authorizationPage(), password: "", decision: "deny")
            #expect(result.redirectParameters?["error"] == "access_denied")
            #expect(result.redirectParameters?["state"] == "xyz")
            #expect(result.redirectParameters?["code"] == nil)
        }
    }

    @Test func redirectsCarryTheIssuerTheControlAPISets() async throws {
        try await Harness.run { h in
            // RFC 9207: its own issuer, the origin the client reached, on codes and errors alike.
            let origin = h.endpoint.baseURL.absoluteString.trimmingCharacters(in: ["/"])
            let allowed = try await h.submitLoginPage(try await h.authorizationPage())
            #expect(allowed.redirectParameters?["iss"] == origin)
            let denied = try await h.submitLoginPage(try await h.authorizationPage(), password: "", decision: "deny")
            #expect(denied.redirectParameters?["iss"] == origin)

            let wrong = try await h.sendJSON(.post, "/_control/issuer", #"{"mode": "wrong"}"#)
            #expect(wrong.status == .ok)
            let mixedUp = try await h.submitLoginPage(try await h.authorizationPage())
            #expect(mixedUp.redirectParameters?["iss"] == IssuerMode.wrongIssuer)

            await h.state.setIssuerMode(.missing)
            #expect(try await h.send(.get, "/_control/issuer").object()["mode"] as? String == "missing")
            let without = try await h.submitLoginPage(try await h.authorizationPage())
            #expect(without.redirectParameters?["code"] != nil)
            #expect(without.redirectParameters?["iss"] == nil)

            await h.state.reset()
            #expect(await h.state.currentIssuerMode() == .correct)
        }
    }

    @Test func controlCanMakeTheLoginPageDenyConsent() async throws {
        try await Harness.run { h in
            let on = try await h.sendJSON(.post, "/_control/authorization", #"{"denyConsent": true}"#)
            #expect(on.status == .ok)
            #expect(await h.state.isDenyingConsent())
            let denied = try await h.submitLoginPage(try await h.authorizationPage())
            #expect(denied.redirectParameters?["error"] == "access_denied")
            #expect(denied.redirectParameters?["code"] == nil)
            #expect(await h.state.issuedSecrets().filter { $0.kind == .authorizationCode }.isEmpty)

            await h.state.setDenyConsent(false)
            #expect(try await h.send(.get, "/_control/authorization").object()["denyConsent"] as? Bool == false)
            let allowed = try await h.submitLoginPage(try await h.authorizationPage())
            #expect(allowed.redirectParameters?["code"] != nil)

            await h.state.setDenyConsent(true)
            await h.state.reset()
            #expect(await h.state.isDenyingConsent() == false)
        }
    }

    @Test(arguments: [("alice", "builder"), ("nobody", "wonderland"), ("", "")])
    func wrongPasswordShowsThePageAgainWithAnError(username: String, password: String) async throws {
        try await Harness.run { h in
            let result = try await h.submitLoginPage(try await h.authorizationPage(), username: username, password: password)
            #expect(result.status == .ok)
            #expect(result.headers[.location] == nil)
            #expect(result.body.contains("role=\"alert\""))
            #expect(result.body.contains("The user name or password is wrong."))
            // The page does not echo the password back.
            if !password.isEmpty { #expect(!result.body.contains(password)) }
            // The page still works: the right password now gets a code.
            let retry = try await h.submitLoginPage(result)
            #expect(retry.redirectParameters?["code"] != nil)
        }
    }

    @Test func unknownDecisionIsInvalidRequest() async throws {
        try await Harness.run { h in
            let result = try await h.submitLoginPage(try await h.authorizationPage(), decision: "maybe")
            #expect(result.redirectParameters?["error"] == "invalid_request")
            #expect(result.redirectParameters?["state"] == "xyz")
        }
    }
}
