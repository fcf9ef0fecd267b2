import Foundation

/// Frozen store versions, as Room exports its schemas: each declared version of
/// `store.yaml` is recorded as JSON under `released/store/<kind>/<version>.json`, and a
/// recorded version may never change again. A shipped database at that version would
/// otherwise meet migrations written for a schema it never had.
public enum StoreSnapshots {
    /// The folder inside the schema folder where snapshots live.
    public static let folder = "released/store"

    /// The snapshot of every declared version, by path relative to the schema folder.
    static func snapshots(of store: StoreIR) -> [GeneratedFile] {
        store.sections.flatMap { section in
            section.versions.map { version in
                GeneratedFile(path: "\(folder)/\(section.kind.rawValue)/\(version.number).json", contents: json(of: version))
            }
        }
    }

    /// Checks the declared versions against the recorded ones (relative path → contents).
    /// - Returns: an error at the version's position for every recorded version that
    ///   changed, and at the section for every recorded version no longer declared.
    static func check(_ store: StoreIR?, recorded: [String: String]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var declared: Set<String> = []
        for section in store?.sections ?? [] {
            for version in section.versions {
                let path = "\(folder)/\(section.kind.rawValue)/\(version.number).json"
                declared.insert(path)
                guard let previous = recorded[path], !sameJSON(previous, json(of: version)) else { continue }
                let next = (section.versions.last?.number ?? version.number) + 1
                diagnostics.append(
                    .error(
                        "\(section.kind.rawValue) v\(version.number) is released (recorded in \(path)); declare v\(next) instead of editing it",
                        at: version.location))
            }
        }
        for path in recorded.keys.sorted() where path.hasPrefix(folder + "/") && path.hasSuffix(".json") && !declared.contains(path) {
            let parts = path.dropFirst(folder.count + 1).split(separator: "/")
            let kind = parts.first.map(String.init) ?? "?"
            let location = store?.sections.first { $0.kind.rawValue == kind }?.location
            diagnostics.append(
                .error(
                    "\(kind) v\(parts.last?.replacingOccurrences(of: ".json", with: "") ?? "?") is released (recorded in \(path)) but no longer declared; a shipped database may be at that version",
                    at: location))
        }
        return diagnostics
    }

    /// Whether two snapshots record the same JSON value. Compared as JSON, not as text: a
    /// snapshot checked out with CRLF line endings, or saved by an editor without its final
    /// newline or with other indentation, records the same version, and calling it edited
    /// would ask for a new store version that changes nothing. Text that is not JSON at all
    /// differs from any version.
    static func sameJSON(_ recorded: String, _ canonical: String) -> Bool {
        if recorded == canonical { return true }
        func value(_ text: String) -> NSObject? {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) as? NSObject
        }
        guard let recordedValue = value(recorded), let canonicalValue = value(canonical) else { return false }
        return recordedValue.isEqual(canonicalValue)
    }

    /// The canonical JSON of a version: sorted keys, no source positions.
    static func json(of version: StoreVersionIR) -> String {
        var stripped = version
        stripped.location = SourceLocation(file: "", line: 0, column: 0)
        let snapshot = Snapshot(version: stripped)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(snapshot)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// What a version's snapshot records: the schema, not where it was written.
    private struct Snapshot: Encodable {
        struct Column: Encodable {
            var name: String
            var type: String
            var primaryKey: Bool
            var nullable: Bool
            var unique: Bool
            var defaultValue: StoreDefaultIR?
            var renamedFrom: String?
        }
        struct Table: Encodable {
            var name: String
            var columns: [Column]
        }
        var version: Int
        var tables: [Table]
        var indexes: [String]
        var removals: [String]
        var tableRenames: [String]

        init(version: StoreVersionIR) {
            self.version = version.number
            tables = version.tables.map { table in
                Table(
                    name: table.name,
                    columns: table.columns.map {
                        Column(
                            name: $0.name, type: $0.type.rawValue, primaryKey: $0.primaryKey, nullable: $0.nullable,
                            unique: $0.unique, defaultValue: $0.defaultValue, renamedFrom: $0.renamedFrom)
                    })
            }
            indexes = version.indexes.map { Snapshot.describe($0) }.sorted()
            removals = version.removals.map { Snapshot.describe($0) }.sorted()
            tableRenames = version.tableRenames.map { Snapshot.describe($0) }.sorted()
        }

        /// A location-free description of an IR value, by encoding it without positions.
        static func describe<Value: Encodable>(_ value: Value) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(value),
                var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return "" }
            for key in object.keys where key.lowercased().contains("location") { object.removeValue(forKey: key) }
            let cleaned = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return String(decoding: cleaned, as: UTF8.self)
        }
    }
}
