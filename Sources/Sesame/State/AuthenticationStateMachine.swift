/// The rules of the authentication state, as a value: each input is a `mutating func` that
/// returns the actions its caller (the authentication service) must perform. No I/O, no
/// clock and no `await` happen here, so every state × input pair is tested without any.
///
/// Connectivity is kept beside the state: while offline, the state is frozen against what
/// the network says (rejections, expiry, refresh results) and changes only on what the app
/// or the user does locally (sign-out, a sign-in that completed, a launch-time restore).
struct AuthenticationStateMachine<Details: Codable & Hashable & Sendable>: Sendable {
    /// An effect the service performs, in the order given.
    enum Action: Hashable, Sendable {
        /// Starts a new session epoch: forget the in-flight refresh and the event stream;
        /// anything that completes for an older epoch is discarded.
        case startEpoch
        /// Starts a new epoch for the same user (an identity attached to the current
        /// account): as `startEpoch`, but a request waiting for the old epoch's refresh
        /// goes on with the session's new credential instead of failing.
        case continueEpoch
        /// Saves the current session through the session store.
        case persistSession
        /// Forgets the session in memory and in the session store.
        case clearSession
        /// Asks the back-end to revoke the session that was just cleared (best effort).
        case revokeSession
        /// Asks the restoration delegate whether and how to refresh a restored session.
        case consultRestorationDelegate
        /// Checks the credential with the back-end (connectivity came back).
        case verifyCredential
        /// Tells subscribers the state changed.
        case publish(AuthenticationState<Details>)
    }

    private var state: AuthenticationState<Details>
    private var online: Bool

    init(state: AuthenticationState<Details> = .unauthenticated, isOnline: Bool = true) {
        self.state = state
        self.online = isOnline
    }

    /// The current state.
    var current: AuthenticationState<Details> { state }
    /// Whether the app says the back-end is reachable.
    var isOnline: Bool { online }

    // MARK: Inputs

    /// An authentication method ran to the end: the user is signed in, whatever the state
    /// or the connectivity flag was (a completed sign-in proves the back-end is reachable).
    mutating func authenticationSucceeded(_ details: Details) -> [Action] {
        state = .authenticated(details)
        return [.startEpoch, .persistSession, .publish(state)]
    }

    /// A method run into the current account attached another identity to it: the same
    /// user, a new credential and fresh details. Ignored unless the user is authenticated.
    mutating func identityAttached(_ details: Details) -> [Action] {
        guard case .authenticated(let previous) = state else { return [] }
        state = .authenticated(details)
        return previous == details ? [.continueEpoch, .persistSession] : [.continueEpoch, .persistSession, .publish(state)]
    }

    /// An authentication method failed: nothing changes.
    mutating func authenticationFailed() -> [Action] {
        []
    }

    /// The app signs out: always ends in `unauthenticated`, online or offline; the back-end
    /// is asked to revoke the session only when online and a usable session existed.
    mutating func unauthenticate() -> [Action] {
        let previous = state
        state = .unauthenticated
        switch previous {
        case .unauthenticated:
            return [.clearSession]
        case .presession, .authenticated:
            return online
                ? [.startEpoch, .clearSession, .revokeSession, .publish(state)]
                : [.startEpoch, .clearSession, .publish(state)]
        case .invalid:
            return [.startEpoch, .clearSession, .publish(state)]
        }
    }

    /// A session was loaded from the session store at launch: `presession` until its
    /// refresh succeeds or is rejected. Ignored unless the state is `unauthenticated`.
    mutating func sessionRestored(_ details: Details) -> [Action] {
        guard case .unauthenticated = state else { return [] }
        state = .presession(details)
        return online ? [.startEpoch, .publish(state), .consultRestorationDelegate] : [.startEpoch, .publish(state)]
    }

    /// The restoration delegate chose not to refresh: it vouches for the stored session.
    mutating func restorationTrusted() -> [Action] {
        guard case .presession(let details) = state else { return [] }
        state = .authenticated(details)
        return [.publish(state)]
    }

    /// A refresh (or a check with the back-end) succeeded and returned these details.
    mutating func refreshSucceeded(_ details: Details) -> [Action] {
        guard online else { return [] }
        switch state {
        case .presession:
            state = .authenticated(details)
            return [.persistSession, .publish(state)]
        case .authenticated(let previous):
            guard previous != details else { return [] }
            state = .authenticated(details)
            return [.persistSession, .publish(state)]
        case .unauthenticated, .invalid:
            return []
        }
    }

    /// A refresh failed for a reason that says nothing about the session (network, 5xx,
    /// rate limit): the credential and the state stay.
    mutating func refreshFailedTransiently() -> [Action] {
        []
    }

    /// The back-end rejected the credential: its own rejection of a request that could not
    /// be refreshed, a rejected refresh (`invalid_grant`), or an invalidating server event.
    mutating func credentialRejected() -> [Action] {
        invalidate()
    }

    /// The access token expired and cannot be refreshed (no refresh token or no refresh).
    mutating func credentialExpired() -> [Action] {
        invalidate()
    }

    /// The app reports connectivity. Coming back online verifies the session with the
    /// back-end (a restored one through the restoration delegate); the state itself does
    /// not change here.
    mutating func connectivityChanged(online isOnline: Bool) -> [Action] {
        defer { online = isOnline }
        guard isOnline, !online else { return [] }
        switch state {
        case .presession: return [.consultRestorationDelegate]
        case .authenticated: return [.verifyCredential]
        case .unauthenticated, .invalid: return []
        }
    }

    private mutating func invalidate() -> [Action] {
        guard online else { return [] }
        switch state {
        case .presession, .authenticated:
            state = .invalid
            return [.startEpoch, .clearSession, .publish(state)]
        case .unauthenticated, .invalid:
            return []
        }
    }
}
