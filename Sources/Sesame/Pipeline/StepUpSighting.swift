import Foundation

/// Where the ``CredentialMiddleware`` records a step-up challenge (RFC 9470) that answered
/// a request carrying the credential, for the service to throw
/// ``SesameError/stepUpRequired(operation:challenge:)`` only then: a challenge from a request
/// sent without it (a token endpoint, a hop that left the origin) is about no session, and
/// is an error response like any other.
final class StepUpSighting: @unchecked Sendable {
    /// The sighting of the request under way, bound by the service around one send.
    @TaskLocal static var current: StepUpSighting?

    private let lock = NSLock()
    // Guarded by `lock`.
    private var seen: StepUpChallenge?

    /// The challenge recorded, nil when none was.
    var challenge: StepUpChallenge? { lock.withLock { seen } }

    func record(_ challenge: StepUpChallenge) {
        lock.withLock { seen = challenge }
    }
}
