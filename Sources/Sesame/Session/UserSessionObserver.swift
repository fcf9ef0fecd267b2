/// What follows the signed-in user beside the credential: per-user contexts and stores
/// (`SesameStore`'s `AppSession` installs one). The service tells it, inside the actor step
/// that changes the state, when a user's session begins and ends, so that what it opens and
/// closes can never disagree with the state, even when sign-ins, sign-outs and refreshes
/// race.
///
/// Its methods are synchronous on purpose: they run while the service holds its state, so
/// that the user's context is current before the state becomes `authenticated` (or
/// `presession`), and closed before anyone sees `unauthenticated` or `invalid`. Keep them short:
/// the service's other calls wait meanwhile. They must not wait for the service (a semaphore
/// around a call to it): the service is waiting for them.
///
/// A sign-in as another user while one is signed in calls `userSessionWillBegin` for the new
/// user only, with no `userSessionDidEnd` for the previous one: the observer switches from one
/// to the other itself, and must leave the previous user's session intact if it refuses the
/// new one (AppContexts opens the new context before closing the old).
public protocol UserSessionObserver: Sendable {
    /// A session of `userID` is about to begin: a sign-in completed (the state becomes
    /// `authenticated`, replacing any other user's session), or a session saved by an earlier
    /// launch is being restored (the state becomes `presession`). A sign-in or restore that a
    /// sign-out or another sign-in superseded never gets here.
    /// - Throws: to refuse the session: a sign-in then fails with this error, a restore leaves
    ///   the state `unauthenticated` (its saved session is kept for a later launch), and
    ///   nothing else changes.
    func userSessionWillBegin(userID: String, _ beginning: UserSessionBeginning) throws

    /// The session ended: the state just became `unauthenticated` (sign-out) or `invalid`.
    /// Never throws: the session is over either way.
    func userSessionDidEnd(_ ending: UserSessionEnding)

    /// Another process sharing the session store ended the session (see
    /// ``SharedSessionStore``), and already did what follows in the shared files: close what
    /// this process opened for the user, without writing what the other process wrote.
    /// The default calls ``userSessionDidEnd(_:)``. Never throws.
    func userSessionDidEndElsewhere(_ ending: UserSessionEnding)
}

extension UserSessionObserver {
    /// Calls ``userSessionDidEnd(_:)``.
    public func userSessionDidEndElsewhere(_ ending: UserSessionEnding) {
        userSessionDidEnd(ending)
    }
}

/// How a user's session begins.
public enum UserSessionBeginning: Sendable, Hashable {
    /// An authentication method completed.
    case signIn
    /// The session an earlier launch saved is restored (`restoreSession()`).
    case restore
}

/// How a user's session ends.
public enum UserSessionEnding: Sendable, Hashable {
    /// The app signed out (`unauthenticate()`).
    case signOut
    /// The back-end rejected the session, or it expired and could not be refreshed.
    case invalidated
}
