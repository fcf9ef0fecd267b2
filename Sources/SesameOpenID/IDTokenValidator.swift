import Foundation
import JWTKit
import Sesame
@_spi(Generated) import SesameDescription

/// Validates ID tokens as OpenID Connect Core 1.0 §3.1.3.7 asks (and §12.2 on refresh): the
/// signature against the provider's JWKS, then `iss`, `aud`, `azp`, `exp`, `iat`, `nonce`,
/// `at_hash`, `auth_time` and, on refresh, `sub`. Signatures are verified by jwt-kit; no
/// JOSE parsing or cryptography is written here.
///
/// Only asymmetric algorithms are accepted: `none` and `HS256`/`HS384`/`HS512` are refused
/// whatever ``algorithms`` says (a public client has no secret to verify an HMAC with, and a
/// provider's HMAC would be keyed with the client secret an app cannot keep).
public struct IDTokenValidator: Sendable {
    /// The algorithms accepted by default.
    public static let defaultAlgorithms: Set<String> = OpenIDDescription.signingAlgorithms
    /// The clock skew accepted when none is given: the schema's default too.
    public static let defaultClockSkew: Duration = OpenIDDescription.defaultClockSkew

    /// The issuer `iss` must equal (the authorization server's issuer identifier).
    public var issuer: String
    /// The client id `aud` must contain (and `azp`, when present, must equal).
    public var clientID: String
    /// How far `exp`, `iat` and `auth_time` may be off the device's clock.
    public var clockSkew: Duration
    /// The `alg` values accepted; `none` and HMAC ones are refused even when listed.
    public var algorithms: Set<String>
    /// Audiences besides the client id that a token may name (OIDC Core §3.1.3.7 rule 3).
    public var trustedAudiences: Set<String>
    /// The provider's signing keys.
    public let keys: JWKSCache
    /// The longest token accepted, in bytes: a longer one is refused as
    /// ``IDTokenRejection/tooLarge(size:limit:)`` before it is parsed. ID tokens are a few
    /// kilobytes; the default leaves room for large claim sets.
    public var maximumSize: Int = Self.defaultMaximumSize
    /// The ``maximumSize`` of a new validator: 64 KiB.
    public static let defaultMaximumSize = 64 << 10

    /// A validator for tokens of `issuer` meant for `clientID`, verified with `keys`.
    public init(
        issuer: String, clientID: String, keys: JWKSCache, clockSkew: Duration = Self.defaultClockSkew,
        algorithms: Set<String> = Self.defaultAlgorithms, trustedAudiences: Set<String> = []
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.keys = keys
        self.clockSkew = clockSkew
        self.algorithms = algorithms
        self.trustedAudiences = trustedAudiences
    }

    /// Checks `token` against every rule, at `now`.
    /// - Returns: its claims.
    /// - Throws: the ``IDTokenRejection`` naming the first rule that failed: the header
    ///   (``IDTokenRejection/tooLarge(size:limit:)``, ``IDTokenRejection/algorithm(_:)``,
    ///   ``IDTokenRejection/criticalExtensions(_:)``, ``IDTokenRejection/unknownKey(kid:)``
    ///   after one re-fetch of the keys), the signature, then the claims in §3.1.3.7's order.
    ///   Nothing is kept of a rejected token.
    public func validate(
        _ token: String, expecting expectations: IDTokenExpectations, now: Date
    ) async throws(IDTokenRejection) -> IDTokenClaims {
        let size = token.utf8.count
        guard size <= maximumSize else { throw .tooLarge(size: size, limit: maximumSize) }
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(Array(token.utf8), as: UncheckedPayload.self).header
        } catch {
            throw .malformed(reason: "it is not a signed JWT (JWS compact serialization)")
        }
        guard let alg = header.alg, algorithms.contains(alg), !Self.refused(alg) else { throw .algorithm(header.alg) }
        // RFC 7515 §4.1.11: a recipient that does not understand an extension `crit` lists
        // must refuse the token; none is implemented here.
        if header.fields["crit"] != nil { throw .criticalExtensions(header.crit ?? []) }
        let payload = try await verifiedPayload(token, alg: alg, kid: header.kid)
        var expectations = expectations
        if expectations.subject == nil, let previous = expectations.previousIDToken {
            // Validated when it was received: its `sub` is read, not checked again.
            expectations.subject = try? DefaultJWTParser().parse(Array(previous.utf8), as: IDTokenPayload.self).payload.sub
            if expectations.subject == nil { throw .malformed(reason: "the session's previous ID token has no subject") }
        }
        try check(payload, alg: alg, expectations, now: now)
        return payload.claims
    }

    /// `none` and the HMAC algorithms, never accepted.
    static func refused(_ alg: String) -> Bool {
        alg.lowercased() == "none" || alg.uppercased().hasPrefix("HS")
    }

    /// The payload, once the key the header names verified the signature; the keys are
    /// re-fetched once when that key is not in the set.
    private func verifiedPayload(_ token: String, alg: String, kid: String?) async throws(IDTokenRejection) -> IDTokenPayload {
        var set = try await keys.current()
        if Self.keyID(kid, in: set) == nil {
            set = try await keys.reload(replacing: set.generation)
        }
        guard Self.keyID(kid, in: set) != nil else { throw .unknownKey(kid: kid) }
        do {
            // The key's algorithm (its `alg`, else the header's) must be the header's.
            let algorithm = try await set.collection.getKey(for: kid.map { JWKIdentifier(string: $0) }, alg: alg)
            guard algorithm.name == alg else { throw IDTokenRejection.algorithm(alg) }
            return try await set.collection.verify(token, as: IDTokenPayload.self)
        } catch let rejection as IDTokenRejection {
            throw rejection
        } catch let error as JWTError where error.errorType == .malformedToken {
            throw .malformed(reason: "its claims are not an ID token's (iss, sub, aud, exp and iat are required)")
        } catch let error as JWTError where error.errorType == .invalidJWK || error.errorType == .generic {
            // The key cannot verify this algorithm (an EC key for RS256, say).
            throw .algorithm(alg)
        } catch {
            throw .signature
        }
    }

    /// The `kid` of the set's key the header names: the header's own, or with no `kid` the
    /// set's only key (OIDC Core §10.1).
    private static func keyID(_ kid: String?, in set: JWKSCache.Loaded) -> String? {
        guard let kid else { return set.keys.count == 1 ? set.keys.keys.first : nil }
        return set.keys[kid] != nil ? kid : nil
    }
}
