import Foundation

/// Where a ``SoftwareAuthenticator`` keeps its credentials: ``InMemoryPasskeyCredentialStore``
/// for tests, ``FilePasskeyCredentialStore`` for one file readable by its owner only, or
/// the app's own (a keychain).
public protocol PasskeyCredentialStore: Sendable {
    /// The credentials of `rpID`, in the order they were first saved.
    /// - Throws: ``PasskeyError/storeFailed(reason:)`` when the store cannot be read.
    func credentials(rpID: String) async throws -> [PasskeyCredential]

    /// Saves `credential`, replacing the one with the same id (its counter moved on), or
    /// adding it after the others.
    /// - Throws: ``PasskeyError/storeFailed(reason:)`` when the store cannot be written;
    ///   the store holds what it held before.
    func save(_ credential: PasskeyCredential) async throws

    /// Removes the credential with `id`; nothing happens when there is none.
    /// - Throws: ``PasskeyError/storeFailed(reason:)`` when the store cannot be written.
    func remove(id: Data) async throws
}

/// A ``PasskeyCredentialStore`` in memory: its credentials die with it.
public actor InMemoryPasskeyCredentialStore: PasskeyCredentialStore {
    private var stored: [PasskeyCredential] = []

    /// An empty store.
    public init() {}

    public func credentials(rpID: String) -> [PasskeyCredential] {
        stored.filter { $0.rpID == rpID }
    }

    public func save(_ credential: PasskeyCredential) {
        if let index = stored.firstIndex(where: { $0.id == credential.id }) {
            stored[index] = credential
        } else {
            stored.append(credential)
        }
    }

    public func remove(id: Data) {
        stored.removeAll { $0.id == id }
    }

    /// Every credential, of every RP ID, in the order they were first saved.
    public func all() -> [PasskeyCredential] { stored }
}
