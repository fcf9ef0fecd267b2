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
///
/// An ``AppSession`` drives it from the authentication state, so apps rarely call these
/// methods themselves. Its methods are synchronous and serialized by a lock, so that the
/// authentication service can switch contexts inside the step that changes its state.
public final class AppContexts: Sendable {
    /// The context for data that belongs to no user.
    public let standard: StandardContext
    /// The root directory.
    public let root: URL
    private let now: @Sendable () -> Date
    private let state = Locked<UserContext?>(nil)
    private let observers = Locked<ContextObservers>(ContextObservers())
    /// Serializes opening, migrating and closing contexts (see `switchContext`).
    private let switching = NSLock()

    /// Opens the standard context in `<root>/standard/` with `standardStores` (no tables by
    /// default). Does not open any user's context: call `restore(stores:)` for that.
    /// - Throws: a `StoreError` when the standard context's files cannot be opened.
    public init(root: URL, standardStores: StoreDefinition = .empty, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.root = root
        self.now = now
        standard = try StandardContext(directory: root.appendingPathComponent("standard", isDirectory: true), definition: standardStores)
    }

    /// The user's context in use, if any.
    public var current: UserContext? { state.withLock { $0 } }

    /// Starts a signed-in user's context: opens this user's stores with the generated
    /// `stores` (`<SDK>Store.definition`), saves the user as current (forgetting any session
    /// saved for another user), then closes the previous user's context (their files stay).
    /// Starting the current user again returns their open context.
    /// - Throws: a `StoreError` (a newer database, a failed migration, a file error, an
    ///   invalid user id); nothing changed then: the previous context is still open and
    ///   current, and the saved current user is unchanged.
    @discardableResult
    public func start(userID: String, stores: StoreDefinition) throws -> UserContext {
        try switchContext { current in
            if let current, current.userID == userID { return current }
            let directory = try UserContext.directory(for: userID, root: root)
            let context = try UserContext(userID: userID, directory: directory, definition: stores)
            do {
                try standard.database.setCurrentUser(SavedUser(id: userID, startedAt: now()))
            } catch {
                try? context.close()
                throw error
            }
            return context
        }
    }

    /// Reopens the context of the user saved as current by an earlier launch, if any
    /// (returns the open one if it is already started).
    /// - Throws: a `StoreError`; the saved user stays saved, so a later launch (after an
    ///   app update, for a newer database) can try again.
    @discardableResult
    public func restore(stores: StoreDefinition) throws -> UserContext? {
        guard let saved = try standard.savedUser() else { return nil }
        return try start(restoring: saved.id, stores: stores)
    }

    /// Reopens the context of `userID`, whose session is being restored, without saving
    /// anything (the user is already the saved current one).
    @discardableResult
    func start(restoring userID: String, stores: StoreDefinition) throws -> UserContext {
        try switchContext { current in
            if let current, current.userID == userID { return current }
            let directory = try UserContext.directory(for: userID, root: root)
            return try UserContext(userID: userID, directory: directory, definition: stores)
        }
    }

    /// Signs the current user out of their context: forgets the saved current user and the
    /// saved session in one transaction, and closes the context. Their persistent data
    /// stays on disk for their next sign-in, unless `erasingUserData`, which deletes their
    /// directory once the context is closed (never while a database of it is open).
    /// The context closes whatever happens to `sesame.sqlite`: a signed-out user's data
    /// must not stay open.
    /// - Throws: the first failure: `sesame.sqlite` could not be written, the context did
    ///   not close (its files are then not erased), or the files could not be deleted.
    public func signOut(erasingUserData: Bool = false) throws {
        var failure: (any Error)?
        do { try standard.database.signOut() } catch { failure = error }
        do { try closeCurrent(erasing: erasingUserData) } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// Closes the current user's context without forgetting the saved user (the session was
    /// invalidated: the user's next sign-in or launch finds them again).
    public func close() throws {
        try closeCurrent(erasing: false)
    }

    /// A stream of the current user context: the current one (nil when none) at once, then
    /// each change, in order. It ends when its consumer stops iterating.
    public func changes() -> AsyncStream<UserContext?> {
        // Unbounded: changes are rare (one per sign-in, sign-out or switch), and a consumer
        // must see each of them in order.
        let (stream, continuation) = AsyncStream.makeStream(of: UserContext?.self)
        // Under the state's lock, so that no change can fall between the first value and
        // the subscription.
        state.withLock { current in
            continuation.yield(current)
            let id = observers.withLock { $0.add(continuation) }
            continuation.onTermination = { [weak self] _ in self?.observers.withLock { $0.remove(id) } }
        }
        return stream
    }

    // MARK: Switching

    /// Replaces the current context with the one `open` returns (given the current one),
    /// then closes the previous one; tells observers when it changed. Switches are
    /// serialized by `switching`; `state` is held only to swap the pointer, so that reading
    /// ``current`` (even from inside a database access that a close waits for) never waits
    /// for an open, a migration or a close.
    private func switchContext(_ open: (UserContext?) throws -> UserContext) throws -> UserContext {
        try switching.withLock {
            let previous = current
            let next = try open(previous)
            guard next !== previous else { return next }
            publish(next)
            // The switch happened either way; a pool that fails to close closes when released.
            try? previous?.close()
            return next
        }
    }

    /// Closes the current context, which stops being current first; with `erasing`,
    /// deletes its directory once closed.
    @discardableResult
    private func closeCurrent(erasing: Bool) throws -> UserContext? {
        try switching.withLock {
            guard let context = current else { return nil }
            publish(nil)
            try context.close()
            if erasing { try StoreFiles.deleteDirectory(context.stores.directory) }
            return context
        }
    }

    private func publish(_ context: UserContext?) {
        state.withLock { current in
            current = context
            observers.withLock { $0.yield(context) }
        }
    }

    deinit {
        observers.withLock { $0.finishAll() }
    }
}

/// The streams of ``AppContexts/changes()``.
struct ContextObservers: Sendable {
    private var continuations: [UInt64: AsyncStream<UserContext?>.Continuation] = [:]
    private var count: UInt64 = 0

    mutating func add(_ continuation: AsyncStream<UserContext?>.Continuation) -> UInt64 {
        count += 1
        continuations[count] = continuation
        return count
    }

    mutating func remove(_ id: UInt64) {
        continuations[id] = nil
    }

    func yield(_ context: UserContext?) {
        for continuation in continuations.values { continuation.yield(context) }
    }

    func finishAll() {
        for continuation in continuations.values { continuation.finish() }
    }
}
