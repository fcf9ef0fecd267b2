import Foundation

/// The SQL of store operations. Every name was validated as letters, digits and `_`, and
/// is quoted anyway; text defaults are SQL string literals with quotes doubled.
enum StoreSQL {
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The table rebuilt under this name before it replaces the old one.
    static func rebuildName(_ table: String) -> String { "sesame_new_\(table)" }

    static func statements(_ operation: StoreOperationIR) -> [String] {
        switch operation {
        case .createTable(let table):
            return [createTable(table, as: table.name)]
        case .dropTable(let name):
            return ["DROP TABLE \(quoted(name))"]
        case .renameTable(let from, let to):
            return ["ALTER TABLE \(quoted(from)) RENAME TO \(quoted(to))"]
        case .addColumn(let table, let column):
            return ["ALTER TABLE \(quoted(table)) ADD COLUMN \(columnDefinition(column))"]
        case .renameColumn(let table, let from, let to):
            return ["ALTER TABLE \(quoted(table)) RENAME COLUMN \(quoted(from)) TO \(quoted(to))"]
        case .rebuildTable(let table, let sources):
            let temporary = rebuildName(table.name)
            let columns = sources.map { quoted($0.column) }.joined(separator: ", ")
            let values = sources.map { expression($0.value) }.joined(separator: ", ")
            return [
                createTable(table, as: temporary),
                "INSERT INTO \(quoted(temporary)) (\(columns)) SELECT \(values) FROM \(quoted(table.name))",
                "DROP TABLE \(quoted(table.name))",
                "ALTER TABLE \(quoted(temporary)) RENAME TO \(quoted(table.name))",
            ]
        case .createIndex(let index):
            let columns = index.columns.map(quoted).joined(separator: ", ")
            return ["CREATE \(index.unique ? "UNIQUE " : "")INDEX \(quoted(index.name)) ON \(quoted(index.table)) (\(columns))"]
        case .dropIndex(let name):
            return ["DROP INDEX \(quoted(name))"]
        }
    }

    static func createTable(_ table: StoreTableIR, as name: String) -> String {
        var parts = table.columns.map(columnDefinition)
        parts.append("PRIMARY KEY (\(table.primaryKey.map(quoted).joined(separator: ", ")))")
        return "CREATE TABLE \(quoted(name)) (\(parts.joined(separator: ", ")))"
    }

    static func columnDefinition(_ column: StoreColumnIR) -> String {
        var text = "\(quoted(column.name)) \(column.type.sqlType)"
        if !column.nullable { text += " NOT NULL" }
        if column.unique { text += " UNIQUE" }
        if let value = column.defaultValue { text += " DEFAULT \(literal(value))" }
        return text
    }

    static func expression(_ value: StoreColumnSourceIR.Value) -> String {
        switch value {
        case .value(let value):
            return literal(value)
        case .column(let name, let from, let to, let fallback):
            let converted = from.conversion(of: quoted(name), to: to)
            guard let fallback else { return converted }
            return "COALESCE(\(converted), \(literal(fallback)))"
        }
    }

    static func literal(_ value: StoreDefaultIR) -> String {
        switch value {
        case .null: return "NULL"
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .integer(let value): return String(value)
        case .real(let value): return realLiteral(value)
        case .boolean(let value): return value ? "1" : "0"
        }
    }

    /// A real written so that SQLite and Swift read it back as the same Double, always
    /// with a decimal point or an exponent (so SQLite keeps it REAL).
    static func realLiteral(_ value: Double) -> String {
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }
}
