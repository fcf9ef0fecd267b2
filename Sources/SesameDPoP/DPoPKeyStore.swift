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

    /// The key stored; when there is none, `create()`'s, saved. With processes sharing the
    /// store, only one creates the key and every other one loads it: an implementation makes
    /// the load and the save one step (``FileDPoPKeyStore`` holds a lock across both).
    /// - Throws: when the key can be neither read nor saved.
    func loadOrSave(_ create: @Sendable () -> DPoPKey) async throws -> DPoPKey

    /// Removes the key if it is still `key`: a key another process stored since, for the
    /// session it signed in, stays.
    /// - Throws: when the key could not be read or removed.
    func delete(ifStill key: DPoPKey) async throws
}

extension DPoPKeyStore {
    /// ``load()``, then ``save(_:)`` when there was no key: one step only for a store no
    /// other process uses.
    public func loadOrSave(_ create: @Sendable () -> DPoPKey) async throws -> DPoPKey {
        if let key = try await load() { return key }
        let key = create()
        try await save(key)
        return key
    }

    /// ``load()``, then ``delete()`` when the key is still `key`: one step only for a store
    /// no other process uses.
    public func delete(ifStill key: DPoPKey) async throws {
        guard try await load() == key else { return }
        try await delete()
    }
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

    /// The key held, or `create()`'s, held from now on. Never throws.
    public func loadOrSave(_ create: @Sendable () -> DPoPKey) -> DPoPKey {
        if let key { return key }
        let created = create()
        key = created
        return created
    }

    /// Forgets the key if it is still `key`. Never throws.
    public func delete(ifStill key: DPoPKey) {
        if self.key == key { self.key = nil }
    }
}
