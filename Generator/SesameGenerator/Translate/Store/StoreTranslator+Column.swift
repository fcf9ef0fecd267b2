import Yams

/// Columns: `name: text` or `name: { type: text, primaryKey: true, nullable: true,
/// unique: true, default: "", renamedFrom: old }`.
extension StoreTranslator {
    mutating func column(_ entry: Entry, table: String) -> StoreColumnIR? {
        let location = reader.location(of: entry.keyNode)
        guard isSQLName(entry.key) else {
            reader.error(
                "column name '\(entry.key)' must start with a letter or _ and contain only letters, digits and _", at: entry.keyNode)
            return nil
        }
        let swiftName = SwiftName.lowerCamel(entry.key)
        if Self.reservedPropertyNames.contains(swiftName) {
            reader.error("column '\(entry.key)' would be the property '\(swiftName)', which every record already has", at: entry.keyNode)
            return nil
        }
        if case .scalar = entry.value {
            guard let type = columnType(entry.value) else { return nil }
            return StoreColumnIR(
                name: entry.key, swiftName: swiftName, type: type, location: location,
                typeLocation: reader.location(of: entry.value))
        }
        guard
            let fields = reader.mapping(entry.value, "column '\(table).\(entry.key)'", grammar: Grammar.column, missingAt: entry.keyNode),
            let typeEntry = fields["type"]
        else { return nil }
        guard let type = columnType(typeEntry.value) else { return nil }
        var column = StoreColumnIR(
            name: entry.key, swiftName: swiftName, type: type, location: location,
            typeLocation: reader.location(of: typeEntry.value))
        column.primaryKey = fields["primaryKey"].flatMap { reader.bool($0.value, "primaryKey") } ?? false
        column.nullable = fields["nullable"].flatMap { reader.bool($0.value, "nullable") } ?? false
        column.unique = fields["unique"].flatMap { reader.bool($0.value, "unique") } ?? false
        if column.primaryKey, column.nullable, let node = fields["nullable"]?.value {
            reader.error("primary key column '\(table).\(entry.key)' cannot be nullable", at: node)
        }
        if let renamed = fields["renamedFrom"] {
            if let name = reader.string(renamed.value, "renamedFrom") {
                if isSQLName(name), name != entry.key {
                    column.renamedFrom = name
                    column.renamedFromLocation = reader.location(of: renamed.value)
                } else {
                    reader.error("renamedFrom must name another column of the previous version, found '\(name)'", at: renamed.value)
                }
            }
        }
        if let defaultEntry = fields["default"] {
            column.defaultValue = defaultValue(defaultEntry.value, column: column, table: table)
        }
        return column
    }

    private var typeList: String { StoreColumnTypeIR.allCases.map(\.rawValue).joined(separator: ", ") }

    private mutating func columnType(_ node: Node) -> StoreColumnTypeIR? {
        guard let text = reader.string(node, "a column type") else { return nil }
        if let type = StoreColumnTypeIR(rawValue: text) { return type }
        let hint = Suggestion.hint(for: text, among: StoreColumnTypeIR.allCases.map(\.rawValue)) ?? ""
        reader.error("unknown column type '\(text)'\(hint) (types: \(typeList))", at: node)
        return nil
    }

    /// A default of the column's type; `null` only for a nullable column.
    private mutating func defaultValue(_ node: Node, column: StoreColumnIR, table: String) -> StoreDefaultIR? {
        let name = "'\(table).\(column.name)'"
        if node.isNullScalar {
            guard column.nullable else {
                reader.error("column \(name) is not nullable, so its default cannot be null", at: node)
                return nil
            }
            return .null
        }
        guard case .scalar(let scalar) = node else {
            reader.error("the default of \(name) must be a scalar, found \(node.kindName)", at: node)
            return nil
        }
        switch column.type {
        case .text:
            // SQLite reads SQL as C text: a NUL ends the statement inside the literal, and the
            // migration fails on the device ("unrecognized token"). A default in parentheses
            // (`CAST(x'00' AS TEXT)`) is refused by ALTER TABLE ADD COLUMN, so no literal can
            // carry it.
            guard !scalar.string.unicodeScalars.contains("\0") else {
                reader.error(
                    "the default of \(name) holds U+0000 (NUL), which an SQLite text literal cannot carry; remove it", at: node)
                return nil
            }
            return .text(scalar.string)
        case .integer:
            guard let value = Int64(scalar.string) else {
                reader.error("the default of \(name) must be an integer, found '\(scalar.string)'", at: node)
                return nil
            }
            return .integer(value)
        case .real:
            guard let value = node.int.map(Double.init) ?? node.float, value.isFinite else {
                reader.error("the default of \(name) must be a finite number, found '\(scalar.string)'", at: node)
                return nil
            }
            return .real(value)
        case .boolean:
            guard let value = node.bool else {
                reader.error("the default of \(name) must be true or false, found '\(scalar.string)'", at: node)
                return nil
            }
            return .boolean(value)
        case .blob, .date:
            reader.error("a \(column.type.rawValue) column cannot have a default other than null", at: node)
            return nil
        }
    }
}
