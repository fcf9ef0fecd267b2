import Foundation
import Sesame
@testable import SesameOpenID
import Testing

/// The provider's keys: fetched once, re-fetched once on an unknown `kid` (key rotation).
@Suite struct JWKSCacheTests {
    func validator(_ keys: JWKSCache) -> IDTokenValidator {
        IDTokenValidator(issuer: TestProvider.issuer, clientID: TestProvider.clientID, keys: keys)
    }

    static let sent = IDTokenExpectations(nonce: "n-0S6_WzA2Mj")

    @Test func theKeysAreFetchedOnceForManyTokens() async throws {
        let provider = try await TestProvider.make()
        let keys = KeyServer(try provider.jwks()).cache
        for (alg, kid) in [("RS256", "rsa-1"), ("ES256", "ec-1"), ("PS256", "pss-1"), ("RS256", "rsa-1")] {
            _ = try await validator(keys).validate(try await provider.sign(alg: alg, kid: kid), expecting: Self.sent, now: TestProvider.now)
        }
        #expect(await keys.fetchCount == 1)
    }

    @Test func anUnknownKeyIDFetchesTheKeysOnceMore() async throws {
        let provider = try await TestProvider.make()
        let server = KeyServer(try provider.jwks(["rsa-1"]))
        let keys = server.cache
        _ = try await validator(keys).validate(try await provider.sign(), expecting: Self.sent, now: TestProvider.now)
        // The provider rotates: `ec-1` appears; the first token signed with it re-fetches.
        server.publish(try provider.jwks(["rsa-1", "ec-1"]))
        let rotated = try await provider.sign(alg: "ES256", kid: "ec-1")
        let claims = try await validator(keys).validate(rotated, expecting: Self.sent, now: TestProvider.now)
        #expect(claims.subject == "user-1")
        #expect(await keys.fetchCount == 2)
        _ = try await validator(keys).validate(rotated, expecting: Self.sent, now: TestProvider.now)
        #expect(await keys.fetchCount == 2)
    }

    @Test func aKeyIDStillUnknownAfterTheRefetchIsRefused() async throws {
        let provider = try await TestProvider.make()
        let keys = KeyServer(try provider.jwks(["rsa-1"])).cache
        let token = try await provider.sign(alg: "ES256", kid: "ec-9")
        await #expect(throws: IDTokenRejection.unknownKey(kid: "ec-9")) {
            try await validator(keys).validate(token, expecting: Self.sent, now: TestProvider.now)
        }
        // One fetch, then exactly one re-fetch: not one per attempt inside a validation.
        #expect(await keys.fetchCount == 2)
    }

    @Test func concurrentValidationsShareTheRefetch() async throws {
        let provider = try await TestProvider.make()
        let server = KeyServer(try provider.jwks(["rsa-1"]))
        let keys = server.cache
        _ = try await validator(keys).validate(try await provider.sign(), expecting: Self.sent, now: TestProvider.now)
        server.publish(try provider.jwks(["rsa-1", "ec-1"]))
        let rotated = try await provider.sign(alg: "ES256", kid: "ec-1")
        let validator = validator(keys)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { _ = try await validator.validate(rotated, expecting: Self.sent, now: TestProvider.now) }
            }
            try await group.waitForAll()
        }
        #expect(await keys.fetchCount == 2)
    }

    @Test func aTokenWithoutKeyIDUsesTheSetsOnlyKey() async throws {
        let provider = try await TestProvider.make()
        let one = KeyServer(try provider.jwks(["ec-1"])).cache
        let token = try await provider.sign(alg: "ES256", kid: nil)
        #expect(try await validator(one).validate(token, expecting: Self.sent, now: TestProvider.now).subject == "user-1")
        let several = KeyServer(try provider.jwks()).cache
        await #expect(throws: IDTokenRejection.unknownKey(kid: nil)) {
            try await validator(several).validate(token, expecting: Self.sent, now: TestProvider.now)
        }
    }

    @Test func keysThatCannotBeFetchedOrReadAreUnavailable() async throws {
        let provider = try await TestProvider.make()
        let server = KeyServer(Data("<html>".utf8))
        let token = try await provider.sign()
        await #expect(throws: IDTokenRejection.keysUnavailable(reason: "it is not a JSON Web Key Set")) {
            try await validator(server.cache).validate(token, expecting: Self.sent, now: TestProvider.now)
        }
        server.fail()
        await #expect(throws: IDTokenRejection.keysUnavailable(reason: "fetching it failed (URLError)")) {
            try await validator(server.cache).validate(token, expecting: Self.sent, now: TestProvider.now)
        }
    }

    @Test func encryptionKeysAndUnknownKeyTypesAreSkipped() async throws {
        let provider = try await TestProvider.make()
        var document = try JSONSerialization.jsonObject(with: try provider.jwks(["rsa-1"])) as! [String: [[String: String]]]
        document["keys"]!.append(["kty": "oct", "kid": "hmac", "k": "c2VjcmV0"])
        var encryption = document["keys"]![0]
        encryption["use"] = "enc"
        encryption["kid"] = "enc-1"
        document["keys"]!.append(encryption)
        let keys = KeyServer(try JSONSerialization.data(withJSONObject: document)).cache
        let validator = validator(keys)
        #expect(try await validator.validate(try await provider.sign(), expecting: Self.sent, now: TestProvider.now).subject == "user-1")
        await #expect(throws: IDTokenRejection.unknownKey(kid: "enc-1")) {
            try await validator.validate(try await provider.sign(kid: "enc-1"), expecting: Self.sent, now: TestProvider.now)
        }
    }
}
