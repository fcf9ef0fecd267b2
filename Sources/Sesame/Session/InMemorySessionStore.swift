import Foundation

/// A ``SessionStore`` that keeps the session in memory only: nothing survives the process.
/// The default store, and the one to use in tests.
public final class InMemorySessionStore<Details: Codable & Hashable & Sendable>: SessionStore, @unchecked Sendable {
    // Guarded by `lock`; the class is Sendable because every access goes through it.
    private let lock = NSLock()
    private var session: StoredSession<Details>?

    /// Creates a store holding `session`, nil by default.
    public init(session: StoredSession<Details>? = nil) {
        self.session = session
    }

    /// Returns the session held, if any. Never throws.
    public func load() throws -> StoredSession<Details>? {
        lock.withLock { session }
    }

    /// Holds `session` instead of the previous one. Never throws.
    public func save(_ session: StoredSession<Details>) throws {
        lock.withLock { self.session = session }
    }

    /// Forgets the session held. Never throws.
    public func clear() throws {
        lock.withLock { session = nil }
    }
}
