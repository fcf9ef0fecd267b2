/// Compares two validated schemas and reports every change that matters to apps built
/// against the old one: source breaks (app code stops compiling), wire breaks (shipped
/// apps stop understanding the back-end) and compatible additions.
public enum SchemaDiff {
    public static func compare(old: SDKIR, new: SDKIR) -> [SchemaChange] {
        var differ = SchemaDiffer(old: old, new: new)
        differ.run()
        return differ.changes.sorted { lhs, rhs in
            switch (lhs.location, rhs.location) {
            case (let l?, let r?) where l != r: return l < r
            case (nil, _?): return true
            case (_?, nil): return false
            default: return (lhs.kind, lhs.message) < (rhs.kind, rhs.message)
            }
        }
    }
}
