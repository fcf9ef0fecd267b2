/// The validated store declarations of `store.yaml`: one section per database kind, each a
/// list of versions (full snapshots of the schema) and the migrations derived from them.
public struct StoreIR: Sendable, Hashable, Codable {
    /// The `persistence` database: migrated losslessly, never recreated.
    public var persistence: StoreSectionIR?
    /// The `cache` database: recreated on a version change (`policy: recreate`, the default)
    /// or migrated (`policy: migrate`).
    public var cache: StoreSectionIR?
    /// The in-memory database: created afresh at every launch from its latest version.
    public var memory: StoreSectionIR?

    public init(persistence: StoreSectionIR? = nil, cache: StoreSectionIR? = nil, memory: StoreSectionIR? = nil) {
        self.persistence = persistence
        self.cache = cache
        self.memory = memory
    }

    /// The sections present, in the order persistence, cache, memory.
    public var sections: [StoreSectionIR] { [persistence, cache, memory].compactMap { $0 } }
}

/// The three databases of a context.
public enum StoreKindIR: String, Sendable, Hashable, Codable, CaseIterable {
    case persistence, cache, memory
}

/// What happens to a database whose stored version is older than the app's.
public enum StorePolicyIR: String, Sendable, Hashable, Codable {
    /// Run the generated migrations, one transaction each.
    case migrate
    /// Delete the database and create the latest version (cache and memory only).
    case recreate
}

/// One database kind of `store.yaml`.
public struct StoreSectionIR: Sendable, Hashable, Codable {
    public var kind: StoreKindIR
    public var policy: StorePolicyIR
    /// Versions 1...n in order.
    public var versions: [StoreVersionIR]
    /// The migrations the runtime registers, in order: for `migrate`, the creation of
    /// version 1 then one step per later version; for `recreate`, the creation of the
    /// latest version only.
    public var migrations: [StoreMigrationIR]
    /// The creation of the latest version from an empty database, which a store opened at
    /// no version runs instead of every migration (nil when the section declares none).
    public var latestCreation: StoreMigrationIR?
    public var location: SourceLocation

    public init(
        kind: StoreKindIR, policy: StorePolicyIR, versions: [StoreVersionIR], migrations: [StoreMigrationIR],
        latestCreation: StoreMigrationIR? = nil, location: SourceLocation
    ) {
        self.kind = kind
        self.policy = policy
        self.versions = versions
        self.migrations = migrations
        self.latestCreation = latestCreation
        self.location = location
    }

    /// The latest declared version number (0 when the section declares none).
    public var latestVersion: Int { versions.last?.number ?? 0 }
    public var latest: StoreVersionIR? { versions.last }
}

/// One declared version: the whole schema as it is at that version.
public struct StoreVersionIR: Sendable, Hashable, Codable {
    public var number: Int
    /// Tables in file order.
    public var tables: [StoreTableIR]
    /// Indexes in name order.
    public var indexes: [StoreIndexIR]
    /// Tables and columns this version declares removed: `removed: [Draft, Note.legacy]`.
    public var removals: [StoreRemovalIR]
    /// Tables this version declares renamed: `renamed: { Memo: Note }`.
    public var tableRenames: [StoreTableRenameIR]
    /// The position of the version's key.
    public var location: SourceLocation

    public init(
        number: Int, tables: [StoreTableIR], indexes: [StoreIndexIR], removals: [StoreRemovalIR],
        tableRenames: [StoreTableRenameIR], location: SourceLocation
    ) {
        self.number = number
        self.tables = tables
        self.indexes = indexes
        self.removals = removals
        self.tableRenames = tableRenames
        self.location = location
    }

    public func table(named name: String) -> StoreTableIR? { tables.first { $0.name == name } }
}

/// A table: its SQL name (as written in the YAML) and its columns in declared order.
public struct StoreTableIR: Sendable, Hashable, Codable {
    public var name: String
    /// The record type's name.
    public var swiftName: String
    public var columns: [StoreColumnIR]
    public var location: SourceLocation

    public init(name: String, swiftName: String, columns: [StoreColumnIR], location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName
        self.columns = columns
        self.location = location
    }

    public func column(named name: String) -> StoreColumnIR? { columns.first { $0.name == name } }
    public var primaryKey: [String] { columns.filter(\.primaryKey).map(\.name) }
}

/// A column's storage type.
public enum StoreColumnTypeIR: String, Sendable, Hashable, Codable, CaseIterable {
    case text, integer, real, boolean, blob, date
}

/// A column default, checked against the column's type.
public enum StoreDefaultIR: Sendable, Hashable, Codable {
    case null
    case text(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
}

public struct StoreColumnIR: Sendable, Hashable, Codable {
    public var name: String
    /// The record property's name.
    public var swiftName: String
    public var type: StoreColumnTypeIR
    public var primaryKey: Bool
    /// Whether NULL is allowed (the property is optional). Default false.
    public var nullable: Bool
    public var unique: Bool
    public var defaultValue: StoreDefaultIR?
    /// The column's name in the previous version, when this version renames it.
    public var renamedFrom: String?
    /// The position of the column's key.
    public var location: SourceLocation
    /// The position of the column's type (the scalar, or the `type:` value).
    public var typeLocation: SourceLocation
    /// The position of `renamedFrom:`'s value, when present.
    public var renamedFromLocation: SourceLocation?

    public init(
        name: String, swiftName: String, type: StoreColumnTypeIR, primaryKey: Bool = false, nullable: Bool = false,
        unique: Bool = false, defaultValue: StoreDefaultIR? = nil, renamedFrom: String? = nil,
        location: SourceLocation, typeLocation: SourceLocation? = nil, renamedFromLocation: SourceLocation? = nil
    ) {
        self.name = name
        self.swiftName = swiftName
        self.type = type
        self.primaryKey = primaryKey
        self.nullable = nullable
        self.unique = unique
        self.defaultValue = defaultValue
        self.renamedFrom = renamedFrom
        self.location = location
        self.typeLocation = typeLocation ?? location
        self.renamedFromLocation = renamedFromLocation
    }

    /// Whether two columns are stored the same way (name aside): same type, constraints
    /// and default. Positions and renames do not count.
    public func hasSameDefinition(as other: StoreColumnIR) -> Bool {
        type == other.type && primaryKey == other.primaryKey && nullable == other.nullable && unique == other.unique
            && defaultValue == other.defaultValue
    }
}

public struct StoreIndexIR: Sendable, Hashable, Codable {
    public var name: String
    public var table: String
    public var columns: [String]
    public var unique: Bool
    public var location: SourceLocation

    public init(name: String, table: String, columns: [String], unique: Bool, location: SourceLocation) {
        self.name = name
        self.table = table
        self.columns = columns
        self.unique = unique
        self.location = location
    }
}

/// `removed: [Draft]` (a table) or `removed: [Note.legacy]` (a column).
public struct StoreRemovalIR: Sendable, Hashable, Codable {
    public var table: String
    /// Nil when the whole table is removed.
    public var column: String?
    public var location: SourceLocation

    public init(table: String, column: String?, location: SourceLocation) {
        self.table = table
        self.column = column
        self.location = location
    }
}

/// `renamed: { Memo: Note }`: the table `Note` of the previous version is `Memo` now.
public struct StoreTableRenameIR: Sendable, Hashable, Codable {
    public var from: String
    public var to: String
    public var location: SourceLocation

    public init(from: String, to: String, location: SourceLocation) {
        self.from = from
        self.to = to
        self.location = location
    }
}

/// One migration the runtime registers: an identifier that never changes once shipped
/// (`persistence.v2`), the version it leads to, and its operations in order.
public struct StoreMigrationIR: Sendable, Hashable, Codable {
    public var identifier: String
    public var version: Int
    public var operations: [StoreOperationIR]

    public init(identifier: String, version: Int, operations: [StoreOperationIR]) {
        self.identifier = identifier
        self.version = version
        self.operations = operations
    }
}

/// One schema change inside a migration. Names are the raw SQL names.
public enum StoreOperationIR: Sendable, Hashable, Codable {
    case createTable(StoreTableIR)
    case dropTable(String)
    case renameTable(from: String, to: String)
    case addColumn(table: String, column: StoreColumnIR)
    case renameColumn(table: String, from: String, to: String)
    /// Creates the new definition under a temporary name, copies every row (each new
    /// column from `sources`), drops the old table and renames the new one.
    case rebuildTable(StoreTableIR, sources: [StoreColumnSourceIR])
    case createIndex(StoreIndexIR)
    case dropIndex(String)
}

/// Where a rebuilt table's column takes its values from.
public struct StoreColumnSourceIR: Sendable, Hashable, Codable {
    public enum Value: Sendable, Hashable, Codable {
        /// The old column `name`, converted to `to` when `from` differs, with `fallback`
        /// replacing NULLs (a nullable column made non-null).
        case column(name: String, from: StoreColumnTypeIR, to: StoreColumnTypeIR, fallback: StoreDefaultIR?)
        /// A new column: its default, or NULL.
        case value(StoreDefaultIR)
    }

    public var column: String
    public var value: Value

    public init(column: String, value: Value) {
        self.column = column
        self.value = value
    }
}
