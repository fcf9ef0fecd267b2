import Foundation
import HTTPTypes
import Sesame

/// DPoP (RFC 9449) for an ``AuthenticationService`` whose schema binds tokens to a key
/// (`credential.binding: dpop`): give one to the configuration's `proofOfPossession`.
///
/// It signs each request's proof with one P-256 key (``DPoPKey``), read from its key store
/// the first time a proof is needed, or created and saved there when the store has none, so
/// that a session restored at the next launch proves possession of the key its tokens are
/// bound to. When another process sharing the session signs in or out, the service calls
/// ``sessionDidChangeElsewhere()`` and the key is read from the store again. It keeps each server's latest nonce (``DPoPNonces``), and asks the service to
/// send a request once more when the server answers `use_dpop_nonce` with a new nonce. When
/// the session ends, the service calls ``replaceKey()``: the key leaves the store and the
/// next sign-in binds its tokens to a new one.
///
/// Keep the key store with the session: a ``FileDPoPKeyStore`` beside the session store
/// (in the shared session directory when processes share the session, so that every process
/// signs with the same key).
public actor DPoP: ProofOfPossession {
    private let store: any DPoPKeyStore
    private let now: @Sendable () -> Date
    private let nonces = DPoPNonces()
    /// The signer of the current key, or the task reading or creating it.
    private var signer: Task<DPoPProofSigner, any Error>?

    /// DPoP with the key `store` keeps (in memory by default: a new key each launch, so a
    /// restored session's tokens no longer match), and proofs dated by `now`.
    public init(keyStore: any DPoPKeyStore = InMemoryDPoPKeyStore(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = keyStore
        self.now = now
    }

    /// The proof of a `method` request to `url`, with the server's latest nonce.
    /// - Throws: the key store's error when the key can be neither read nor saved;
    ///   ``DPoPProofError`` when the proof cannot be made.
    public func proof(method: HTTPRequest.Method, url: URL, accessToken: String?) async throws -> String {
        let signer = try await currentSigner()
        return try await signer.proof(method: method, url: url, accessToken: accessToken, nonce: await nonces.nonce(for: url))
    }

    /// Keeps the response's `DPoP-Nonce` for its server, and says whether the response asks
    /// for the request again: `use_dpop_nonce`, with a nonce other than the one just sent.
    public func receive(_ response: HTTPResponse, body: Data?, from url: URL) async -> Bool {
        let sent = await nonces.nonce(for: url)
        let received = await nonces.update(from: response.headerFields, for: url)
        guard DPoPNonces.asksForNonce(response, body: body), let received else { return false }
        return received != sent
    }

    /// Deletes the key from the store and forgets the nonces; the next proof is signed with a
    /// new key.
    /// - Throws: the key store's error; the key in memory is forgotten all the same.
    public func replaceKey() async throws {
        let signed = try? await signer?.value.key
        signer = nil
        await nonces.removeAll()
        if let signed {
            // Another process may have stored the next session's key since.
            try await store.delete(ifStill: signed)
        } else {
            try await store.delete()
        }
    }

    /// Forgets the key in memory, so that the next proof reads the store again: another
    /// process sharing the session signed in or out, and the session's tokens may be bound to
    /// the key it stored.
    public func sessionDidChangeElsewhere() async {
        signer = nil
    }

    /// The JWK thumbprint (RFC 7638) of the key proofs are signed with: the `jkt` the server
    /// binds tokens to. Reads or creates the key as a proof would.
    public func thumbprint() async throws -> String {
        try await currentSigner().key.thumbprint
    }

    private func currentSigner() async throws -> DPoPProofSigner {
        if let signer { return try await signer.value }
        let store = self.store
        let now = self.now
        let task = Task {
            // One step: of processes sharing the store, one creates the key, the others load it.
            DPoPProofSigner(key: try await store.loadOrSave { DPoPKey() }, now: now)
        }
        signer = task
        do {
            return try await task.value
        } catch {
            // A store that failed once may work next time.
            if signer == task { signer = nil }
            throw error
        }
    }
}
