import Foundation
import Sesame
@testable import SesameOpenID
import Testing

/// Each rule of OpenID Connect Core §3.1.3.7 (and §12.2 on refresh) with a token signed in the
/// test: the valid token passes, and a token breaking one rule is refused with that rule's
/// ``IDTokenRejection``.
@Suite struct IDTokenValidatorTests {
    static let sent = IDTokenExpectations(nonce: "n-0S6_WzA2Mj")

    func validator(_ provider: TestProvider, keys: JWKSCache? = nil, trusted: Set<String> = []) throws -> IDTokenValidator {
        IDTokenValidator(
            issuer: TestProvider.issuer, clientID: TestProvider.clientID,
            keys: try keys ?? KeyServer(provider.jwks()).cache, clockSkew: .seconds(30), trustedAudiences: trusted)
    }

    func rejection(
        _ token: String, _ validator: IDTokenValidator, expecting: IDTokenExpectations = Self.sent
    ) async -> IDTokenRejection? {
        do {
            _ = try await validator.validate(token, expecting: expecting, now: TestProvider.now)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [("RS256", "rsa-1"), ("PS256", "pss-1"), ("ES256", "ec-1")])
    func aValidTokenPassesWithEachAlgorithm(alg: String, kid: String) async throws {
        let provider = try await TestProvider.make()
        let token = try await provider.sign(alg: alg, kid: kid)
        let claims = try await validator(provider).validate(token, expecting: Self.sent, now: TestProvider.now)
        #expect(claims.subject == "user-1")
        #expect(claims.issuer == TestProvider.issuer)
        #expect(claims.authenticationContext == "urn:acr:pwd")
        #expect(claims.authenticatedAt == TestProvider.now.addingTimeInterval(-60))
        #expect(claims.all["nonce"] == .string("n-0S6_WzA2Mj"))
    }

    @Test func unsecuredAndHMACTokensAreRefused() async throws {
        let provider = try await TestProvider.make()
        let validator = try validator(provider)
        #expect(await rejection(try TestProvider.unsecured(), validator) == .algorithm("none"))
        // HS256 keyed with a secret: refused by its `alg`, even when listed as accepted.
        var listing = validator
        listing.algorithms.insert("HS256")
        #expect(await rejection(try await provider.sign(alg: "HS256", kid: "rsa-1"), listing) == .algorithm("HS256"))
    }

    @Test func anAlgorithmOtherThanTheKeysIsRefused() async throws {
        let provider = try await TestProvider.make()
        // Signed PS256 with the key the JWKS publishes for RS256 under `rsa-1`.
        let token = try await provider.sign(alg: "PS256", kid: "rsa-1")
        #expect(await rejection(token, try validator(provider)) == .algorithm("PS256"))
        // Signed ES256 but naming an RSA key without `alg`... the key's type cannot verify it.
        let ecUnderRSA = try await provider.sign(alg: "ES256", kid: "rsa-1")
        #expect(await rejection(ecUnderRSA, try validator(provider)) == .algorithm("ES256"))
    }

    @Test func aTokenSignedWithAnotherKeyIsRefused() async throws {
        let provider = try await TestProvider.make()
        let token = try await provider.sign(kid: "rsa-1", key: provider.otherRSA)
        #expect(await rejection(token, try validator(provider)) == .signature)
    }

    @Test func aTokenThatIsNotAJWSIsMalformed() async throws {
        let provider = try await TestProvider.make()
        let validator = try validator(provider)
        guard case .malformed = await rejection("not.a-token", validator) else {
            Issue.record("a token that is not a JWS is not reported as malformed")
            return
        }
        let noSubject = try await provider.sign(TestProvider.claims(["sub": .null]))
        guard case .malformed = await rejection(noSubject, validator) else {
            Issue.record("a token without sub is not reported as malformed")
            return
        }
    }

    @Test func theIssuerMustBeTheConfiguredOne() async throws {
        let provider = try await TestProvider.make()
        let token = try await provider.sign(TestProvider.claims(["iss": .string("https://evil.example.com")]))
        #expect(
            await rejection(token, try validator(provider))
                == .issuer(expected: TestProvider.issuer, received: "https://evil.example.com"))
    }

    @Test func theAudienceMustNameTheClientAndOnlyTrustedOthers() async throws {
        let provider = try await TestProvider.make()
        let other = try await provider.sign(TestProvider.claims(["aud": .string("another-app")]))
        #expect(await rejection(other, try validator(provider)) == .audience(received: ["another-app"]))
        let several = try await provider.sign(
            TestProvider.claims(["aud": .array([.string("app"), .string("api")]), "azp": .string("app")]))
        #expect(await rejection(several, try validator(provider)) == .audience(received: ["app", "api"]))
        #expect(await rejection(several, try validator(provider, trusted: ["api"])) == nil)
        // Only trusted audiences, but not this client: not for it.
        let notForThisClient = try await provider.sign(TestProvider.claims(["aud": .string("api")]))
        #expect(await rejection(notForThisClient, try validator(provider, trusted: ["api"])) == .audience(received: ["api"]))
    }

    @Test func theAuthorizedPartyMustBeTheClient() async throws {
        let provider = try await TestProvider.make()
        let validator = try validator(provider, trusted: ["api"])
        let otherParty = try await provider.sign(TestProvider.claims(["azp": .string("api")]))
        #expect(await rejection(otherParty, validator) == .authorizedParty(received: "api"))
        let severalWithoutParty = try await provider.sign(TestProvider.claims(["aud": .array([.string("app"), .string("api")])]))
        #expect(await rejection(severalWithoutParty, validator) == .authorizedParty(received: nil))
    }

    @Test func expiryAndIssueTimeHaveTheDeclaredLeeway() async throws {
        let provider = try await TestProvider.make()
        let validator = try validator(provider)
        let now = TestProvider.now.timeIntervalSince1970
        let expired = try await provider.sign(TestProvider.claims(["exp": .number(now - 31)]))
        #expect(await rejection(expired, validator) == .expired(at: Date(timeIntervalSince1970: now - 31)))
        let justExpired = try await provider.sign(TestProvider.claims(["exp": .number(now - 29)]))
        #expect(await rejection(justExpired, validator) == nil)
        let future = try await provider.sign(TestProvider.claims(["iat": .number(now + 31)]))
        #expect(await rejection(future, validator) == .issuedInFuture(at: Date(timeIntervalSince1970: now + 31)))
        let nearlyNow = try await provider.sign(TestProvider.claims(["iat": .number(now + 29)]))
        #expect(await rejection(nearlyNow, validator) == nil)
    }

    @Test func theNonceMustBeTheOneSent() async throws {
        let provider = try await TestProvider.make()
        let validator = try validator(provider)
        let other = try await provider.sign(TestProvider.claims(["nonce": .string("replayed")]))
        #expect(await rejection(other, validator) == .nonce)
        let missing = try await provider.sign(TestProvider.claims(["nonce": .null]))
        #expect(await rejection(missing, validator) == .nonce)
        // A refresh sends no nonce and checks none (OIDC Core §12.2).
        #expect(await rejection(missing, validator, expecting: IDTokenExpectations(subject: "user-1")) == nil)
    }

    @Test func theAccessTokenHashMustMatchWhenPresent() async throws {
        // OIDC Core Appendix A.3's example: this access token's at_hash with RS256.
        #expect(IDTokenValidator.accessTokenHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", alg: "RS256") == "77QmUPtjPfzWtF2AnpK9RQ")
        let provider = try await TestProvider.make()
        let validator = try validator(provider)
        let token = try await provider.sign(TestProvider.claims(["at_hash": .string("77QmUPtjPfzWtF2AnpK9RQ")]))
        var expecting = Self.sent
        expecting.accessToken = "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y"
        #expect(await rejection(token, validator, expecting: expecting) == nil)
        expecting.accessToken = "another-access-token"
        #expect(await rejection(token, validator, expecting: expecting) == .accessTokenHash)
    }

    @Test func authTimeIsCheckedAgainstTheMaxAgeAsked() async throws {
        let provider = try await TestProvider.make()
        let validator = try validator(provider)
        var expecting = Self.sent
        expecting.maxAge = .seconds(20)
        let old = TestProvider.now.addingTimeInterval(-60)
        #expect(await rejection(try await provider.sign(), validator, expecting: expecting) == .authenticationTime(old))
        expecting.maxAge = .seconds(40)  // 40 + 30 s of leeway covers the minute
        #expect(await rejection(try await provider.sign(), validator, expecting: expecting) == nil)
        let missing = try await provider.sign(TestProvider.claims(["auth_time": .null]))
        #expect(await rejection(missing, validator, expecting: expecting) == .authenticationTime(nil))
        // Without max_age, auth_time is not required.
        #expect(await rejection(missing, validator) == nil)
    }

    @Test func acrIsCheckedAgainstTheAcrValuesAsked() async throws {
        let provider = try await TestProvider.make()
        let validator = try validator(provider)
        var expecting = Self.sent
        expecting.acrValues = ["urn:sesame:loa:mfa", "urn:sesame:loa:hwk"]
        let reached = try await provider.sign(TestProvider.claims(["acr": .string("urn:sesame:loa:hwk")]))
        #expect(await rejection(reached, validator, expecting: expecting) == nil)
        let weaker = try await provider.sign(TestProvider.claims(["acr": .string("urn:sesame:loa:pwd")]))
        #expect(
            await rejection(weaker, validator, expecting: expecting)
                == .authenticationContext(requested: expecting.acrValues, received: "urn:sesame:loa:pwd"))
        let missing = try await provider.sign(TestProvider.claims(["acr": .null]))
        #expect(
            await rejection(missing, validator, expecting: expecting)
                == .authenticationContext(requested: expecting.acrValues, received: nil))
        // Without acr_values, acr is not required.
        #expect(await rejection(weaker, validator) == nil)
    }

    @Test func aRefreshKeepsTheSubject() async throws {
        let provider = try await TestProvider.make()
        let validator = try validator(provider)
        let token = try await provider.sign(TestProvider.claims(["sub": .string("user-2"), "nonce": .null]))
        #expect(await rejection(token, validator, expecting: IDTokenExpectations(subject: "user-1")) == .subject)
        // The subject read from the ID token the session holds.
        let previous = try await provider.sign()
        #expect(await rejection(token, validator, expecting: IDTokenExpectations(previousIDToken: previous)) == .subject)
        let same = try await provider.sign(TestProvider.claims(["nonce": .null]))
        #expect(await rejection(same, validator, expecting: IDTokenExpectations(previousIDToken: previous)) == nil)
    }

    @Test func aRejectionsDescriptionNamesNoSecret() async throws {
        let provider = try await TestProvider.make()
        let token = try await provider.sign(TestProvider.claims(["nonce": .string("replayed")]))
        let rejection = try #require(await rejection(token, try validator(provider)))
        #expect(!rejection.description.contains("n-0S6_WzA2Mj"))
        #expect(!rejection.description.contains("replayed"))
        #expect(!rejection.description.contains(token))
        #expect(rejection.description.contains("nonce"))
    }
}
