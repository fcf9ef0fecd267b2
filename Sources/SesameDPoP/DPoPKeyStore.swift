/// Where an app keeps its ``DPoPKey`` between launches: one key, loaded, replaced or
/// deleted. Tokens bound to a key are useless without it, so a store that loses the key
/// means a new sign-in.
///
/// ``FileDPoPKeyStore`` keeps it in a file only its owner can read; ``InMemoryDPoPKeyStore``
/// for the lifetime of the process. A Keychain store conforms the same way.
public protocol DPoPKeyStore: Sendable {
    /// The key stored, or nil when there is none.
    /// - Throws: when a key is there but cannot be read (``FileDPoPKeyStore`` throws
    ///   ``DPoPKeyStoreError``).
    func load() async throws -> DPoPKey?

    /// Stores `key`, replacing the key stored before.
    /// - Throws: when the key could not be stored; the key stored before, if any, stays.
    func save(_ key: DPoPKey) async throws

    /// Removes the key; nothing happens when there is none.
    /// - Throws: when a key is there and could not be removed.
    func delete() async throws
}

/// A ``DPoPKeyStore`` in memory: the key lasts as long as the store (a process), which suits
/// tests and apps that bind tokens for one launch only.
public actor InMemoryDPoPKeyStore: DPoPKeyStore {
    private var key: DPoPKey?

    /// A store holding `key`, by default none.
    public init(key: DPoPKey? = nil) {
        self.key = key
    }

    /// The key held, or nil. Never throws.
    public func load() -> DPoPKey? { key }

    /// Holds `key` instead of the one before. Never throws.
    public func save(_ key: DPoPKey) {
        self.key = key
    }

    /// Forgets the key. Never throws.
    public func delete() {
        key = nil
    }
}
