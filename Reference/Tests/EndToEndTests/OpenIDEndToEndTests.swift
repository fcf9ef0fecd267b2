import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReferenceSDK
import ReferenceServer
import Sesame
import SesameOpenID
import SesameTestSupport
import Testing

/// OpenID Connect over real HTTP against the reference server as the provider: its discovery
/// document names the issuer and the JWKS, the runtime validates the code exchange's and the
/// refresh's ID tokens against keys fetched from it, and every bad token the control API can
/// make is refused with its ``IDTokenRejection``, leaving the state as it was and no token
/// behind. ID tokens and nonces are among the server's issued secrets, so the secret scan
/// looks for them.
@Suite("OpenID Connect, end to end", .secretScan)
struct OpenIDEndToEndTests {
    static let openID = SingleStepMethod.oauth2(scope: "openid profile")

    static func alice() -> HeadlessBrowser { HeadlessBrowser(username: "alice", password: "wonderland") }

    /// The issuer and the `jwks_uri` of the server's discovery document.
    static func discover(_ e2e: EndToEnd) async throws -> (issuer: String, jwks: URL) {
        let url = e2e.backEnd.authorizationBaseURL.appendingPathComponent(".well-known/openid-configuration")
        let (data, _) = try await URLSession.shared.data(from: url)
        let document = try JSONDecoder().decode([String: JSONValue].self, from: data)
        guard case .string(let issuer)? = document["issuer"], case .string(let jwks)? = document["jwks_uri"],
            let jwksURL = URL(string: jwks)
        else { throw DiscoveryFailed() }
        return (issuer, jwksURL)
    }

    struct DiscoveryFailed: Error {}

    /// A validator of the server's tokens for the demo client, with keys fetched over HTTP.
    static func validator(_ e2e: EndToEnd) async throws -> IDTokenValidator {
        let discovered = try await discover(e2e)
        return IDTokenValidator(issuer: discovered.issuer, clientID: BackEnd.clientID, keys: JWKSCache(url: discovered.jwks))
    }

    static func jwksRequests(_ e2e: EndToEnd) async -> Int {
        await e2e.backEnd.counters().requests("GET /.well-known/jwks.json")
    }

    static func control(_ e2e: EndToEnd, _ path: String, json: String) async throws {
        var request = URLRequest(url: e2e.backEnd.baseURL.appendingPathComponent("_control/openid/" + path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("a sign-in's ID token is validated against the JWKS fetched over HTTP, RS256 and ES256, fetched once")
    func signInValidated() async throws {
        try await withEndToEnd { e2e in
            let validator = try await Self.validator(e2e)
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, browser: Self.alice(), idTokenValidator: validator)
            let details = try await service.authenticate(with: Self.openID)
            let idToken = try #require(try store.load()?.credential.idToken)
            let claims = try await validator.validate(idToken, expecting: IDTokenExpectations(), now: e2e.clock.now)
            #expect(claims.subject == details.uid)
            #expect(await validator.keys.fetchCount == 1)

            try await Self.control(e2e, "algorithm", json: #"{"algorithm":"ES256"}"#)
            _ = await service.unauthenticate()
            _ = try await service.authenticate(with: Self.openID)
            #expect(await service.state.isAuthenticated)
            let header = try #require(try store.load()?.credential.idToken?.split(separator: ".").first)
            #expect(String(decoding: Base64URLTestDecoding.decode(String(header)), as: UTF8.self).contains(#""alg":"ES256""#))
            // One fetch served both keys: the cache and the server agree.
            #expect(await validator.keys.fetchCount == 1)
            #expect(await Self.jwksRequests(e2e) == 1)
        }
    }

    @Test("JWKSCache(url:) refuses a status other than 200 and a set larger than its maximum size")
    func jwksFetchFailures() async throws {
        try await withEndToEnd { e2e in
            let discovered = try await Self.discover(e2e)
            let missing = JWKSCache(url: e2e.backEnd.authorizationBaseURL.appendingPathComponent("no-such-jwks.json"))
            let small = JWKSCache(url: discovered.jwks, maximumSize: 200)  // the set is about 700 bytes
            let fits = JWKSCache(url: discovered.jwks, maximumSize: 4096)
            for (keys, expected) in [(missing, "URLError"), (small, "JWKSTooLarge"), (fits, nil)] {
                let validator = IDTokenValidator(issuer: discovered.issuer, clientID: BackEnd.clientID, keys: keys)
                let token = try await Self.someIDToken(e2e)
                do {
                    _ = try await validator.validate(token, expecting: IDTokenExpectations(), now: e2e.clock.now)
                    #expect(expected == nil)
                } catch {
                    guard case .keysUnavailable(let reason)? = error as? IDTokenRejection, let expected else {
                        Issue.record("unexpected \(error)")
                        continue
                    }
                    #expect(reason.contains(expected), "\(reason)")
                }
            }
        }
    }

    /// A fresh, good ID token of the server, from a sign-in whose validator accepts anything.
    static func someIDToken(_ e2e: EndToEnd) async throws -> String {
        let store = InMemorySessionStore<AuthenticationDetails>()
        let recorder = IDTokenKeeper()
        let service = e2e.makeService(store: store, browser: alice(), idTokenValidator: recorder)
        _ = try await service.authenticate(with: openID)
        return try #require(recorder.kept.value)
    }

    /// Accepts any ID token and keeps the last one.
    final class IDTokenKeeper: IDTokenValidating, Sendable {
        let kept = LockedValue<String?>(nil)
        func validateIDToken(_ idToken: String, expecting: IDTokenExpectations, now: Date) async throws -> String {
            kept.set(idToken)
            return "kept"
        }
    }

    /// Each fault of the control API and whether a rejection is the one it must cause.
    static let faults: [(fault: String, matches: @Sendable (IDTokenRejection) -> Bool)] = [
        ("signature", { $0 == .signature }),
        ("aud", { $0 == .audience(received: ["another-client"]) }),
        ("iss", { if case .issuer(_, let received) = $0 { received.hasSuffix("/not-this-issuer") } else { false } }),
        ("exp", { if case .expired = $0 { true } else { false } }),
        ("nonce", { $0 == .nonce }),
        ("none", { $0 == .algorithm("none") }),
        ("kid", { if case .unknownKey(let kid) = $0 { kid?.hasPrefix("unknown-") == true } else { false } }),
        ("at_hash", { $0 == .accessTokenHash }),
    ]

    @Test(
        "each bad ID token is refused with its rejection; nothing changes and the exchange's tokens are revoked",
        arguments: 0..<8)
    func badTokenRefused(index: Int) async throws {
        let (fault, matches) = Self.faults[index]
        try await withEndToEnd { e2e in
            let validator = try await Self.validator(e2e)
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, browser: Self.alice(), idTokenValidator: validator)
            try await Self.control(e2e, "next-id-token", json: #"{"fault":"\#(fault)"}"#)
            let revocationsBefore = await e2e.backEnd.server.state.counters().revocations
            do {
                _ = try await service.authenticate(with: Self.openID)
                Issue.record("the \(fault) fault was accepted")
            } catch let rejection as IDTokenRejection {
                #expect(matches(rejection), "\(fault): \(rejection)")
            } catch {
                Issue.record("\(fault): not an IDTokenRejection: \(error)")
            }
            #expect(await service.state == .unauthenticated)
            #expect(try store.load() == nil)
            #expect(await e2e.backEnd.server.state.counters().revocations > revocationsBefore)
            // The next sign-in gets a good token: the fault applied once.
            _ = try await service.authenticate(with: Self.openID)
            #expect(await service.state.isAuthenticated)
        }
    }

    @Test("key rotation: an unknown kid causes exactly one JWKS re-fetch, then the sign-in succeeds")
    func keyRotation() async throws {
        try await withEndToEnd { e2e in
            let validator = try await Self.validator(e2e)
            let service = e2e.makeService(browser: Self.alice(), idTokenValidator: validator)
            _ = try await service.authenticate(with: Self.openID)
            #expect(await Self.jwksRequests(e2e) == 1)
            _ = await service.unauthenticate()
            try await Self.control(e2e, "rotate-keys", json: "{}")
            _ = try await service.authenticate(with: Self.openID)
            #expect(await service.state.isAuthenticated)
            #expect(await Self.jwksRequests(e2e) == 2)
            #expect(await validator.keys.fetchCount == 2)
        }
    }

    @Test("step-up: the challenge's acr_values are asked, the ID token's acr is checked against them, and the retry succeeds")
    func stepUpChecksTheACR() async throws {
        try await withEndToEnd { e2e in
            let validator = try await Self.validator(e2e)
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, browser: Self.alice(), idTokenValidator: validator)
            let first = try await service.authenticate(with: Self.openID)
            let challenge: StepUpChallenge
            do {
                _ = try await service.perform(StepUpEndToEndTests.security)
                Issue.record("the operation did not ask for a step-up")
                return
            } catch SesameError.stepUpRequired(_, let asked) {
                challenge = asked
            }
            _ = try await service.authenticate(with: Self.openID, authorization: AuthorizationParameters(stepUp: challenge))
            let idToken = try #require(try store.load()?.credential.idToken)
            let claims = try await validator.validate(idToken, expecting: IDTokenExpectations(), now: e2e.clock.now)
            #expect(claims.authenticationContext == "urn:sesame:loa:mfa")
            #expect(claims.subject == first.uid)
            #expect(try await service.perform(StepUpEndToEndTests.security).status == 200)

            // A class the server does not support is answered with urn:sesame:loa:pwd: refused.
            let before = try #require(try store.load()?.credential)
            do {
                _ = try await service.authenticate(
                    with: Self.openID, authorization: AuthorizationParameters(acrValues: ["urn:example:unsupported"]))
                Issue.record("an acr other than the ones asked was accepted")
            } catch let rejection as IDTokenRejection {
                #expect(rejection == .authenticationContext(requested: ["urn:example:unsupported"], received: "urn:sesame:loa:pwd"))
            }
            #expect(try store.load()?.credential == before)
            #expect(await service.state.isAuthenticated)
        }
    }

    @Test("a refresh's ID token is validated: a good one replaces the session's, a bad one fails the refresh")
    func refreshValidated() async throws {
        try await withEndToEnd { e2e in
            let validator = try await Self.validator(e2e)
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, browser: Self.alice(), idTokenValidator: validator)
            _ = try await service.authenticate(with: Self.openID)
            let first = try #require(try store.load()?.credential)

            await e2e.advanceTime(by: 3601)
            _ = try await service.me()
            let refreshed = try #require(try store.load()?.credential)
            #expect(refreshed.accessToken != first.accessToken)
            #expect(refreshed.idToken != nil && refreshed.idToken != first.idToken)
            #expect(await e2e.backEnd.counters().refreshes == 1)

            try await Self.control(e2e, "next-id-token", json: #"{"fault":"at_hash"}"#)
            await e2e.advanceTime(by: 3601)
            await #expect(throws: (any Error).self) { try await service.me() }
            // The session keeps the credential it had.
            #expect(try store.load()?.credential.idToken == refreshed.idToken)
        }
    }
}

/// Decodes base64url without padding, for reading a JWS header in a test.
enum Base64URLTestDecoding {
    static func decode(_ text: String) -> Data {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64) ?? Data()
    }
}
