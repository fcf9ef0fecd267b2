@_spi(Generated) @testable import Sesame

/// The rows of another process's changes to a shared session store
/// (`sessionChangedElsewhere`): the machine follows what the store holds, online or offline.
extension AuthenticationStateMachineTests {
    static let endedElsewhere = Outcome.actions([.startEpoch, .sessionEndedElsewhere(.signOut), .publish(U)])
    static let invalidatedElsewhere = Outcome.actions([.startEpoch, .sessionEndedElsewhere(.invalidated), .publish(I)])

    static let sharedSessionTransitions: [Row] = [
        // With no session in use, a session saved elsewhere is a sign-in there: authenticated
        // here, in a new epoch; none saved changes nothing.
        row(.unauthenticated, on, .signedOutElsewhere, U, nil, .kept, nothing),
        row(.unauthenticated, off, .signedOutElsewhere, U, nil, .kept, nothing),
        row(.unauthenticated, on, .invalidatedElsewhere, U, nil, .kept, nothing),
        row(.unauthenticated, off, .invalidatedElsewhere, U, nil, .kept, nothing),
        row(.unauthenticated, on, .signedInElsewhere, A2, s2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.unauthenticated, off, .signedInElsewhere, A2, s2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.unauthenticated, on, .refreshedElsewhere, A1, s1c4, .new, .actions([.startEpoch, .publish(A1)])),
        row(.unauthenticated, off, .refreshedElsewhere, A1, s1c4, .new, .actions([.startEpoch, .publish(A1)])),
        row(.unauthenticated, on, .detailsChangedElsewhere, A2, s1d2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.unauthenticated, off, .detailsChangedElsewhere, A2, s1d2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.unauthenticated, on, .unchangedElsewhere, A1, s1, .new, .actions([.startEpoch, .publish(A1)])),
        row(.unauthenticated, off, .unchangedElsewhere, A1, s1, .new, .actions([.startEpoch, .publish(A1)])),
        // A session in use ends as it ended elsewhere, without clearing the store again; another
        // user's session replaces it in a new epoch; the same user's new credential or
        // details are taken in the same state and epoch.
        row(.presession, on, .signedOutElsewhere, U, nil, .new, endedElsewhere),
        row(.presession, off, .signedOutElsewhere, U, nil, .new, endedElsewhere),
        row(.presession, on, .invalidatedElsewhere, I, nil, .new, invalidatedElsewhere),
        row(.presession, off, .invalidatedElsewhere, I, nil, .new, invalidatedElsewhere),
        row(.presession, on, .signedInElsewhere, A2, s2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.presession, off, .signedInElsewhere, A2, s2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.presession, on, .refreshedElsewhere, P1, s1c4, .kept, nothing),
        row(.presession, off, .refreshedElsewhere, P1, s1c4, .kept, nothing),
        row(.presession, on, .detailsChangedElsewhere, P2, s1d2, .kept, .actions([.publish(P2)])),
        row(.presession, off, .detailsChangedElsewhere, P2, s1d2, .kept, .actions([.publish(P2)])),
        row(.presession, on, .unchangedElsewhere, P1, s1, .kept, nothing),
        row(.presession, off, .unchangedElsewhere, P1, s1, .kept, nothing),
        row(.authenticated, on, .signedOutElsewhere, U, nil, .new, endedElsewhere),
        row(.authenticated, off, .signedOutElsewhere, U, nil, .new, endedElsewhere),
        row(.authenticated, on, .invalidatedElsewhere, I, nil, .new, invalidatedElsewhere),
        row(.authenticated, off, .invalidatedElsewhere, I, nil, .new, invalidatedElsewhere),
        row(.authenticated, on, .signedInElsewhere, A2, s2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.authenticated, off, .signedInElsewhere, A2, s2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.authenticated, on, .refreshedElsewhere, A1, s1c4, .kept, nothing),
        row(.authenticated, off, .refreshedElsewhere, A1, s1c4, .kept, nothing),
        row(.authenticated, on, .detailsChangedElsewhere, A2, s1d2, .kept, .actions([.publish(A2)])),
        row(.authenticated, off, .detailsChangedElsewhere, A2, s1d2, .kept, .actions([.publish(A2)])),
        row(.authenticated, on, .unchangedElsewhere, A1, s1, .kept, nothing),
        row(.authenticated, off, .unchangedElsewhere, A1, s1, .kept, nothing),
        // Invalid: as with no session.
        row(.invalid, on, .signedOutElsewhere, I, nil, .kept, nothing),
        row(.invalid, off, .signedOutElsewhere, I, nil, .kept, nothing),
        row(.invalid, on, .invalidatedElsewhere, I, nil, .kept, nothing),
        row(.invalid, off, .invalidatedElsewhere, I, nil, .kept, nothing),
        row(.invalid, on, .signedInElsewhere, A2, s2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.invalid, off, .signedInElsewhere, A2, s2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.invalid, on, .refreshedElsewhere, A1, s1c4, .new, .actions([.startEpoch, .publish(A1)])),
        row(.invalid, off, .refreshedElsewhere, A1, s1c4, .new, .actions([.startEpoch, .publish(A1)])),
        row(.invalid, on, .detailsChangedElsewhere, A2, s1d2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.invalid, off, .detailsChangedElsewhere, A2, s1d2, .new, .actions([.startEpoch, .publish(A2)])),
        row(.invalid, on, .unchangedElsewhere, A1, s1, .new, .actions([.startEpoch, .publish(A1)])),
        row(.invalid, off, .unchangedElsewhere, A1, s1, .new, .actions([.startEpoch, .publish(A1)])),
    ]
}
