import Foundation

/// The state of DPoP (RFC 9449) when ``ReferenceServer/Configuration/dpop`` is set: the
/// nonce proofs must carry and the identifiers of recent proofs.
struct DPoPServerState: Sendable {
    var nonce = SecretGenerator.token()
    var nonceRotations = 0
    var replayCache: DPoPReplayCache

    init(options: ReferenceServer.DPoPOptions?) {
        replayCache = DPoPReplayCache(capacity: options?.replayCacheCapacity ?? 1)
    }
}

extension ReferenceServerState {
    // MARK: DPoP (RFC 9449)

    /// The nonce proofs must carry now (RFC 9449 §8), sent in every response's `DPoP-Nonce`;
    /// nil when the server does not check DPoP or asks for no nonce.
    public func currentDPoPNonce() -> String? {
        guard let options = configuration.dpop, options.requiresNonce else { return nil }
        return dpop.nonce
    }

    /// Replaces the nonce with a new one: proofs with the old one are answered
    /// `use_dpop_nonce` with the new one. Returns it.
    @discardableResult
    public func rotateDPoPNonce() -> String {
        dpop.nonce = SecretGenerator.token()
        dpop.nonceRotations += 1
        return dpop.nonce
    }

    /// Judges a proof whose signature verified (RFC 9449 §4.3 checks 10 to 12, §7.1): its
    /// `iat` within the window of the configured wall clock, a `jti` not seen in that window
    /// (then recorded), `ath` the hash of `accessToken` when one is presented, and the
    /// current nonce. Throws ``DPoPFailure``.
    func check(_ proof: VerifiedDPoPProof, accessToken: String?) throws(DPoPFailure) {
        guard let options = configuration.dpop else { throw .invalidProof("The server does not accept DPoP.") }
        let wallClock = configuration.now()
        let window = options.proofWindow.timeInterval
        guard abs(proof.issuedAt.timeIntervalSince(wallClock)) <= window else {
            throw .invalidProof("The DPoP proof's iat is outside the accepted window.")
        }
        guard dpop.replayCache.insert(proof.jti, expiresAt: proof.issuedAt.addingTimeInterval(window), now: wallClock) else {
            throw .invalidProof("The DPoP proof was already used.")
        }
        if let accessToken {
            guard let hash = proof.accessTokenHash, ConstantTime.equals(hash, DPoPProofVerifier.accessTokenHash(accessToken)) else {
                throw .invalidProof("The DPoP proof's ath is not the hash of the access token.")
            }
        }
        if options.requiresNonce, proof.nonce != dpop.nonce {
            throw .useNonce
        }
    }
}
