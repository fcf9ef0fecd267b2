/// The validated store declarations of `store.yaml`: one section per database kind, each a
/// list of versions (full snapshots of the schema) and the migrations derived from them.
struct StoreIR: Sendable, Hashable, Codable {
    /// The `persistence` database: migrated losslessly, never recreated.
    var persistence: StoreSectionIR?
    /// The `cache` database: recreated on a version change (`policy: recreate`, the default)
    /// or migrated (`policy: migrate`).
    var cache: StoreSectionIR?
    /// The in-memory database: created afresh at every launch from its latest version.
    var memory: StoreSectionIR?

    init(persistence: StoreSectionIR? = nil, cache: StoreSectionIR? = nil, memory: StoreSectionIR? = nil) {
        self.persistence = persistence
        self.cache = cache
        self.memory = memory
    }

    /// The sections present, in the order persistence, cache, memory.
    var sections: [StoreSectionIR] { [persistence, cache, memory].compactMap { $0 } }
}

/// The three databases of a context.
enum StoreKindIR: String, Sendable, Hashable, Codable, CaseIterable {
    case persistence, cache, memory
}

/// What happens to a database whose stored version is older than the app's.
enum StorePolicyIR: String, Sendable, Hashable, Codable {
    /// Run the generated migrations, one transaction each.
    case migrate
    /// Delete the database and create the latest version (cache and memory only).
    case recreate
}

/// One database kind of `store.yaml`.
struct StoreSectionIR: Sendable, Hashable, Codable {
    var kind: StoreKindIR
    var policy: StorePolicyIR
    /// Versions 1...n in order.
    var versions: [StoreVersionIR]
    /// The migrations the runtime registers, in order: for `migrate`, the creation of
    /// version 1 then one step per later version; for `recreate`, the creation of the
    /// latest version only.
    var migrations: [StoreMigrationIR]
    /// The creation of the latest version from an empty database, which a store opened at
    /// no version runs instead of every migration (nil when the section declares none).
    var latestCreation: StoreMigrationIR?
    var location: SourceLocation

    init(
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
    var latestVersion: Int { versions.last?.number ?? 0 }
    var latest: StoreVersionIR? { versions.last }
}

/// One declared version: the whole schema as it is at that version.
struct StoreVersionIR: Sendable, Hashable, Codable {
    var number: Int
    /// Tables in file order.
    var tables: [StoreTableIR]
    /// Indexes in name order.
    var indexes: [StoreIndexIR]
    /// Tables and columns this version declares removed: `removed: [Draft, Note.legacy]`.
    var removals: [StoreRemovalIR]
    /// Tables this version declares renamed: `renamed: { Memo: Note }`.
    var tableRenames: [StoreTableRenameIR]
    /// The position of the version's key.
    var location: SourceLocation

    init(
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

    func table(named name: String) -> StoreTableIR? { tables.first { $0.name == name } }
}

/// A table: its SQL name (as written in the YAML) and its columns in declared order.
struct StoreTableIR: Sendable, Hashable, Codable {
    var name: String
    /// The record type's name.
    var swiftName: String
    var columns: [StoreColumnIR]
    var location: SourceLocation

    init(name: String, swiftName: String, columns: [StoreColumnIR], location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName
        self.columns = columns
        self.location = location
    }

    func column(named name: String) -> StoreColumnIR? { columns.first { $0.name == name } }
    var primaryKey: [String] { columns.filter(\.primaryKey).map(\.name) }
}

/// A column's storage type.
enum StoreColumnTypeIR: String, Sendable, Hashable, Codable, CaseIterable {
    case text, integer, real, boolean, blob, date
}

/// A column default, checked against the column's type.
enum StoreDefaultIR: Sendable, Hashable, Codable {
    case null
    case text(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
}

struct StoreColumnIR: Sendable, Hashable, Codable {
    var name: String
    /// The record property's name.
    var swiftName: String
    var type: StoreColumnTypeIR
    var primaryKey: Bool
    /// Whether NULL is allowed (the property is optional). Default false.
    var nullable: Bool
    var unique: Bool
    var defaultValue: StoreDefaultIR?
    /// The column's name in the previous version, when this version renames it.
    var renamedFrom: String?
    /// The position of the column's key.
    var location: SourceLocation
    /// The position of the column's type (the scalar, or the `type:` value).
    var typeLocation: SourceLocation
    /// The position of `renamedFrom:`'s value, when present.
    var renamedFromLocation: SourceLocation?

    init(
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
    func hasSameDefinition(as other: StoreColumnIR) -> Bool {
        type == other.type && primaryKey == other.primaryKey && nullable == other.nullable && unique == other.unique
            && defaultValue == other.defaultValue
    }
}

struct StoreIndexIR: Sendable, Hashable, Codable {
    var name: String
    var table: String
    var columns: [String]
    var unique: Bool
    var location: SourceLocation

    init(name: String, table: String, columns: [String], unique: Bool, location: SourceLocation) {
        self.name = name
        self.table = table
        self.columns = columns
        self.unique = unique
        self.location = location
    }
}

/// `removed: [Draft]` (a table) or `removed: [Note.legacy]` (a column).
struct StoreRemovalIR: Sendable, Hashable, Codable {
    var table: String
    /// Nil when the whole table is removed.
    var column: String?
    var location: SourceLocation

    init(table: String, column: String?, location: SourceLocation) {
        self.table = table
        self.column = column
        self.location = location
    }
}

/// `renamed: { Memo: Note }`: the table `Note` of the previous version is `Memo` now.
struct StoreTableRenameIR: Sendable, Hashable, Codable {
    var from: String
    var to: String
    var location: SourceLocation

    init(from: String, to: String, location: SourceLocation) {
        self.from = from
        self.to = to
        self.location = location
    }
}

/// One migration the runtime registers: an identifier that never changes once shipped
/// (`persistence.v2`), the version it leads to, and its operations in order.
struct StoreMigrationIR: Sendable, Hashable, Codable {
    var identifier: String
    var version: Int
    var operations: [StoreOperationIR]

    init(identifier: String, version: Int, operations: [StoreOperationIR]) {
        self.identifier = identifier
        self.version = version
        self.operations = operations
    }
}

/// One schema change inside a migration. Names are the raw SQL names.
enum StoreOperationIR: Sendable, Hashable, Codable {
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
struct StoreColumnSourceIR: Sendable, Hashable, Codable {
    enum Value: Sendable, Hashable, Codable {
        /// The old column `name`, converted to `to` when `from` differs, with `fallback`
        /// replacing NULLs (a nullable column made non-null).
        case column(name: String, from: StoreColumnTypeIR, to: StoreColumnTypeIR, fallback: StoreDefaultIR?)
        /// A new column: its default, or NULL.
        case value(StoreDefaultIR)
    }

    var column: String
    var value: Value

    init(column: String, value: Value) {
        self.column = column
        self.value = value
    }
}
