import Foundation

/// The contexts of an app: the standard one, always open, and at most one user's.
///
/// In the spirit of SwiftyArchitecture's `AppContext.startAppContext(with:storeVersions:)`:
/// after sign-in, `start(userID:stores:)` opens the user's stores (creating and migrating
/// them) and saves the user as current; at the next launch `restore(stores:)` reopens that
/// context, while the authentication service restores the session into `presession` from
/// the standard context's `sessionStore`. `signOut()` forgets the user and the session in
/// one transaction and closes the context. Files live under `root`, a directory the app
/// chooses (Application Support, typically): `standard/` and `users/u-<hex id>/`, each
/// 0700, with 0600 database files.
public actor AppContexts {
    /// The context for data that belongs to no user.
    public nonisolated let standard: StandardContext
    /// The user's context in use, if any.
    public private(set) var current: UserContext?
    /// The root directory.
    public nonisolated let root: URL
    private let now: @Sendable () -> Date

    /// Opens the standard context in `<root>/standard/` with `standardStores` (no tables by
    /// default). Does not open any user's context: call `restore(stores:)` for that.
    /// - Throws: a `StoreError` when the standard context's files cannot be opened.
    public init(root: URL, standardStores: StoreDefinition = .empty, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.root = root
        self.now = now
        standard = try StandardContext(directory: root.appendingPathComponent("standard", isDirectory: true), definition: standardStores)
    }

    /// Starts a signed-in user's context: closes the current one if it is another user's,
    /// opens this user's stores with the generated `stores` (`<SDK>Store.definition`), and
    /// saves the user as current (forgetting any session saved for another user). Starting
    /// the current user again returns their open context.
    /// - Throws: a `StoreError` (a newer database, a failed migration, a file error); the
    ///   previous user's context is closed once the new user's identifier is known valid,
    ///   and the saved current user is unchanged when the stores could not be opened.
    @discardableResult
    public func start(userID: String, stores: StoreDefinition) throws -> UserContext {
        if let current, current.userID == userID { return current }
        let directory = try UserContext.directory(for: userID, root: root)
        try closeCurrent()
        let context = try UserContext(userID: userID, directory: directory, definition: stores)
        do {
            try standard.database.setCurrentUser(SavedUser(id: userID, startedAt: now()))
        } catch {
            try? context.close()
            throw error
        }
        current = context
        return context
    }

    /// Reopens the context of the user saved as current by an earlier launch, if any
    /// (returns the open one if it is already started).
    /// - Throws: a `StoreError`; the saved user stays saved, so a later launch (after an
    ///   app update, for a newer database) can try again.
    @discardableResult
    public func restore(stores: StoreDefinition) throws -> UserContext? {
        guard let saved = try standard.savedUser() else { return nil }
        if let current, current.userID == saved.id { return current }
        let directory = try UserContext.directory(for: saved.id, root: root)
        try closeCurrent()
        let context = try UserContext(userID: saved.id, directory: directory, definition: stores)
        current = context
        return context
    }

    /// Signs the current user out of their context: forgets the saved current user and the
    /// saved session in one transaction, then closes the context. Their persistent data
    /// stays on disk for their next sign-in.
    /// - Throws: when `sesame.sqlite` cannot be written (nothing was forgotten then, and
    ///   the context stays open).
    public func signOut() throws {
        try standard.database.signOut()
        try closeCurrent()
    }

    private func closeCurrent() throws {
        guard let context = current else { return }
        current = nil
        try context.close()
    }
}
