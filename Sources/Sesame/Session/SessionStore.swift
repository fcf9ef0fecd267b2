/// Where the authentication service keeps the session between launches.
///
/// The service saves the session when a user signs in, when a refresh rotates the tokens and
/// when the details change; it clears it on sign-out and when the session becomes invalid;
/// it loads it in `restoreSession()`.
///
/// The methods are synchronous on purpose: the service calls them inside the same actor step
/// as the change they record, so a rotated refresh token can never be saved after a sign-out
/// that happened meanwhile, nor be lost between memory and disk. Keep them short (one row).
public protocol SessionStore<Details>: Sendable {
    /// The signed-in user's details.
    associatedtype Details: Codable & Hashable & Sendable

    /// Returns the saved session, or nil when there is none.
    /// - Throws: when the store cannot be read; the service then starts `unauthenticated`.
    func load() throws -> StoredSession<Details>?

    /// Saves the session, replacing any saved one.
    /// - Throws: when the store cannot be written; the service logs it and keeps the
    ///   session in memory.
    func save(_ session: StoredSession<Details>) throws

    /// Forgets the saved session; does nothing when there is none.
    /// - Throws: when the store cannot be written; the service logs it.
    func clear() throws
}
