/// The rules of the authentication state and of the session it carries, as a value: each
/// input is a `mutating func` that returns the actions its caller (the authentication
/// service) must perform. No I/O, no clock and no `await` happen here, so every state ×
/// input pair is tested without any.
///
/// The session in use (credential, details, sign-in time) lives in the state's case, and
/// nowhere else: the service reads it from here and changes it only through these inputs;
/// what must follow a change outside memory (saving or clearing the session store, telling
/// the user-session observer, revoking) comes back as an action. The epoch, which discards
/// what completes for a session that ended, counts here too: it outlives any one session.
///
/// Connectivity is kept beside the state: while offline, the state is frozen against what
/// the network says (rejections, expiry, refresh results) and changes only on what the app
/// or the user does locally (sign-out, a sign-in that completed, a launch-time restore).
struct AuthenticationStateMachine<Details: Codable & Hashable & Sendable>: Sendable {
    /// The session the machine carries: the credential, the user's details and when the
    /// user signed in.
    typealias Session = StoredSession<Details>

    /// An effect the service performs, in the order given.
    enum Action: Hashable, Sendable {
        /// A new session epoch started (the machine counts it): forget the in-flight refresh
        /// and the event stream; anything that completes for an older epoch is discarded.
        case startEpoch
        /// A new epoch for the same user (an identity attached to the current account): as
        /// `startEpoch`, but a request waiting for the old epoch's refresh goes on with the
        /// session's new credential instead of failing.
        case continueEpoch
        /// Saves this session (the one the machine now holds) through the session store.
        /// `replacing` is the credential the session had before this change (nil for a new
        /// sign-in): a store shared with other processes saves only if it still holds that
        /// one, so that no process brings back a session another one ended or replaced.
        case persistSession(Session, replacing: Credential?)
        /// Forgets the saved session in the session store, then tells the user-session
        /// observer that the user's session ended, when one did (nil: none was in use).
        case clearSession(ending: UserSessionEnding?)
        /// Another process ended the session (it already cleared the store): tell the
        /// user-session observer, without touching the store.
        case sessionEndedElsewhere(UserSessionEnding)
        /// Asks the back-end to revoke this credential, of the session just signed out
        /// (best effort).
        case revokeSession(Credential)
        /// Asks the restoration delegate whether and how to refresh a restored session.
        case consultRestorationDelegate
        /// Checks the credential with the back-end (connectivity came back).
        case verifyCredential
        /// Tells subscribers the state changed.
        case publish(AuthenticationState<Details>)
    }

    /// What to do with a refreshed credential.
    enum CredentialAction: Hashable, Sendable {
        /// The session took it (with the old refresh token when the back-end did not rotate
        /// it): use this credential and run the actions (saving the session).
        case install(Credential, [Action])
        /// It belongs to a session that ended or an older epoch: drop it.
        case discard
    }

    /// Where the authentication stands, with the data of each case.
    private enum State: Hashable, Sendable {
        case unauthenticated
        /// Restored at launch, not yet confirmed.
        case presession(Session)
        case authenticated(Session)
        /// The back-end no longer accepts the session, which is gone.
        case invalid
    }

    private var state: State = .unauthenticated
    private var online: Bool
    /// Bumped by every sign-in, restore, invalidation and sign-out (unless unauthenticated), and by an
    /// identity attached to the current account.
    private(set) var epoch: UInt64 = 0
    /// Bumped as `epoch` except by an identity attached: while it stays, the user does.
    private(set) var userEpoch: UInt64 = 0

    /// A machine in `unauthenticated`, at epoch 0.
    init(isOnline: Bool = true) {
        self.online = isOnline
    }

    /// The current state, with the session's details.
    var current: AuthenticationState<Details> {
        switch state {
        case .unauthenticated: return .unauthenticated
        case .presession(let session): return .presession(session.details)
        case .authenticated(let session): return .authenticated(session.details)
        case .invalid: return .invalid
        }
    }

    /// The session in use: in `presession` and `authenticated`, nil otherwise.
    var session: Session? {
        switch state {
        case .presession(let session), .authenticated(let session): return session
        case .unauthenticated, .invalid: return nil
        }
    }

    /// Whether the app says the back-end is reachable.
    var isOnline: Bool { online }

    // MARK: Inputs

    /// An authentication method ran to the end with `session`: the user is signed in,
    /// whatever the state or the connectivity flag was (a completed sign-in proves the
    /// back-end is reachable).
    mutating func authenticationSucceeded(_ session: Session) -> [Action] {
        state = .authenticated(session)
        return [newEpoch(sameUser: false), .persistSession(session, replacing: nil), .publish(current)]
    }

    /// A method run into the current account attached another identity to it: the same
    /// user (the service checked), a new credential and fresh details. Ignored unless the
    /// user is authenticated.
    mutating func identityAttached(_ session: Session) -> [Action] {
        guard case .authenticated(let previous) = state else { return [] }
        state = .authenticated(session)
        let saved: [Action] = [newEpoch(sameUser: true), .persistSession(session, replacing: previous.credential)]
        return previous.details == session.details ? saved : saved + [.publish(current)]
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
            return [.clearSession(ending: nil)]
        case .presession(let session), .authenticated(let session):
            let ended: [Action] = [newEpoch(sameUser: false), .clearSession(ending: .signOut)]
            return online ? ended + [.revokeSession(session.credential), .publish(current)] : ended + [.publish(current)]
        case .invalid:
            return [newEpoch(sameUser: false), .clearSession(ending: nil), .publish(current)]
        }
    }

    /// A session was loaded from the session store at launch: `presession` until its
    /// refresh succeeds or is rejected. Ignored unless the state is `unauthenticated`.
    mutating func sessionRestored(_ session: Session) -> [Action] {
        guard case .unauthenticated = state else { return [] }
        state = .presession(session)
        let restored = [newEpoch(sameUser: false), .publish(current)]
        return online ? restored + [.consultRestorationDelegate] : restored
    }

    /// The restoration delegate chose not to refresh: it vouches for the stored session.
    mutating func restorationTrusted() -> [Action] {
        guard case .presession(let session) = state else { return [] }
        state = .authenticated(session)
        return [.publish(current)]
    }

    /// A refresh (or a check with the back-end) succeeded and returned these details for
    /// the session's user; the credential stays. Offline, nothing changes (frozen).
    mutating func refreshSucceeded(_ details: Details) -> [Action] {
        guard online else { return [] }
        switch state {
        case .presession(var session):
            session.details = details
            state = .authenticated(session)
            return [.persistSession(session, replacing: session.credential), .publish(current)]
        case .authenticated(var session):
            guard session.details != details else { return [] }
            session.details = details
            state = .authenticated(session)
            return [.persistSession(session, replacing: session.credential), .publish(current)]
        case .unauthenticated, .invalid:
            return []
        }
    }

    /// The refresh engine got `credential` for a refresh that started in `epoch`: the
    /// session takes it, keeping its refresh token when the back-end did not rotate it,
    /// online or not (the refresh itself reached the back-end). The state does not change.
    /// Dropped when the session ended or another began since. `details`, when the refresh
    /// gave new ones (the claims of its ID token, `details: idToken`), replace the session's,
    /// published when they differ.
    mutating func credentialRefreshed(_ credential: Credential, details: Details? = nil, epoch: UInt64) -> CredentialAction {
        guard epoch == self.epoch else { return .discard }
        switch state {
        case .presession(var session):
            let previous = session.credential
            let credential = credential.keepingRefreshToken(of: previous)
            session.credential = credential
            let changed = details.map { $0 != session.details } ?? false
            if let details { session.details = details }
            state = .presession(session)
            return .install(credential, [.persistSession(session, replacing: previous)] + (changed ? [.publish(current)] : []))
        case .authenticated(var session):
            let previous = session.credential
            let credential = credential.keepingRefreshToken(of: previous)
            session.credential = credential
            let changed = details.map { $0 != session.details } ?? false
            if let details { session.details = details }
            state = .authenticated(session)
            return .install(credential, [.persistSession(session, replacing: previous)] + (changed ? [.publish(current)] : []))
        case .unauthenticated, .invalid:
            return .discard
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

    /// Another process sharing the session store changed what it saved (see
    /// `SharedSessionStore`), and this machine follows it, online or offline (it is what
    /// the store holds, not a guess about the network):
    /// - none saved: a session in use ends as the other process ended it (`unauthenticated`
    ///   after a sign-out, `invalid` after an invalidation), without clearing the store again;
    /// - a session of another user, or one while none is in use: the user signed in there,
    ///   and is `authenticated` here (a new epoch);
    /// - the same user's session with another credential or details: this machine takes
    ///   them (a refresh or a details update there), in the same state and epoch.
    /// `sameUser` says whether `saved` belongs to the user of the session in use.
    mutating func sessionChangedElsewhere(_ saved: Session?, sameUser: Bool, ending: UserSessionEnding) -> [Action] {
        switch (state, saved) {
        case (.unauthenticated, nil), (.invalid, nil):
            return []
        case (.presession, nil), (.authenticated, nil):
            state = ending == .signOut ? .unauthenticated : .invalid
            return [newEpoch(sameUser: false), .sessionEndedElsewhere(ending), .publish(current)]
        case (.presession(let session), let saved?) where sameUser, (.authenticated(let session), let saved?) where sameUser:
            guard saved != session else { return [] }
            if case .presession = state { state = .presession(saved) } else { state = .authenticated(saved) }
            return saved.details == session.details ? [] : [.publish(current)]
        case (_, let saved?):
            state = .authenticated(saved)
            return [newEpoch(sameUser: false), .publish(current)]
        }
    }

    private mutating func invalidate() -> [Action] {
        guard online else { return [] }
        switch state {
        case .presession, .authenticated:
            state = .invalid
            return [newEpoch(sameUser: false), .clearSession(ending: .invalidated), .publish(current)]
        case .unauthenticated, .invalid:
            return []
        }
    }

    /// Counts a new epoch and returns the action that tells the service.
    private mutating func newEpoch(sameUser: Bool) -> Action {
        epoch += 1
        guard !sameUser else { return .continueEpoch }
        userEpoch += 1
        return .startEpoch
    }
}
