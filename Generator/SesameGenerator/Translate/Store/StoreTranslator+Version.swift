import Yams

/// Versions, tables, indexes, removals and renames.
extension StoreTranslator {
    mutating func version(_ number: Int, _ entry: Entry, kind: StoreKindIR) -> StoreVersionIR? {
        let location = reader.location(of: entry.keyNode)
        var version = StoreVersionIR(number: number, tables: [], indexes: [], removals: [], tableRenames: [], location: location)
        if entry.value.isNullScalar { return version }
        guard let entries = reader.mapping(entry.value, "version \(number) of '\(kind.rawValue)'", grammar: Grammar.storeVersion)
        else { return nil }
        let indexesEntry = entries["indexes"]
        if let item = entries["removed"] { version.removals = removals(item.value) }
        if let item = entries["renamed"] { version.tableRenames = tableRenames(item.value) }
        var seenTables: [String: String] = [:]
        var seenSwiftNames: [String: String] = [:]
        // The grammar refuses other keywords and names that are not table names.
        for item in entries.named {
            guard isTableName(item.key) else {
                let hint =
                    Suggestion.hint(for: item.key, among: Grammar.storeVersion.keyNames)
                    ?? " (table names start with an uppercase letter and contain only letters, digits and _)"
                reader.error("unknown key '\(item.key)' in version \(number) of '\(kind.rawValue)'\(hint)", at: item.keyNode)
                continue
            }
            if Self.reservedTableNames.contains(item.key) {
                reader.error("'\(item.key)' cannot name a table: the generated code needs that name", at: item.keyNode)
                continue
            }
            if let other = seenTables[item.key.lowercased()] {
                reader.error("table '\(item.key)' has the same SQL name as '\(other)' (SQLite names ignore case)", at: item.keyNode)
                continue
            }
            guard let table = table(item) else { continue }
            if let other = seenSwiftNames[table.swiftName] {
                reader.error(
                    "table '\(item.key)' and table '\(other)' would both be the Swift type '\(table.swiftName)'", at: item.keyNode)
                continue
            }
            seenTables[item.key.lowercased()] = item.key
            seenSwiftNames[table.swiftName] = item.key
            version.tables.append(table)
        }
        if let indexesEntry { version.indexes = indexes(indexesEntry.value, tables: version.tables) }
        return version
    }

    // MARK: Tables

    private mutating func table(_ entry: Entry) -> StoreTableIR? {
        let location = reader.location(of: entry.keyNode)
        guard let entries = reader.mapping(entry.value, "table '\(entry.key)'") else { return nil }
        var columns: [StoreColumnIR] = []
        var seen: [String: String] = [:]
        var seenSwift: [String: String] = [:]
        for item in entries {
            guard let column = column(item, table: entry.key) else { continue }
            if let other = seen[column.name.lowercased()] {
                reader.error("column '\(column.name)' has the same SQL name as '\(other)' (SQLite names ignore case)", at: item.keyNode)
                continue
            }
            if let other = seenSwift[column.swiftName] {
                reader.error("columns '\(column.name)' and '\(other)' would both be the property '\(column.swiftName)'", at: item.keyNode)
                continue
            }
            seen[column.name.lowercased()] = column.name
            seenSwift[column.swiftName] = column.name
            columns.append(column)
        }
        if entries.isEmpty {
            reader.error("table '\(entry.key)' has no columns", at: entry.keyNode)
            return nil
        }
        let table = StoreTableIR(
            name: entry.key, swiftName: NamingPass.storeTableTypeName(entry.key), columns: columns, location: location)
        if table.primaryKey.isEmpty, columns.count == entries.count {
            reader.error("table '\(entry.key)' has no primary key: mark a column with `primaryKey: true`", at: entry.keyNode)
        }
        return table
    }

    // MARK: Indexes

    private mutating func indexes(_ node: Node, tables: [StoreTableIR]) -> [StoreIndexIR] {
        guard let entries = reader.mapping(node, "indexes") else { return [] }
        var indexes: [StoreIndexIR] = []
        var seen = Set<String>()
        for entry in entries {
            guard isSQLName(entry.key) else {
                reader.error(
                    "index name '\(entry.key)' must start with a letter or _ and contain only letters, digits and _", at: entry.keyNode)
                continue
            }
            if tables.contains(where: { $0.name.lowercased() == entry.key.lowercased() }) {
                reader.error(
                    "index '\(entry.key)' has the name of a table; SQLite keeps tables and indexes in one namespace", at: entry.keyNode)
                continue
            }
            guard seen.insert(entry.key.lowercased()).inserted else {
                reader.error("index '\(entry.key)' has the same SQL name as another index (SQLite names ignore case)", at: entry.keyNode)
                continue
            }
            guard let fields = reader.mapping(entry.value, "index '\(entry.key)'", grammar: Grammar.index, missingAt: entry.keyNode),
                let tableEntry = fields["table"], let columnsEntry = fields["columns"]
            else { continue }
            let unique = fields["unique"].flatMap { reader.bool($0.value, "unique") } ?? false
            guard let tableName = reader.string(tableEntry.value, "table") else { continue }
            guard let table = tables.first(where: { $0.name == tableName }) else {
                let hint = Suggestion.hint(for: tableName, among: tables.map(\.name)) ?? ""
                reader.error(
                    "index '\(entry.key)' names table '\(tableName)', which this version does not declare\(hint)", at: tableEntry.value)
                continue
            }
            guard let names = reader.strings(columnsEntry.value, "columns") else { continue }
            var columns: [String] = []
            for (name, node) in names {
                if table.column(named: name) == nil {
                    let hint = Suggestion.hint(for: name, among: table.columns.map(\.name)) ?? ""
                    reader.error("table '\(tableName)' has no column '\(name)'\(hint)", at: node)
                } else if columns.contains(name) {
                    reader.error("column '\(name)' appears twice in index '\(entry.key)'", at: node)
                } else {
                    columns.append(name)
                }
            }
            if names.isEmpty { reader.error("index '\(entry.key)' has no columns", at: columnsEntry.value) }
            guard columns.count == names.count, !columns.isEmpty else { continue }
            indexes.append(
                StoreIndexIR(
                    name: entry.key, table: tableName, columns: columns, unique: unique,
                    location: reader.location(of: entry.keyNode)))
        }
        return indexes.sorted { $0.name < $1.name }
    }

    // MARK: Removals and renames

    private mutating func removals(_ node: Node) -> [StoreRemovalIR] {
        guard let items = reader.strings(node, "removed") else { return [] }
        var removals: [StoreRemovalIR] = []
        for (text, item) in items {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let valid = (parts.count == 1 || parts.count == 2) && isTableName(parts[0]) && (parts.count == 1 || isSQLName(parts[1]))
            guard valid else {
                reader.error("'\(text)' is not a table ('Draft') or a column ('Note.legacy') to remove", at: item)
                continue
            }
            removals.append(StoreRemovalIR(table: parts[0], column: parts.count == 2 ? parts[1] : nil, location: reader.location(of: item)))
        }
        return removals
    }

    private mutating func tableRenames(_ node: Node) -> [StoreTableRenameIR] {
        guard let entries = reader.mapping(node, "renamed") else { return [] }
        var renames: [StoreTableRenameIR] = []
        for entry in entries {
            guard let from = reader.string(entry.value, "the previous name of '\(entry.key)'") else { continue }
            guard isTableName(entry.key), isTableName(from) else {
                reader.error("`renamed:` maps a table's new name to its previous name, both table names", at: entry.keyNode)
                continue
            }
            renames.append(StoreTableRenameIR(from: from, to: entry.key, location: reader.location(of: entry.keyNode)))
        }
        return renames
    }

    // MARK: Names

    /// A table name: an uppercase letter, then letters, digits and `_` (so it can never
    /// be a keyword of a version, or start with `sqlite_`).
    func isTableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return isSQLName(name)
    }

    /// ASCII letters, digits and `_`, not starting with a digit nor with `sqlite_` or
    /// `sesame_` (names the database and the runtime reserve).
    func isSQLName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), name.utf8.count <= 64 else { return false }
        let lowered = name.lowercased()
        if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("sesame_") || lowered.hasPrefix("grdb_") { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }
}
