/// The three databases of a context.
public enum StoreKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A file that may be deleted and rebuilt (policy `recreate`) or migrated (`migrate`).
    case cache
    /// An in-memory database, created afresh at each launch and gone at exit.
    case memory
    /// A file that never loses data: always migrated, never recreated.
    case persistence

    public var description: String { rawValue }
}

/// What opening a database does when its stored version is older than the app's.
public enum StorePolicy: String, Sendable, Hashable, Codable {
    /// Runs the schema's migrations from the stored version, one transaction each.
    case migrate
    /// Deletes the database and creates the latest version.
    case recreate
}
