import GRDB

/// The schema of one database kind, as generated from `store.yaml`: its latest version,
/// its policy, the migrations that lead to it, and the creation of the latest version from
/// nothing (which verification tests compare migrated databases with).
public struct StoreSchema: Sendable {
    public let kind: StoreKind
    /// The latest version; 0 for a kind `store.yaml` does not declare.
    public let version: Int
    public let policy: StorePolicy
    /// For `migrate`: the creation of version 1, then one migration per version up to
    /// `version`. For `recreate`: the creation of `version`.
    public let migrations: [StoreMigration]
    /// Creates every table and index of the latest version in an empty database.
    public let latest: @Sendable (Database) throws -> Void

    /// Declares a schema.
    /// - Precondition: `persistence` is never `recreate`; migration identifiers are unique
    ///   and their versions increase up to `version` (programmer errors in generated code).
    public init(
        kind: StoreKind, version: Int, policy: StorePolicy, migrations: [StoreMigration],
        latest: @escaping @Sendable (Database) throws -> Void
    ) {
        precondition(!(kind == .persistence && policy == .recreate), "persistence never loses data: it cannot be recreated")
        precondition(Set(migrations.map(\.identifier)).count == migrations.count, "migration identifiers must be unique")
        precondition(zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version }, "migration versions must increase")
        precondition(
            migrations.last.map { $0.version == version } ?? (version == 0), "the last migration must lead to the schema's version")
        self.kind = kind
        self.version = version
        self.policy = policy
        self.migrations = migrations
        self.latest = latest
    }

    /// A schema with no tables, at version 0.
    public static func empty(_ kind: StoreKind) -> StoreSchema {
        StoreSchema(kind: kind, version: 0, policy: kind == .persistence ? .migrate : .recreate, migrations: [], latest: { _ in })
    }

    /// The migration that leads to `version`, if any.
    public func migration(toVersion version: Int) -> StoreMigration? {
        migrations.first { $0.version == version }
    }
}
