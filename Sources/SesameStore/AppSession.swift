import Foundation
import Logging
@_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

/// The one object an app holds for a generated SDK: its `AuthenticationService`, its
/// ``AppContexts`` and the SQLite session store, joined so that the user's context follows
/// the authentication state without app code:
///
/// - the standard context (no user) is always open;
/// - a sign-in opens the user's context (creating or migrating their stores) and makes it
///   current before the state becomes `authenticated`; a sign-in as another user opens
///   theirs, then closes the previous one (its files stay: they are that user's);
/// - `unauthenticate()` closes the user's context (and erases their files when
///   ``Configuration/userDataOnSignOut`` says so); `invalid` closes it and keeps the files;
/// - `restoreSession()` at launch opens the saved user's context in `presession`, so an app
///   launched offline has its user's data at once, and closes it if the restore ends `invalid`;
/// - a sign-in or restore that a sign-out or another sign-in superseded never opens a
///   context, and a context that fails to open fails the sign-in with its `StoreError`
///   and changes no state.
///
/// ```swift
/// let app = try AppSession<ReferenceSDKSchema>(configuration: .init(
///     service: .init(client: ClientCredentials(clientID: "my-app", clientSecret: "…")),
///     stores: ReferenceSDKStore.definition))
/// await app.restoreSession()                           // at launch
/// try await app.auth.authenticate(with: SingleStepMethod.guest)
/// let notes = try app.currentContext?.stores.persistence.read { db in try ReferenceSDKStore.Persistence.Note.fetchAll(db) }
/// ```
public final class AppSession<Schema: SDKSchema>: Sendable {
    /// What an ``AppSession`` is built from.
    public struct Configuration: Sendable {
        /// The authentication service's configuration. Its `sessionStore` and
        /// `userSessionObserver` are replaced: the session is kept in the standard context's
        /// `sesame.sqlite`, and the contexts follow the state.
        public var service: AuthenticationServiceConfiguration<Schema.Details>
        /// The user contexts' stores, as generated from `store.yaml` (`<SDK>Store.definition`).
        public var stores: StoreDefinition
        /// The standard context's stores; none by default.
        public var standardStores: StoreDefinition
        /// Where the contexts live; nil for `Application Support/Sesame/<SDK name>` (see
        /// ``AppSession/defaultDirectory(for:)``).
        public var directory: URL?
        /// What happens to a user's files when they sign out; kept by default.
        public var userDataOnSignOut: UserDataOnSignOut
        /// Whether other processes (the app's extensions) use `directory` at the same time;
        /// by default only this one does. See ``SessionSharing``.
        public var sharing: SessionSharing

        /// Creates a configuration; only the stores have no default.
        public init(
            service: AuthenticationServiceConfiguration<Schema.Details> = .init(), stores: StoreDefinition,
            standardStores: StoreDefinition = .empty, directory: URL? = nil,
            userDataOnSignOut: UserDataOnSignOut = .keep, sharing: SessionSharing = .singleProcess
        ) {
            self.service = service
            self.stores = stores
            self.standardStores = standardStores
            self.directory = directory
            self.userDataOnSignOut = userDataOnSignOut
            self.sharing = sharing
        }
    }

    /// The authentication service: sign in and out, operations, events.
    public let auth: AuthenticationService<Schema>
    /// The standard context and the current user's.
    public let contexts: AppContexts

    /// Opens the standard context in the configuration's directory and creates the service.
    /// No user's context is open until a sign-in or ``restoreSession()``.
    /// - Throws: a `StoreError` when the directory or the standard context's files cannot be
    ///   created or opened.
    public init(configuration: Configuration) throws {
        let directory = try configuration.directory ?? Self.defaultDirectory(for: Schema.description.name)
        let contexts = try AppContexts(
            root: directory, standardStores: configuration.standardStores,
            now: configuration.service.now)
        var service = configuration.service
        switch configuration.sharing {
        case .singleProcess:
            service.sessionStore = contexts.standard.sessionStore(userID: Schema.userID(of:))
        case .acrossProcesses(let interval):
            service.sessionStore = contexts.standard.sharedSessionStore(pollingInterval: interval, userID: Schema.userID(of:))
        }
        service.userSessionObserver = ContextCoordinator(
            contexts: contexts, stores: configuration.stores,
            userData: configuration.userDataOnSignOut,
            logger: configuration.service.logger)
        self.contexts = contexts
        self.auth = AuthenticationService(configuration: service)
    }

    /// The signed-in (or restored) user's context; nil when no one is signed in.
    public var currentContext: UserContext? { contexts.current }

    /// The current user's context at once, then each change: a stream that ends when its
    /// consumer stops iterating.
    public func contextChanges() -> AsyncStream<UserContext?> {
        contexts.changes()
    }

    /// Restores the session an earlier launch saved, opening its user's context first (see
    /// `AuthenticationService.restoreSession()`).
    /// - Returns: the state once done. Never throws: a context that cannot open is logged
    ///   and leaves the state `unauthenticated`, with the session still saved.
    @discardableResult
    public func restoreSession() async -> AuthenticationState<Schema.Details> {
        await auth.restoreSession()
    }

    /// `Application Support/Sesame/<name>` (on Linux, the XDG data directory).
    /// - Throws: `StoreError.fileSystem` when the platform has no such directory.
    public static func defaultDirectory(for name: String) throws -> URL {
        guard let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else {
            throw StoreError.fileSystem(path: "Application Support", reason: "the platform has no application support directory")
        }
        return support.appendingPathComponent("Sesame", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }
}

/// Whether an ``AppSession``'s directory is used by this process alone or by several at once.
public enum SessionSharing: Sendable, Hashable {
    /// Only this process uses the directory (the default).
    case singleProcess
    /// Other processes use it at the same time: an app and its extensions over an App Group
    /// container (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`). The
    /// session store is a ``SharedSQLiteSessionStore``: one refresh across processes, and
    /// each process follows the others' sign-ins, sign-outs, refreshes and invalidations
    /// within about `pollingInterval`.
    case acrossProcesses(pollingInterval: Duration = .milliseconds(50))
}

/// What happens to a user's files (their context's directory) when they sign out.
public enum UserDataOnSignOut: Sendable, Hashable {
    /// They stay on the device for the user's next sign-in.
    case keep
    /// They are deleted once the context is closed.
    case erase
}

/// Opens and closes the user's context as the authentication service says, inside the step
/// that changes its state.
struct ContextCoordinator: UserSessionObserver {
    let contexts: AppContexts
    let stores: StoreDefinition
    let userData: UserDataOnSignOut
    let logger: Logger

    func userSessionWillBegin(userID: String, _ beginning: UserSessionBeginning) throws {
        switch beginning {
        case .signIn: try contexts.start(userID: userID, stores: stores)
        case .restore: try contexts.start(restoring: userID, stores: stores)
        }
    }

    /// Another process signed out or was invalidated, and already wrote `sesame.sqlite` (and
    /// erased the user's files if configured): close the context here, writing nothing.
    func userSessionDidEndElsewhere(_ ending: UserSessionEnding) {
        do {
            try contexts.close()
        } catch {
            logger.error("the user's context did not close cleanly: \(error)")
        }
    }

    func userSessionDidEnd(_ ending: UserSessionEnding) {
        do {
            switch ending {
            case .signOut: try contexts.signOut(erasingUserData: userData == .erase)
            case .invalidated: try contexts.close()
            }
        } catch {
            logger.error("the user's context did not close cleanly: \(error)")
        }
    }
}
