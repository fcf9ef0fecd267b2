/// The change of one table between two versions: renamed columns, added columns, and
/// whether the table must be rebuilt.
struct StoreTableDiff {
    let old: StoreTableIR
    let new: StoreTableIR
    let kind: StoreKindIR
    /// Whether dropped columns must be declared and type changes must be lossless.
    let lossless: Bool
    let version: StoreVersionIR
    private(set) var diagnostics: [Diagnostic] = []
    /// Old column name → new column name, for the columns that survive.
    private(set) var columnNames: [String: String] = [:]
    private(set) var rebuilds = false

    init(old: StoreTableIR, new: StoreTableIR, kind: StoreKindIR, lossless: Bool, version: StoreVersionIR) {
        self.old = old
        self.new = new
        self.kind = kind
        self.lossless = lossless
        self.version = version
    }

    mutating func operations() -> [StoreOperationIR] {
        // The previous column of each new column (nil: added).
        var sources: [(column: StoreColumnIR, previous: StoreColumnIR?)] = []
        for column in new.columns {
            sources.append((column, previousColumn(of: column)))
        }
        for case let (column, previous?) in sources { columnNames[previous.name] = column.name }
        let dropped = old.columns.filter { columnNames[$0.name] == nil }
        checkDropped(dropped)

        var changed = false
        for case let (column, previous?) in sources where !column.hasSameDefinition(as: previous) {
            changed = true
            checkChange(from: previous, to: column)
        }
        let added = sources.filter { $0.previous == nil }.map(\.column)
        // An added column with `renamedFrom:` is a failed rename, reported already.
        for column in added where column.renamedFrom == nil { checkAdded(column) }

        // ALTER TABLE keeps the old order and appends added columns.
        let kept = old.columns.compactMap { columnNames[$0.name] }
        let alteredOrder = kept + added.map(\.name)
        let appendable = added.allSatisfy { !$0.primaryKey && !$0.unique && ($0.nullable || $0.defaultValue.map { $0 != .null } == true) }
        rebuilds = changed || !dropped.isEmpty || !appendable || alteredOrder != new.columns.map(\.name)

        if rebuilds {
            let columnSources = sources.map { column, previous in
                guard let previous else {
                    return StoreColumnSourceIR(column: column.name, value: .value(column.defaultValue ?? .null))
                }
                let fallback = previous.nullable && !column.nullable ? column.defaultValue : nil
                return StoreColumnSourceIR(
                    column: column.name, value: .column(name: previous.name, from: previous.type, to: column.type, fallback: fallback))
            }
            return [.rebuildTable(new, sources: columnSources)]
        }
        var operations: [StoreOperationIR] = []
        for case let (column, previous?) in sources where previous.name != column.name {
            operations.append(.renameColumn(table: new.name, from: previous.name, to: column.name))
        }
        for column in added {
            operations.append(.addColumn(table: new.name, column: column))
        }
        return operations
    }

    /// The same name in the old table, or the `renamedFrom:` column when the name is new.
    private mutating func previousColumn(of column: StoreColumnIR) -> StoreColumnIR? {
        if let same = old.column(named: column.name) { return same }
        guard let from = column.renamedFrom else { return nil }
        let location = column.renamedFromLocation ?? column.location
        guard let previous = old.column(named: from) else {
            let hint = Suggestion.hint(for: from, among: old.columns.map(\.name)) ?? ""
            error(
                "column '\(new.name).\(column.name)' is renamed from '\(from)', but table '\(old.name)' of version "
                    + "\(version.number - 1) has no column '\(from)'\(hint)", location)
            return nil
        }
        if new.column(named: from) != nil {
            error(
                "column '\(new.name).\(column.name)' is renamed from '\(from)', but '\(from)' is still a column of '\(new.name)'", location)
            return nil
        }
        if columnNames[from] != nil {
            error("column '\(from)' of '\(old.name)' is renamed twice", location)
            return nil
        }
        columnNames[from] = column.name
        return previous
    }

    private mutating func checkDropped(_ dropped: [StoreColumnIR]) {
        guard lossless else { return }
        let declared = version.removals.filter { ($0.table == new.name || $0.table == old.name) && $0.column != nil }.compactMap(\.column)
        for column in dropped where !declared.contains(column.name) {
            error(
                "version \(version.number) of '\(kind.rawValue)' drops column '\(new.name).\(column.name)' and its values: declare "
                    + "`removed: [\(new.name).\(column.name)]` to do so, or rename it with `renamedFrom: \(column.name)`", new.location)
        }
    }

    private mutating func checkChange(from previous: StoreColumnIR, to column: StoreColumnIR) {
        let name = "'\(new.name).\(column.name)'"
        if previous.type != column.type, lossless, !previous.type.convertsLosslessly(to: column.type) {
            error(
                "changing \(name) from \(previous.type.rawValue) to \(column.type.rawValue) may lose data, and 'persistence' "
                    + "migrations must be lossless: add a new column instead", column.typeLocation)
        }
        if previous.nullable, !column.nullable, column.defaultValue == nil {
            error("column \(name) becomes non-null: give it a `default:` for the rows where it is null", column.location)
        }
    }

    private mutating func checkAdded(_ column: StoreColumnIR) {
        let name = "'\(new.name).\(column.name)'"
        if column.primaryKey {
            error(
                "column \(name) cannot be added to the primary key of an existing table: every existing row would get the same value",
                column.location)
        } else if column.unique, !column.nullable {
            error(
                "unique column \(name) cannot be added to an existing table unless it is nullable: every existing row would get the same value",
                column.location)
        } else if !column.nullable, column.defaultValue == nil {
            error("column \(name) is added to an existing table: give it a `default:` or make it `nullable: true`", column.location)
        }
    }

    private mutating func error(_ message: String, _ location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }
}
