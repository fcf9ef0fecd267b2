import Foundation
import GRDB
import Sesame

/// The context for data that belongs to no user: its own three databases in
/// `<root>/standard/`, and Sesame's `sesame.sqlite` with the saved current user and session.
public final class StandardContext: Sendable {
    /// The standard context's databases.
    public let stores: ContextStores
    let database: StandardDatabase
    /// `<root>/standard/`.
    let directory: URL

    init(directory: URL, definition: StoreDefinition) throws {
        self.directory = directory
        database = try StandardDatabase(directory: directory)
        do {
            stores = try ContextStores(directory: directory, definition: definition)
        } catch {
            try? database.pool.close()
            throw error
        }
    }

    /// The user whose context was current when the app last ran, if they did not sign out.
    /// - Throws: when `sesame.sqlite` cannot be read.
    public func savedUser() throws -> SavedUser? {
        try database.currentUser()
    }

    /// A session store for the authentication service, kept beside the saved current user.
    /// - Parameter userID: the user identifier of the details (the generated SDK's
    ///   `userID(of:)`), so that a session is only ever loaded for its own user.
    public func sessionStore<Details: Codable & Hashable & Sendable>(
        userID: @escaping @Sendable (Details) -> String
    ) -> SQLiteSessionStore<Details> {
        SQLiteSessionStore(database: database, userID: userID, now: { Date() })
    }

    /// A session store for the authentication service that other processes use at the same
    /// time (an app and its extensions over an App Group container): see
    /// ``SharedSQLiteSessionStore``.
    /// - Parameters:
    ///   - pollingInterval: how often it looks for the other processes' changes.
    ///   - userID: the user identifier of the details, as for ``sessionStore(userID:)``.
    public func sharedSessionStore<Details: Codable & Hashable & Sendable>(
        pollingInterval: Duration = .milliseconds(50), userID: @escaping @Sendable (Details) -> String
    ) -> SharedSQLiteSessionStore<Details> {
        SharedSQLiteSessionStore(
            database: database, directory: directory, pollingInterval: pollingInterval, userID: userID, now: { Date() })
    }

    /// Closes the databases; later accesses throw.
    public func close() throws {
        try stores.close()
        try database.pool.close()
    }
}
