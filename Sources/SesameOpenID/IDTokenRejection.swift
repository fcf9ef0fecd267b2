import Foundation

/// Why an ID token was refused (OpenID Connect Core 1.0 §3.1.3.7): one case per rule, so an
/// app can switch on the rule that failed. A rejection changes nothing: the sign-in or the
/// refresh that received the token fails and keeps none of its tokens.
///
/// Descriptions name the rule and the claim values that are not secrets (issuers, audiences,
/// key ids, algorithms, times); never the token, the nonce or the access token.
public enum IDTokenRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token is not a JWS compact serialization, or a claim the rules read (`iss`, `sub`,
    /// `aud`, `exp`, `iat`) is missing or of the wrong type.
    case malformed(reason: String)
    /// The header's `alg` is not one the client accepts (`none` and the HMAC algorithms never
    /// are), or does not match the key it names.
    case algorithm(String?)
    /// The header's `crit` (RFC 7515 §4.1.11) lists extensions that must be understood: the
    /// validator implements none, so a token with `crit` is refused whatever it lists (an
    /// empty or malformed `crit` too: the RFC forbids both).
    case criticalExtensions([String])
    /// The token is longer than ``IDTokenValidator/maximumSize`` bytes: it is refused before
    /// anything of it is parsed.
    case tooLarge(size: Int, limit: Int)
    /// No key of the provider's JWKS has the header's `kid`, even after the one re-fetch an
    /// unknown `kid` causes (key rotation); nil when the header names no key and the set has
    /// more than one.
    case unknownKey(kid: String?)
    /// The provider's JWKS could not be fetched or read.
    case keysUnavailable(reason: String)
    /// The signature does not verify with the key the header names.
    case signature
    /// `iss` is not the configured issuer.
    case issuer(expected: String, received: String)
    /// `aud` does not contain the client id, or contains an audience the client does not trust.
    case audience(received: [String])
    /// `azp` is present and is not the client id, or is missing when `aud` has several values.
    case authorizedParty(received: String?)
    /// `exp` is in the past, beyond the clock-skew leeway.
    case expired(at: Date)
    /// `iat` is in the future, beyond the clock-skew leeway.
    case issuedInFuture(at: Date)
    /// `nonce` is not the one the authorization request sent (or is missing).
    case nonce
    /// `at_hash` is present and is not the hash of the access token issued with it.
    case accessTokenHash
    /// A `max_age` was asked and `auth_time` is missing, or older than `max_age` allows.
    case authenticationTime(Date?)
    /// `acr_values` were asked (a step-up) and the token's `acr` is missing or none of them:
    /// the sign-in did not reach the class the API asked for.
    case authenticationContext(requested: [String], received: String?)
    /// `sub` differs from the one of the ID token the session already holds (a refresh).
    case subject

    /// The rule that failed, and what was received where it is not a secret.
    public var description: String {
        switch self {
        case .malformed(let reason): "the ID token is malformed: \(reason)"
        case .algorithm(let alg): "the ID token's algorithm \(alg.map { "'\($0)'" } ?? "(none given)") is not accepted"
        case .criticalExtensions(let names):
            "the ID token's header lists critical extensions this client does not implement (\(names.isEmpty ? "an empty or malformed crit" : names.joined(separator: ", ")))"
        case .tooLarge(let size, let limit): "the ID token is \(size) bytes long, more than the \(limit) accepted"
        case .unknownKey(let kid):
            "the ID token's key \(kid.map { "'\($0)'" } ?? "(no kid)") is not in the provider's JWKS, even after re-fetching it"
        case .keysUnavailable(let reason): "the provider's JWKS is unavailable: \(reason)"
        case .signature: "the ID token's signature does not verify"
        case .issuer(let expected, let received): "the ID token's issuer '\(received)' is not '\(expected)'"
        case .audience(let received):
            "the ID token's audience \(received) does not contain this client, or contains an audience it does not trust"
        case .authorizedParty(let received):
            "the ID token's authorized party \(received.map { "'\($0)'" } ?? "(missing, with several audiences)") is not this client"
        case .expired(let date): "the ID token expired at \(date.formatted(.iso8601))"
        case .issuedInFuture(let date): "the ID token is issued in the future (\(date.formatted(.iso8601)))"
        case .nonce: "the ID token's nonce is not the one the authorization request sent"
        case .accessTokenHash: "the ID token's at_hash does not match the access token"
        case .authenticationTime(let date):
            "the ID token's auth_time \(date.map { $0.formatted(.iso8601) } ?? "(missing)") is older than the max_age asked"
        case .authenticationContext(let requested, let received):
            "the ID token's acr \(received.map { "'\($0)'" } ?? "(missing)") is not one of the acr_values asked (\(requested.joined(separator: " ")))"
        case .subject: "the ID token's subject is not the one of the session's ID token"
        }
    }
}
