/// Records: one struct per table of a section's latest version, with explicit
/// `init(row:)` and `encode(to:)` (GRDB's fast path) beside `Codable`.
extension StoreRenderer {
    func recordsFile() -> String {
        var writer = CodeWriter()
        writer.line(GeneratedFile.header)
        writer.line()
        writer.line("import Foundation")
        writer.line("import GRDB")
        writer.line("import SesameStore")
        for (kind, type) in Self.kinds {
            guard let section = section(kind), let latest = section.latest else { continue }
            for table in latest.tables {
                writer.line()
                writer.block("extension \(namespace).\(type)") { writer in
                    record(table, kind: kind, version: latest.number, into: &writer)
                }
            }
        }
        return writer.text
    }

    private func record(_ table: StoreTableIR, kind: StoreKindIR, version: Int, into writer: inout CodeWriter) {
        let type = SwiftName.escaped(table.swiftName)
        writer.doc("A row of the `\(table.name)` table of the `\(kind.rawValue)` database (version \(version)).")
        writer.block("public struct \(type): Codable, Sendable, Hashable, GRDB.FetchableRecord, GRDB.PersistableRecord") { writer in
            writer.doc("The table's SQL name.")
            writer.line("public static let databaseTableName = \(SwiftName.stringLiteral(table.name))")
            writer.line()
            writer.doc(
                "The table's columns, for queries such as `\(table.swiftName).filter(\(table.swiftName).Columns.\(table.columns[0].swiftName) == value)`."
            )
            writer.block("public enum Columns") { writer in
                for column in table.columns {
                    writer.line(
                        "public static let \(SwiftName.escaped(column.swiftName)) = GRDB.Column(\(SwiftName.stringLiteral(column.name)))")
                }
            }
            for column in table.columns {
                writer.line()
                writer.doc(columnDoc(column))
                writer.line("public var \(SwiftName.escaped(column.swiftName)): \(swiftType(column))")
            }
            writer.line()
            writer.doc("Creates a row; columns with a default in `store.yaml` may be omitted.")
            let parameters = table.columns.map { column in
                "\(SwiftName.escaped(column.swiftName)): \(swiftType(column))" + (swiftDefault(column).map { " = \($0)" } ?? "")
            }
            writer.block("public init(\(parameters.joined(separator: ", ")))") { writer in
                for column in table.columns {
                    writer.line("self.\(column.swiftName) = \(SwiftName.escaped(column.swiftName))")
                }
            }
            writer.line()
            writer.doc("Decodes a fetched row; throws when a column is missing or holds a value of another type.")
            writer.block("public init(row: GRDB.Row) throws") { writer in
                for column in table.columns {
                    writer.line("self.\(column.swiftName) = try row.decode(forColumn: \(SwiftName.stringLiteral(column.name)))")
                }
            }
            writer.line()
            writer.doc("Writes the row's values into a statement's arguments.")
            writer.block("public func encode(to container: inout GRDB.PersistenceContainer) throws") { writer in
                for column in table.columns {
                    writer.line("container[\(SwiftName.stringLiteral(column.name))] = self.\(column.swiftName)")
                }
            }
            writer.line()
            insertAll(table, into: &writer)
            writer.line()
            writer.block("private enum CodingKeys: String, CodingKey") { writer in
                for column in table.columns {
                    writer.line("case \(SwiftName.escaped(column.swiftName)) = \(SwiftName.stringLiteral(column.name))")
                }
            }
        }
    }

    /// A bulk insert through one cached statement: the fast path for many rows.
    private func insertAll(_ table: StoreTableIR, into writer: inout CodeWriter) {
        let columns = table.columns.map { StoreSQL.quoted($0.name) }.joined(separator: ", ")
        let marks = table.columns.map { _ in "?" }.joined(separator: ", ")
        let sql = "INSERT INTO \(StoreSQL.quoted(table.name)) (\(columns)) VALUES (\(marks))"
        writer.doc(
            """
            Inserts every record with one prepared statement, in the caller's transaction (call it inside `write`).
            Throws on the first row that violates a constraint; rows before it stay inserted unless the transaction rolls back.
            """)
        writer.block("public static func insertAll(_ records: some Sequence<Self>, in db: GRDB.Database) throws") { writer in
            writer.line("let statement = try SesameStore.StoreInsertStatement(db, sql: \(SwiftName.stringLiteral(sql)))")
            writer.block("for record in records") { writer in
                for (index, column) in table.columns.enumerated() {
                    writer.line("try statement.bind(record.\(column.swiftName), at: \(index + 1))")
                }
                writer.line("try statement.execute()")
            }
        }
    }

    private func swiftType(_ column: StoreColumnIR) -> String {
        let base: String
        switch column.type {
        case .text: base = "Swift.String"
        case .integer: base = "Swift.Int64"
        case .real: base = "Swift.Double"
        case .boolean: base = "Swift.Bool"
        case .blob: base = "Foundation.Data"
        case .date: base = "Foundation.Date"
        }
        return column.nullable ? "\(base)?" : base
    }

    private func swiftDefault(_ column: StoreColumnIR) -> String? {
        switch column.defaultValue {
        case nil: return column.nullable ? "nil" : nil
        case .null?: return "nil"
        case .text(let text)?: return SwiftName.stringLiteral(text)
        case .integer(let value)?: return String(value)
        case .real(let value)?: return StoreSQL.realLiteral(value)
        case .boolean(let value)?: return value ? "true" : "false"
        }
    }

    private func columnDoc(_ column: StoreColumnIR) -> String {
        var traits = ["`\(column.name)`", column.type.rawValue]
        if column.primaryKey { traits.append("primary key") }
        if column.unique { traits.append("unique") }
        if column.nullable { traits.append("nullable") }
        if let value = column.defaultValue { traits.append("default \(StoreSQL.literal(value))") }
        return "Column " + traits.joined(separator: ", ") + "."
    }
}
