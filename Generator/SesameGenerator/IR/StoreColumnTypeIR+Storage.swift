/// How each column type is declared in SQL, held in Swift, and converted.
extension StoreColumnTypeIR {
    /// The declared SQL type, as `PRAGMA table_info` reports it (GRDB's names).
    var sqlType: String {
        switch self {
        case .text: return "TEXT"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .boolean: return "BOOLEAN"
        case .blob: return "BLOB"
        case .date: return "DATETIME"
        }
    }

    /// The record property's Swift type.
    var swiftType: String {
        switch self {
        case .text: return "String"
        case .integer: return "Int64"
        case .real: return "Double"
        case .boolean: return "Bool"
        case .blob: return "Data"
        case .date: return "Date"
        }
    }

    /// Whether every value of `self` converts to `target` and back without loss, so that a
    /// `persistence` migration may change the type. Integers become reals exactly up to
    /// 2^53; GRDB stores dates as text.
    func convertsLosslessly(to target: StoreColumnTypeIR) -> Bool {
        if self == target { return true }
        switch (self, target) {
        case (.boolean, .integer), (.boolean, .real), (.integer, .real): return true
        case (.boolean, .text), (.integer, .text), (.real, .text), (.date, .text): return true
        case (.text, .blob): return true
        default: return false
        }
    }

    /// The SQL expression reading `column` (already quoted) of type `self` as `target`.
    func conversion(of column: String, to target: StoreColumnTypeIR) -> String {
        if self == target { return column }
        switch (self, target) {
        case (.boolean, .integer): return column
        case (_, .boolean): return "(CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) THEN 1 ELSE 0 END)"
        case (.date, .text), (.text, .date): return column
        default: return "CAST(\(column) AS \(target.castType))"
        }
    }

    private var castType: String {
        switch self {
        case .text, .date: return "TEXT"
        case .integer, .boolean: return "INTEGER"
        case .real: return "REAL"
        case .blob: return "BLOB"
        }
    }
}
