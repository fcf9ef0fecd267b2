import Foundation
import GRDB

/// The three databases of a context: `cache` and `persistence` are owner-only files in the
/// context's directory, `memory` lives in memory. Each is at its schema's latest version.
public final class ContextStores: Sendable {
    /// `cache.sqlite`: may be deleted and rebuilt; put nothing there you cannot fetch again.
    public let cache: DatabasePool
    /// In memory: created afresh when the context starts, gone when it closes.
    public let memory: DatabaseQueue
    /// `persistence.sqlite`: migrated losslessly, never deleted by Sesame.
    public let persistence: DatabasePool
    /// The directory holding the files.
    public let directory: URL

    /// The file names in a context's directory.
    public static let cacheFileName = "cache.sqlite"
    public static let persistenceFileName = "persistence.sqlite"

    /// Opens (creating and migrating as needed) the three databases of `definition` in
    /// `directory`, which is created with mode 0700.
    /// - Throws: a `StoreError`; databases already opened are closed again.
    public init(directory: URL, definition: StoreDefinition) throws {
        try StoreFiles.makeDirectory(directory, restrictExisting: true)
        let persistence = try StoreDatabase.openFile(
            at: directory.appendingPathComponent(Self.persistenceFileName),
            schema: definition.persistence)
        do {
            cache = try StoreDatabase.openFile(at: directory.appendingPathComponent(Self.cacheFileName), schema: definition.cache)
            memory = try StoreDatabase.openMemory(schema: definition.memory)
        } catch {
            try? persistence.close()
            throw error
        }
        self.persistence = persistence
        self.directory = directory
    }

    /// The database of a kind.
    public func database(_ kind: StoreKind) -> any DatabaseWriter {
        switch kind {
        case .cache: return cache
        case .memory: return memory
        case .persistence: return persistence
        }
    }

    /// Closes the three databases; later accesses throw. Closing twice does nothing more.
    /// - Throws: when a database cannot close (a statement is still in use).
    public func close() throws {
        var failure: (any Error)?
        for writer in [persistence, cache] as [any DatabaseWriter] + [memory] {
            do { try writer.close() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}
