#!/usr/bin/env bash
# One-off measurement of OpenID Connect ID token validation (SesameOpenID's IDTokenValidator),
# per token, with a cold JWKS (a new cache: the set is decoded and its keys built, then the
# token verified) and a warm one (the cached keys), for RS256 and ES256, in a release build.
# The JWKS is served from memory, so no network time is counted. docs/performance.md reports
# the figures. A throw-away package depending on this one is built in a temporary folder (or
# in SCRATCH, kept between runs), as scripts/check-consumer.sh does.
#
#   scripts/measure-id-token-validation.sh        SWIFT=... and SCRATCH=... override the defaults
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
swift="${SWIFT:-swift}"
app="$(mktemp -d)"
trap 'rm -rf "$app"' EXIT
scratch="${SCRATCH:-$app/.build}"
mkdir -p "$app/Sources/measure"
cat >"$app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Measure",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Sesame", path: "$root"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "measure",
            dependencies: [
                .product(name: "SesameOpenID", package: "Sesame"), .product(name: "Sesame", package: "Sesame"),
                .product(name: "JWTKit", package: "jwt-kit"), .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        )
    ]
)
SWIFT
cat >"$app/Sources/measure/main.swift" <<'SWIFT'
import CryptoExtras
import Foundation
import JWTKit
import Sesame
import SesameOpenID

struct Claims: JWTPayload {
    var iss = "https://id.example.com", sub = "user-1", aud = "app", nonce = "n-0S6_WzA2Mj"
    var exp = 1_800_000_300.0, iat = 1_799_999_990.0
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

let rsa = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
let ec = ES256PrivateKey()
let (n, e) = try rsa.publicKey.getKeyPrimitives()
let (x, y) = ec.publicKey.parameters!
let jwks = try JSONEncoder().encode([
    "keys": [
        ["kty": "RSA", "alg": "RS256", "kid": "rsa-1", "n": base64URL(n), "e": base64URL(e)],
        ["kty": "EC", "alg": "ES256", "crv": "P-256", "kid": "ec-1", "x": x, "y": y],
    ]
])
let signers = JWTKeyCollection()
await signers.add(rsa: rsa, digestAlgorithm: .sha256, kid: "rsa-1")
await signers.add(ecdsa: ec, kid: "ec-1")
let now = Date(timeIntervalSince1970: 1_800_000_000)
let expecting = IDTokenExpectations(nonce: "n-0S6_WzA2Mj")
let clock = ContinuousClock()

func validator() -> IDTokenValidator {
    IDTokenValidator(issuer: "https://id.example.com", clientID: "app", keys: JWKSCache(fetch: { jwks }))
}
func microseconds(_ duration: Duration, _ count: Int) -> Double {
    (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12) / Double(count)
}

for (alg, kid) in [("RS256", "rsa-1"), ("ES256", "ec-1")] {
    let token = try await signers.sign(Claims(), kid: JWKIdentifier(string: kid))
    let cold = 300
    let warm = 3000
    let warmValidator = validator()
    _ = try await warmValidator.validate(token, expecting: expecting, now: now)
    var coldTimes: [Duration] = []
    for _ in 0..<cold {
        let start = clock.now
        _ = try await validator().validate(token, expecting: expecting, now: now)
        coldTimes.append(clock.now - start)
    }
    var warmTimes: [Duration] = []
    for _ in 0..<warm {
        let start = clock.now
        _ = try await warmValidator.validate(token, expecting: expecting, now: now)
        warmTimes.append(clock.now - start)
    }
    coldTimes.sort()
    warmTimes.sort()
    print(
        String(
            format: "%@: cold JWKS p50 %.1f µs (mean %.1f), warm p50 %.1f µs (mean %.1f), over %d and %d tokens", alg,
            microseconds(coldTimes[cold / 2], 1), microseconds(coldTimes.reduce(.zero, +), cold),
            microseconds(warmTimes[warm / 2], 1), microseconds(warmTimes.reduce(.zero, +), warm), cold, warm))
}
SWIFT
"$swift" build -c release --package-path "$app" --scratch-path "$scratch" >"$app/build.log" 2>&1 || { cat "$app/build.log" >&2; exit 1; }
"$scratch/release/measure"
