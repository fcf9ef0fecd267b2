import Foundation

extension ReferenceServer {
    /// How the server checks DPoP proofs (RFC 9449) and binds tokens to their keys: set
    /// ``Configuration/dpop`` to turn it on; `nil` (the default) leaves the server a bearer
    /// server that ignores `DPoP` header fields.
    ///
    /// With it, a token request that carries a valid proof gets tokens bound to the proof's
    /// key (`token_type: DPoP`, the key's RFC 7638 thumbprint as their `cnf.jkt`); such an
    /// access token is accepted only as `Authorization: DPoP` with a proof of that key, and
    /// such a refresh token only with a proof of that key.
    public struct DPoPOptions: Sendable, Equatable {
        /// How far a proof's `iat` may be from the server's wall clock (in either direction),
        /// 60 s by default (RFC 9449 §11.1). The wall clock is ``Configuration/now``, which
        /// ``ReferenceServerState/advanceClock(by:)`` does not move: clients sign with theirs.
        public var proofWindow: Duration
        /// Whether proofs must carry the server's current nonce (RFC 9449 §8, §9), true by
        /// default. Every response then carries it in `DPoP-Nonce`.
        public var requiresNonce: Bool
        /// Whether token requests without a proof are refused (`invalid_dpop_proof`); false
        /// by default, when they get bearer tokens.
        public var requiresProof: Bool
        /// How many proof identifiers (`jti`) are remembered to refuse a replay, 10 000 by
        /// default. An identifier is forgotten once its proof is outside ``proofWindow``, or,
        /// when the cache is full, the oldest first.
        public var replayCacheCapacity: Int

        /// Makes options; every parameter has the default documented on its property.
        /// - Parameters:
        ///   - proofWindow: How far a proof's `iat` may be from the server's wall clock.
        ///   - requiresNonce: Whether proofs must carry the server's current nonce.
        ///   - requiresProof: Whether token requests without a proof are refused.
        ///   - replayCacheCapacity: How many proof identifiers are remembered.
        public init(
            proofWindow: Duration = .seconds(60),
            requiresNonce: Bool = true,
            requiresProof: Bool = false,
            replayCacheCapacity: Int = 10_000
        ) {
            self.proofWindow = proofWindow
            self.requiresNonce = requiresNonce
            self.requiresProof = requiresProof
            self.replayCacheCapacity = max(1, replayCacheCapacity)
        }

        /// The signing algorithms proofs may use: ES256 only.
        public static let algorithms = ["ES256"]
    }

    /// How the server answers pushed authorization requests (RFC 9126, `POST /oauth/par`),
    /// which it always serves.
    public struct PushedAuthorizationOptions: Sendable, Equatable {
        /// Whether the authorization endpoint refuses requests that were not pushed (and the
        /// metadata says `require_pushed_authorization_requests: true`); false by default.
        public var required: Bool
        /// How long a `request_uri` stays usable, 60 s by default (its `expires_in`).
        public var lifetime: Duration

        /// Makes options; every parameter has the default documented on its property.
        /// - Parameters:
        ///   - required: Whether the authorization endpoint accepts pushed requests only.
        ///   - lifetime: How long a `request_uri` stays usable.
        public init(required: Bool = false, lifetime: Duration = .seconds(60)) {
            self.required = required
            self.lifetime = lifetime
        }
    }
}
