import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReferenceSDK
import ReferenceServer
import Sesame
import SesameTestSupport
import Testing

/// Schema/'s `userinfo` operation, sdk.yaml's `openID.userInfo`, against the reference
/// server's UserInfo endpoint (OpenID Connect Core §5.3) on its own authorization origin: the
/// generated operation sends the access token of the generated `openid` sign-in there and
/// returns the typed claims, and the runtime refuses a response whose `sub` is not the ID
/// token's (§5.3.2) with ``UserInfoRejection``, nothing returned and nothing changed.
@Suite("Schema/'s userinfo operation, end to end", .secretScan)
struct SchemaUserInfoEndToEndTests {
    static func alice() -> HeadlessBrowser { HeadlessBrowser(username: "alice", password: "wonderland") }

    static func userInfoRequests(_ e2e: EndToEnd) async -> Int {
        await e2e.backEnd.counters().requests("GET /userinfo")
    }

    @Test("the generated userinfo operation returns the claims of the openid sign-in's user, typed")
    func returnsTheClaims() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let service = e2e.makeService(browser: Self.alice())
            let details = try await service.authenticate(with: SingleStepMethod.openid(scope: "openid profile email"))
            let idToken = try #require(try await service.idTokenClaims())
            let info = try await service.userinfo()
            #expect(info.sub == idToken.sub)
            #expect(info.sub == details.uid)
            #expect(info.name == "Alice")
            #expect(info.email == "alice@example.com")
            #expect(await Self.userInfoRequests(e2e) == 1)
            // Without the email scope, no email (OpenID Connect Core §5.4).
            _ = await service.unauthenticate()
            _ = try await service.authenticate(with: SingleStepMethod.openid())
            let profileOnly = try await service.userinfo()
            #expect(profileOnly.sub == details.uid)
            #expect(profileOnly.email == nil)
        }
    }

    @Test("a UserInfo response with another sub fails with UserInfoRejection, returns nothing and changes nothing")
    func anotherSubjectIsRefused() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, browser: Self.alice())
            let details = try await service.authenticate(with: SingleStepMethod.openid())
            let before = try #require(try store.load())
            try await OpenIDEndToEndTests.control(e2e, "next-userinfo", json: #"{"fault":"sub"}"#)
            await #expect(throws: UserInfoRejection.subjectMismatch(operation: "userinfo")) {
                _ = try await service.userinfo()
            }
            // The server did answer (the response was refused, not the request).
            #expect(await Self.userInfoRequests(e2e) == 1)
            #expect(await service.state == .authenticated(details))
            #expect(try store.load() == before)
            // The fault was the next response's only: the following one is used.
            #expect(try await service.userinfo().sub == details.uid)
        }
    }

    @Test("a UserInfo response without a sub is a decoding error, returns nothing and changes nothing")
    func noSubjectIsMalformed() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let service = e2e.makeService(browser: Self.alice())
            let details = try await service.authenticate(with: SingleStepMethod.openid())
            try await OpenIDEndToEndTests.control(e2e, "next-userinfo", json: #"{"fault":"no-sub"}"#)
            await #expect(
                throws: SesameError.decoding(
                    operation: "userinfo", reason: "$.sub: required string claim is missing (OpenID Connect Core §5.3.2)")
            ) {
                _ = try await service.userinfo()
            }
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("a session without a validated ID token gets no UserInfo claims: there is no sub to check them against")
    func noIDTokenNoClaims() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let service = e2e.makeService(browser: Self.alice())
            // oauth2 is no OpenID Connect sign-in in Schema/: with the openid scope the server
            // issues an ID token, but the runtime neither validates nor keeps it.
            let details = try await service.authenticate(with: SingleStepMethod.oauth2(scope: "openid profile"))
            #expect(try await service.idTokenClaims() == nil)
            await #expect(throws: UserInfoRejection.noIDToken(operation: "userinfo")) {
                _ = try await service.userinfo()
            }
            // Refused before sending: no request reached the endpoint.
            #expect(await Self.userInfoRequests(e2e) == 0)
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("the UserInfo endpoint: named by discovery, 401 without or with an unknown token, 403 without the openid scope")
    func theEndpoint() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let base = e2e.backEnd.authorizationBaseURL
            let (data, _) = try await URLSession.shared.data(from: base.appendingPathComponent(".well-known/openid-configuration"))
            let document = try JSONDecoder().decode([String: JSONValue].self, from: data)
            #expect(document["userinfo_endpoint"] == .string(e2e.backEnd.issuer + "/userinfo"))

            func get(_ authorization: String?) async throws -> (status: Int?, challenge: String?) {
                var request = URLRequest(url: base.appendingPathComponent("userinfo"))
                request.setValue(authorization, forHTTPHeaderField: "Authorization")
                let (_, response) = try await URLSession.shared.data(for: request)
                let http = response as? HTTPURLResponse
                return (http?.statusCode, http?.value(forHTTPHeaderField: "WWW-Authenticate"))
            }
            // No token: RFC 6750 §3.1's bare challenge, with no error code.
            let missing = try await get(nil)
            #expect(missing.status == 401)
            #expect(missing.challenge == #"Bearer realm="sesame""#)
            let unknown = try await get("Bearer not-a-token-it-issued")
            #expect(unknown.status == 401)
            #expect(unknown.challenge?.contains(#"error="invalid_token""#) == true)
            // A token of a sign-in that did not ask for openid: 403 insufficient_scope. The SDK
            // no longer sends it (no ID token: refused before sending), so the test does.
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, browser: Self.alice())
            _ = try await service.authenticate(with: SingleStepMethod.oauth2())
            let accessToken = try #require(try store.load()?.credential.accessToken)
            let plain = try await get("Bearer " + accessToken)
            #expect(plain.status == 403)
            #expect(plain.challenge?.contains(#"error="insufficient_scope""#) == true)
            await #expect(throws: UserInfoRejection.noIDToken(operation: "userinfo")) { _ = try await service.userinfo() }
        }
    }
}
