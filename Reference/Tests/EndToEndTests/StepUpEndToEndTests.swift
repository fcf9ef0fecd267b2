import Foundation
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReferenceSDK
import ReferenceServer
@_spi(Generated) import Sesame
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// RFC 9470 against the reference server's `GET /account/security`, which needs a sign-in
/// that reached `urn:sesame:loa:mfa` within the last 300 seconds: the runtime turns its
/// challenge into ``SesameError/stepUpRequired(operation:challenge:)`` without refreshing,
/// the app signs in again asking for what the challenge named, and the retry succeeds.
@Suite("Step-up (RFC 9470), end to end", .secretScan)
struct StepUpEndToEndTests {
    static let security = OperationRequest(
        RequestDescription(name: "accountSecurity", method: .get, path: "/account/security", authenticated: true))
    static let asked = StepUpChallenge(acrValues: ["urn:sesame:loa:mfa"], maxAge: 300)

    static func alice() -> HeadlessBrowser { HeadlessBrowser(username: "alice", password: "wonderland") }

    @Test("a step-up challenge is a typed error; signing in with its acr_values and max_age makes the retry succeed")
    func stepUpThenRetry() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService(browser: Self.alice())
            let first = try await service.authenticate(with: SingleStepMethod.oauth2())
            await #expect(throws: SesameError.stepUpRequired(operation: "accountSecurity", challenge: Self.asked)) {
                try await service.perform(Self.security)
            }
            // Not a reason to refresh, and the session is as it was.
            #expect(await e2e.backEnd.counters().refreshes == 0)
            #expect(await service.state == .authenticated(first))

            let stepped = try await service.authenticate(
                with: SingleStepMethod.oauth2(), authorization: AuthorizationParameters(stepUp: Self.asked, prompt: [.login]))
            #expect(stepped.uid == first.uid)  // the same account, signed in again
            let answer = try await service.perform(Self.security)
            #expect(answer.status == 200)
            let body = try JSONDecoder().decode([String: JSONValue].self, from: answer.body)
            #expect(body["acr"] == .string("urn:sesame:loa:mfa"))
            let authorize = await e2e.backEnd.requestLog().filter { $0.path == "/oauth/authorize" }
            #expect(authorize.count >= 2)
        }
    }

    @Test("the step-up lasts max_age: after 300 seconds the operation asks again, and a refresh does not help")
    func maxAgeExpires() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService(browser: Self.alice())
            _ = try await service.authenticate(
                with: SingleStepMethod.oauth2(), authorization: AuthorizationParameters(stepUp: Self.asked))
            #expect(try await service.perform(Self.security).status == 200)
            await e2e.advanceTime(by: 301)
            let refreshes = await e2e.backEnd.counters().refreshes
            await #expect(throws: SesameError.stepUpRequired(operation: "accountSecurity", challenge: Self.asked)) {
                try await service.perform(Self.security)
            }
            // The challenge was not taken for a rejection: no refresh was sent for it.
            #expect(await e2e.backEnd.counters().refreshes == refreshes)
            #expect(await service.state.isAuthenticated)
        }
    }

    @Test("a step-up sign-in by another user is accountMismatch: their tokens revoked, alice still signed in")
    func stepUpByAnotherUserChangesNothing() async throws {
        try await withEndToEnd { e2e in
            // Alice signs in; at the step-up, bob types his password at the login page.
            let browser = SwitchingBrowser([Self.alice(), HeadlessBrowser(username: "bob", password: "builder")])
            let service = e2e.makeService(browser: browser)
            let alice = try await service.authenticate(with: SingleStepMethod.oauth2())
            let before = await e2e.backEnd.server.state.counters().revocations
            await #expect(throws: SesameError.accountMismatch(reason: "oauth2 signed in another user than the current one")) {
                try await service.authenticate(
                    with: SingleStepMethod.oauth2(), authorization: AuthorizationParameters(stepUp: Self.asked, prompt: [.login]))
            }
            #expect(await service.state == .authenticated(alice))
            #expect(await e2e.backEnd.server.state.counters().revocations > before)
            // The retry still runs as alice, who has not stepped up.
            await #expect(throws: SesameError.stepUpRequired(operation: "accountSecurity", challenge: Self.asked)) {
                try await service.perform(Self.security)
            }
        }
    }

    @Test("login_hint fills in the login page; prompt=none is answered login_required")
    func signInParametersReachTheServer() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService(browser: Self.alice())
            await #expect(throws: ReferenceSDKError.self) {
                try await service.authenticate(with: SingleStepMethod.oauth2(), authorization: AuthorizationParameters(prompt: [.none]))
            }
            #expect(await service.state == .unauthenticated)
            let page = try await URLSession.shared.data(
                from: URL(
                    string:
                        "\(e2e.backEnd.authorizationBaseURL.absoluteString)/oauth/authorize?response_type=code&client_id=\(BackEnd.clientID)&redirect_uri=sesame-demo%3A%2F%2Foauth%2Fcallback&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&login_hint=ada%40example.com"
                )!)
            #expect(String(decoding: page.0, as: UTF8.self).contains(#"name="username" autocomplete="username" value="ada@example.com""#))
        }
    }
}

/// A browser whose n-th sign-in is done by the n-th person (the last one thereafter).
struct SwitchingBrowser: Browser {
    let people: [HeadlessBrowser]
    let signIns = LockedValue(0)

    init(_ people: [HeadlessBrowser]) { self.people = people }

    func prepareRedirect(to redirectURI: URL) async throws -> URL { redirectURI }

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        let index = signIns.value
        signIns.set(index + 1)
        return try await people[min(index, people.count - 1)].authorize(url: url, redirectURI: redirectURI)
    }
}
