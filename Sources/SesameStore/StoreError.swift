/// A failure of the stores or contexts. Switch on it to tell what went wrong; its
/// descriptions never contain stored data or tokens.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database was written by a newer build (a downgrade). It was not modified: the
    /// app must be updated, or the app may delete the file itself if it is a cache.
    case databaseNewerThanApp(kind: StoreKind, path: String, databaseVersion: Int, appVersion: Int)
    /// A migration failed; its transaction was rolled back, so the database is still at
    /// the version before it, with all its rows.
    case migrationFailed(kind: StoreKind, identifier: String, reason: String)
    /// The database could not be opened or read.
    case unreadable(kind: StoreKind, path: String, reason: String)
    /// A file or directory could not be created or given owner-only permissions.
    case fileSystem(path: String, reason: String)
    /// A user identifier cannot name a context: it is empty or longer than 100 UTF-8 bytes.
    case invalidUserID

    public var description: String {
        switch self {
        case .databaseNewerThanApp(let kind, let path, let found, let supported):
            return
                "the \(kind) database at \(path) is at version \(found), newer than this app's version \(supported); it was left untouched"
        case .migrationFailed(let kind, let identifier, let reason):
            return "migration \(identifier) of the \(kind) database failed and was rolled back: \(reason)"
        case .unreadable(let kind, let path, let reason):
            return "the \(kind) database at \(path) could not be opened: \(reason)"
        case .fileSystem(let path, let reason):
            return "\(path): \(reason)"
        case .invalidUserID:
            return "a user identifier must be 1 to 100 UTF-8 bytes long to name a context"
        }
    }
}
