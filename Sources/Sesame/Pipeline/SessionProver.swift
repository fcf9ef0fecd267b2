import Foundation
import HTTPTypes
import Logging

/// The service's ``ProofOfPossession``, which orders the key's replacement before every
/// later proof.
///
/// Sign-out asks for a new key as it clears the session, synchronously, but the replacement
/// itself is asynchronous, and waits for the ending session's own requests (its logout or
/// revocation, signed with the key its tokens are bound to). Without an order, a sign-in
/// that starts at once could sign its token request with the old key, and bind the next
/// session to it, or the ending session's logout be signed with the next key. Each proof
/// asked for after ``replaceKey(logger:after:)`` waits for that replacement to finish first,
/// but those of the ending session's requests (``signsForEndingSession``).
final class SessionProver: ProofOfPossession, @unchecked Sendable {
    /// Set around the ending session's requests: their proofs use the key being replaced.
    @TaskLocal static var signsForEndingSession = false

    let prover: any ProofOfPossession

    private let lock = NSLock()
    // Guarded by `lock`: the latest replacement, which each later one waits for too.
    private var replacement: Task<Void, Never>?

    init(_ prover: any ProofOfPossession) {
        self.prover = prover
    }

    func proof(method: HTTPRequest.Method, url: URL, accessToken: String?) async throws -> String {
        if !Self.signsForEndingSession { await lock.withLock { replacement }?.value }
        return try await prover.proof(method: method, url: url, accessToken: accessToken)
    }

    func receive(_ response: HTTPResponse, body: Data?, from url: URL) async -> Bool {
        await prover.receive(response, body: body, from: url)
    }

    func replaceKey() async throws {
        await replaceKey(logger: Logger(label: "Sesame")).value
    }

    func sessionDidChangeElsewhere() async {
        await prover.sessionDidChangeElsewhere()
    }

    /// Replaces the key once `ending` (the ending session's requests) finished; proofs asked
    /// for from here on wait for it. A failure is logged by its type: the next proofs are then
    /// signed with the key the prover keeps.
    @discardableResult
    func replaceKey(logger: Logger, after ending: Task<some Sendable, Never>? = Task<Void, Never>?.none) -> Task<Void, Never> {
        lock.withLock {
            let previous = replacement
            let prover = prover
            let task = Task {
                await previous?.value
                _ = await ending?.value
                do {
                    try await prover.replaceKey()
                } catch {
                    logger.error("the DPoP key could not be replaced: \(type(of: error))")
                }
            }
            replacement = task
            return task
        }
    }
}

/// Whether the service's requests carry proofs of possession, resolved once from the schema's
/// binding and the configuration.
enum ProofRequirement: Sendable {
    /// The schema sends bearer tokens: no proofs.
    case none
    /// The schema binds tokens to a key (DPoP) but the configuration has no prover: nothing is
    /// sent, every request fails with ``SesameError/invalidState(reason:)``.
    case missing
    /// Every request to the API's or the authorization server's origin carries a proof.
    case signed(SessionProver)

    init<Details>(presenter: CredentialPresenter, configuration: AuthenticationServiceConfiguration<Details>) {
        switch (presenter.provesPossession, configuration.proofOfPossession) {
        case (true, let prover?): self = .signed(SessionProver(prover))
        case (true, nil): self = .missing
        case (false, let prover):
            if prover != nil {
                configuration.logger.warning("the schema sends bearer tokens: the configuration's proofOfPossession is not used")
            }
            self = .none
        }
    }

    /// The prover, when requests carry proofs.
    var prover: SessionProver? {
        if case .signed(let prover) = self { return prover }
        return nil
    }

    /// Throws when the schema needs proofs and nothing can make them.
    func check() throws {
        if case .missing = self {
            throw SesameError.invalidState(
                reason: "the schema binds tokens to a key (DPoP): the configuration needs a proofOfPossession, such as SesameDPoP's DPoP")
        }
    }
}
