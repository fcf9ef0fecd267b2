import ArgumentParser
import BenchmarkTargets
import CryptoExtras
import Foundation
import JWTKit
import Sesame
import SesameOpenID

/// `sesame-bench id-token`: OpenID Connect ID token validation (SesameOpenID's
/// `IDTokenValidator`, every rule of OIDC Core §3.1.3.7) per token, for RS256 and ES256, with
/// a cold JWKS (a new cache each time: the set decoded and its keys built, then the token
/// validated) and a warm one (the cached keys), beside jwt-kit verifying the same token's
/// signature alone with a ready key collection (the floor: what any validation pays). The
/// JWKS is served from memory, so no network time is counted. Alternated rounds in one run;
/// medians. No target: the figure is reported (docs/performance.md, "id-token: validating an
/// OpenID Connect ID token").
struct IDTokenBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "id-token",
        abstract: "Times ID token validation per token, with a cold and a warm JWKS, against jwt-kit's bare verify.")

    @Option(help: "Alternated rounds; each validates `--tokens` tokens cold, then warm, then with jwt-kit alone.")
    var rounds = 7

    @Option(help: "Tokens per round and side (the cold side validates a tenth as many).")
    var tokens = 1000

    /// The claims a provider signs: what the validator checks, all valid at ``now``.
    struct Claims: JWTPayload {
        var iss = IDTokenBenchmark.issuer
        var sub = "user-1"
        var aud = IDTokenBenchmark.clientID
        var nonce = IDTokenBenchmark.nonce
        var exp = 1_800_000_300.0
        var iat = 1_799_999_990.0
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static let issuer = "https://id.example.com"
    static let clientID = "app"
    static let nonce = "n-0S6_WzA2Mj"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// One algorithm's medians, in microseconds per token.
    struct Result {
        var algorithm: String
        var cold: Double
        var warm: Double
        var bare: Double
        var tokens: Int
        var rounds: Int
        var jsonLine: String {
            String(
                format:
                    "{\"benchmark\": \"id-token\", \"algorithm\": \"%@\", \"cold_jwks_us\": %.1f, \"warm_jwks_us\": %.1f, \"jwtkit_verify_us\": %.1f, \"warm_to_verify\": %.2f, \"tokens\": %d, \"rounds\": %d}",
                algorithm, cold, warm, bare, warm / bare, tokens, rounds)
        }
    }

    static func base64URL(_ data: some Sequence<UInt8>) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func measure(rounds: Int, tokens: Int) async throws -> [Result] {
        let rsa = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let ec = ES256PrivateKey()
        let (n, e) = try rsa.publicKey.getKeyPrimitives()
        guard let (x, y) = ec.publicKey.parameters else { throw ValidationError("the P-256 key has no parameters") }
        let jwks = try JSONEncoder().encode([
            "keys": [
                ["kty": "RSA", "alg": "RS256", "kid": "rsa-1", "n": base64URL(n), "e": base64URL(e)],
                ["kty": "EC", "alg": "ES256", "crv": "P-256", "kid": "ec-1", "x": x, "y": y],
            ]
        ])
        let signers = JWTKeyCollection()
        await signers.add(rsa: rsa, digestAlgorithm: .sha256, kid: "rsa-1")
        await signers.add(ecdsa: ec, kid: "ec-1")
        // The floor's keys: the public halves only, as a validator holds them.
        let verifiers = JWTKeyCollection()
        await verifiers.add(rsa: rsa.publicKey, digestAlgorithm: .sha256, kid: "rsa-1")
        await verifiers.add(ecdsa: ec.publicKey, kid: "ec-1")
        let expecting = IDTokenExpectations(nonce: nonce)
        func validator() -> IDTokenValidator {
            IDTokenValidator(issuer: issuer, clientID: clientID, keys: JWKSCache(fetch: { jwks }))
        }
        var results: [Result] = []
        for (algorithm, kid) in [("RS256", "rsa-1"), ("ES256", "ec-1")] {
            let token = try await signers.sign(Claims(), kid: JWKIdentifier(string: kid))
            let warmValidator = validator()
            // Each side must accept the token before its time means anything.
            let claims = try await warmValidator.validate(token, expecting: expecting, now: now)
            guard claims.subject == "user-1" else { throw ValidationError("the validator read another subject") }
            _ = try await verifiers.verify(token, as: Claims.self)
            let coldCount = max(1, tokens / 10)
            var cold: [Double] = []
            var warm: [Double] = []
            var bare: [Double] = []
            for _ in 0..<rounds {
                cold.append(
                    try await perToken(coldCount) { _ = try await validator().validate(token, expecting: expecting, now: now) })
                warm.append(try await perToken(tokens) { _ = try await warmValidator.validate(token, expecting: expecting, now: now) })
                bare.append(try await perToken(tokens) { _ = try await verifiers.verify(token, as: Claims.self) })
            }
            results.append(
                Result(algorithm: algorithm, cold: median(cold), warm: median(warm), bare: median(bare), tokens: tokens, rounds: rounds))
        }
        return results
    }

    /// Microseconds per call of `body`, over `count` calls.
    static func perToken(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count { try await body() }
        let elapsed = clock.now - start
        return (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(count)
    }

    static func line(_ result: Result) -> String {
        String(
            format: "openid: id-token %@: cold JWKS %.1f µs, warm %.1f µs per token; jwt-kit's verify alone %.1f µs (warm %.2f× it)",
            result.algorithm, result.cold, result.warm, result.bare, result.warm / result.bare)
    }

    func validate() throws {
        guard rounds >= 1, tokens >= 10 else { throw ValidationError("--rounds must be at least 1 and --tokens at least 10") }
    }

    func run() async throws {
        for result in try await Self.measure(rounds: rounds, tokens: tokens) {
            print(result.jsonLine)
            print(Self.line(result))
        }
    }
}
