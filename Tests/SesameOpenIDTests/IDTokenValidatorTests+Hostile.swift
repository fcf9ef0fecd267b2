import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JWTKit
import Sesame
@testable import SesameOpenID
import SesameTestSupport
import Testing

/// What a hostile provider or a token planted in a response can send the validator: critical
/// header extensions, a token of megabytes, a stream of made-up key ids, keys served from
/// another origin through a redirect.
@Suite struct IDTokenValidatorHostileTests {
    static let sent = IDTokenExpectations(nonce: "n-0S6_WzA2Mj")

    func validator(_ keys: JWKSCache) -> IDTokenValidator {
        IDTokenValidator(issuer: TestProvider.issuer, clientID: TestProvider.clientID, keys: keys)
    }

    func rejection(_ token: String, _ validator: IDTokenValidator) async -> IDTokenRejection? {
        do {
            _ = try await validator.validate(token, expecting: Self.sent, now: TestProvider.now)
            return nil
        } catch {
            return error
        }
    }

    @Test func aTokenWhoseHeaderListsCriticalExtensionsIsRefused() async throws {
        let provider = try await TestProvider.make()
        let validator = validator(KeyServer(try provider.jwks()).cache)
        // Signed with the provider's key: only `crit` makes it wrong.
        let plain = try await provider.sign()
        #expect(await rejection(plain, validator) == nil)
        let critical = try await provider.sign(headerFields: [
            "crit": .array([.string("https://example.com/must-check")]), "https://example.com/must-check": .bool(true),
        ])
        #expect(await rejection(critical, validator) == .criticalExtensions(["https://example.com/must-check"]))
        // An empty list and a list that is no list of names are forbidden by the RFC.
        for value: JWTHeaderField in [.array([]), .string("exp"), .array([.int(1)])] {
            let token = try await provider.sign(headerFields: ["crit": value])
            #expect(await rejection(token, validator) == .criticalExtensions([]))
        }
        #expect(IDTokenRejection.criticalExtensions(["b64"]).description.contains("b64"))
    }

    @Test func aTokenLargerThanTheLimitIsRefusedBeforeItIsParsed() async throws {
        let provider = try await TestProvider.make()
        let server = KeyServer(try provider.jwks())
        let keys = server.cache
        var validator = validator(keys)
        let padding = String(repeating: "a", count: IDTokenValidator.defaultMaximumSize)
        let large = try await provider.sign(TestProvider.claims(["padding": .string(padding)]))
        let size = large.utf8.count
        #expect(await rejection(large, validator) == .tooLarge(size: size, limit: IDTokenValidator.defaultMaximumSize))
        // Refused before the keys were asked for.
        #expect(await keys.fetchCount == 0)
        // The same token passes under a higher limit: the size alone refused it.
        validator.maximumSize = size
        #expect(await rejection(large, validator) == nil)
    }

    @Test func unknownKeyIDsOneAfterAnotherCostOneRefetchPerInterval() async throws {
        let provider = try await TestProvider.make()
        let start = ContinuousClock.now
        let elapsed = LockedValue<Duration>(.zero)
        let server = KeyServer(try provider.jwks(["rsa-1"]))
        let keys = JWKSCache(now: { start + elapsed.value }, fetch: server.fetch)
        let validator = validator(keys)
        for index in 0..<100 {
            let token = try await provider.sign(kid: "made-up-\(index)")
            #expect(await rejection(token, validator) == .unknownKey(kid: "made-up-\(index)"))
        }
        // The first fetch and one re-fetch, not 101.
        #expect(await keys.fetchCount == 2)
        // A rotation inside the interval is seen at the next re-fetch, once the interval passed.
        server.publish(try provider.jwks(["rsa-1", "ec-1"]))
        let rotated = try await provider.sign(alg: "ES256", kid: "ec-1")
        elapsed.set(.seconds(29))
        #expect(await rejection(rotated, validator) == .unknownKey(kid: "ec-1"))
        #expect(await keys.fetchCount == 2)
        elapsed.set(.seconds(31))
        #expect(await rejection(rotated, validator) == nil)
        #expect(await keys.fetchCount == 3)
        // Known keys never re-fetch.
        #expect(await rejection(try await provider.sign(), validator) == nil)
        #expect(await keys.fetchCount == 3)
    }

    @Test func keysARedirectBringsFromAnotherOriginAreRefused() async throws {
        let provider = try await TestProvider.make()
        let document = try provider.jwks()
        let keysServer = try LoopbackServer { request, connection in
            connection.writeHead(status: "200 OK", [("Content-Type", "application/json"), ("Content-Length", "\(document.count)")])
            connection.write(document)
        }
        // Another port on the same host is another origin.
        let redirecting = try LoopbackServer { request, connection in
            let location = request.target == "/old-keys" ? "/keys" : keysServer.baseURL.appendingPathComponent("keys").absoluteString
            if request.target == "/keys" {
                connection.writeHead(status: "200 OK", [("Content-Type", "application/json"), ("Content-Length", "\(document.count)")])
                connection.write(document)
            } else {
                connection.writeHead(status: "302 Found", [("Location", location), ("Content-Length", "0")])
            }
        }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let token = try await provider.sign()
        let elsewhere = JWKSCache(url: redirecting.baseURL.appendingPathComponent("elsewhere"), session: session)
        #expect(
            await rejection(token, validator(elsewhere)) == .keysUnavailable(reason: "a redirect took the fetch to another origin"))
        #expect(keysServer.requests.count == 1, "the redirect was followed: only the keys it brought are refused")
        // A redirect on the provider's own origin is followed.
        let moved = JWKSCache(url: redirecting.baseURL.appendingPathComponent("old-keys"), session: session)
        #expect(await rejection(token, validator(moved)) == nil)
    }
}
