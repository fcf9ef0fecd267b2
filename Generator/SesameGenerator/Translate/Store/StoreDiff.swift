/// Derives the migration between two consecutive declared versions.
///
/// Tables and columns are matched by name, or through `renamed:` (tables) and
/// `renamedFrom:` (columns). Whatever the new version no longer has must be declared in
/// `removed:` for `persistence`; a `cache` may drop it silently. A column that can be
/// added by `ALTER TABLE … ADD COLUMN` at the end of its table is; any other change
/// (type, constraint, default, removal, column order) rebuilds the table and copies its
/// rows, so that a migrated database is column for column what a fresh one is.
struct StoreDiff {
    let old: StoreVersionIR
    let new: StoreVersionIR
    let kind: StoreKindIR
    private(set) var diagnostics: [Diagnostic] = []

    init(old: StoreVersionIR, new: StoreVersionIR, kind: StoreKindIR) {
        self.old = old
        self.new = new
        self.kind = kind
    }

    /// Removals must be declared and type changes must be lossless.
    private var isLossless: Bool { kind == .persistence }
    private var what: String { "version \(new.number) of '\(kind.rawValue)'" }

    /// The creation of a whole version from an empty database.
    static func creation(of version: StoreVersionIR, identifier: String) -> StoreMigrationIR {
        StoreMigrationIR(
            identifier: identifier, version: version.number,
            operations: version.tables.map(StoreOperationIR.createTable) + version.indexes.map(StoreOperationIR.createIndex))
    }

    mutating func migration(identifier: String) -> StoreMigrationIR {
        let renames = tableRenames()
        // The previous table of each new table, by the new table's name.
        var sources: [String: StoreTableIR] = [:]
        for table in new.tables {
            if let previous = old.table(named: table.name), !renames.values.contains(table.name) {
                sources[table.name] = previous
            } else if let from = renames.first(where: { $0.value == table.name })?.key, let previous = old.table(named: from) {
                sources[table.name] = previous
            }
        }
        let removedTables = old.tables.filter { table in !sources.values.contains { $0.name == table.name } }.map(\.name)
        checkTableRemovals(removedTables)

        var tableOperations: [StoreOperationIR] = []
        var rebuilt = Set<String>()
        // Old column name → new column name, per new table name.
        var columnNames: [String: [String: String]] = [:]
        for table in new.tables {
            guard let previous = sources[table.name] else {
                tableOperations.append(.createTable(table))
                continue
            }
            var change = StoreTableDiff(old: previous, new: table, kind: kind, lossless: isLossless, version: new)
            let operations = change.operations()
            diagnostics += change.diagnostics
            if change.rebuilds { rebuilt.insert(table.name) }
            columnNames[table.name] = change.columnNames
            tableOperations += operations
        }
        checkColumnRemovals(sources: sources)

        let (dropIndexes, createIndexes) = indexChanges(
            renames: renames, removedTables: Set(removedTables), rebuilt: rebuilt,
            columnNames: columnNames)
        var operations = dropIndexes.map(StoreOperationIR.dropIndex)
        operations += renames.sorted { $0.value < $1.value }.map { StoreOperationIR.renameTable(from: $0.key, to: $0.value) }
        operations += removedTables.sorted().map(StoreOperationIR.dropTable)
        operations += tableOperations
        operations += createIndexes.map(StoreOperationIR.createIndex)
        return StoreMigrationIR(identifier: identifier, version: new.number, operations: operations)
    }

    // MARK: Tables

    /// The valid `renamed:` entries, old name → new name.
    private mutating func tableRenames() -> [String: String] {
        var renames: [String: String] = [:]
        for rename in new.tableRenames {
            if old.table(named: rename.from) == nil {
                error(
                    "table '\(rename.to)' is renamed from '\(rename.from)', but version \(old.number) has no table '\(rename.from)'",
                    rename.location)
            } else if new.table(named: rename.from) != nil {
                error("table '\(rename.from)' is renamed to '\(rename.to)' but \(what) still declares '\(rename.from)'", rename.location)
            } else if new.table(named: rename.to) == nil {
                error("table '\(rename.from)' is renamed to '\(rename.to)', which \(what) does not declare", rename.location)
            } else if old.table(named: rename.to) != nil {
                error(
                    "table '\(rename.to)' already exists in version \(old.number); it cannot also be the new name of '\(rename.from)'",
                    rename.location)
            } else if renames[rename.from] != nil || renames.values.contains(rename.to) {
                error("table '\(rename.from)' or '\(rename.to)' is renamed twice", rename.location)
            } else {
                renames[rename.from] = rename.to
            }
        }
        return renames
    }

    private mutating func checkTableRemovals(_ removedTables: [String]) {
        let declared = new.removals.filter { $0.column == nil }
        for removal in declared where !removedTables.contains(removal.table) {
            if old.table(named: removal.table) == nil {
                error("'\(removal.table)' is declared removed, but version \(old.number) has no table '\(removal.table)'", removal.location)
            } else {
                error("table '\(removal.table)' is declared removed, but \(what) still has it", removal.location)
            }
        }
        guard isLossless else { return }
        for table in removedTables where !declared.contains(where: { $0.table == table }) {
            error(
                "\(what) drops table '\(table)' and all its rows: declare `removed: [\(table)]` to do so, "
                    + "or rename it with `renamed: { NewName: \(table) }`", new.location)
        }
    }

    private mutating func checkColumnRemovals(sources: [String: StoreTableIR]) {
        for removal in new.removals {
            guard let columnName = removal.column else { continue }
            // `Note.legacy` names the table by its new name, or by its old one.
            let pair = sources.first { $0.key == removal.table } ?? sources.first { $0.value.name == removal.table }
            guard let (newName, previous) = pair, let table = new.table(named: newName) else {
                error(
                    "'\(removal.table).\(columnName)' is declared removed, but '\(removal.table)' is not a table of both "
                        + "version \(old.number) and \(what)", removal.location)
                continue
            }
            if previous.column(named: columnName) == nil {
                error(
                    "'\(removal.table).\(columnName)' is declared removed, but version \(old.number) has no such column", removal.location)
            } else if table.column(named: columnName) != nil
                || table.columns.contains(where: { $0.renamedFrom == columnName && previous.column(named: $0.name) == nil })
            {
                error("column '\(removal.table).\(columnName)' is declared removed, but \(what) still has it", removal.location)
            }
        }
    }

    // MARK: Indexes

    private func indexChanges(
        renames: [String: String], removedTables: Set<String>, rebuilt: Set<String>,
        columnNames: [String: [String: String]]
    ) -> (drop: [String], create: [StoreIndexIR]) {
        var drop: [String] = []
        var create: [StoreIndexIR] = []
        var kept = Set<String>()
        for index in old.indexes where !removedTables.contains(index.table) {
            let table = renames[index.table] ?? index.table
            if rebuilt.contains(table) { continue }  // dropped with its table
            let names = columnNames[table] ?? [:]
            let moved = (table, index.columns.map { names[$0] ?? $0 }, index.unique)
            if let current = new.indexes.first(where: { $0.name == index.name }),
                (current.table, current.columns, current.unique) == moved
            {
                kept.insert(index.name)
            } else {
                drop.append(index.name)
            }
        }
        for index in new.indexes where !kept.contains(index.name) {
            create.append(index)
        }
        return (drop.sorted(), create.sorted { $0.name < $1.name })
    }

    private mutating func error(_ message: String, _ location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }
}
