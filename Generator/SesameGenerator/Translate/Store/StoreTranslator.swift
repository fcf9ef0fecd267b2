import Yams

/// Reads `store.yaml` into a `StoreIR`, reporting every problem at its position.
///
/// The file has up to three sections, `persistence`, `cache` and `memory`; each maps
/// version numbers (1, 2, 3, … without gaps) to the whole schema at that version. Every
/// pair of consecutive versions is then diffed by `StoreDiff` into one migration.
struct StoreTranslator {
    var reader: NodeReader

    init(file: String) {
        reader = NodeReader(file: file)
    }

    /// Table names that would shadow a module or a type the generated code names.
    static let reservedTableNames: Set<String> = ["Swift", "Foundation", "GRDB", "Sesame", "SesameStore", "Persistence", "Cache", "Memory"]
    /// Property names that GRDB's record protocols or Swift already give every record.
    static let reservedPropertyNames: Set<String> = SwiftName.reservedMembers.union([
        "databaseTableName", "databaseSelection", "persistenceConflictPolicy", "encode", "insert", "inserted", "save",
        "saved", "update", "updateChanges", "upsert", "delete", "exists", "databaseChanges", "databaseEquals",
    ])

    /// Validates a parsed `store.yaml`: names, types, defaults, version numbering, and the
    /// migration between each pair of consecutive versions (undeclared removals, lossy type
    /// changes and impossible column additions are errors), which it derives into the IR.
    ///
    /// Returns every problem found, each at its file, line and column; the IR is nil only
    /// when the file's root is not a mapping. Do not render an IR that came with errors.
    static func translate(_ file: ParsedFile) -> (StoreIR?, [Diagnostic]) {
        var translator = StoreTranslator(file: file.source.path)
        let store = translator.translate(file.root)
        return (store, translator.reader.diagnostics.sortedByLocation())
    }

    mutating func translate(_ root: Node?) -> StoreIR? {
        guard let root, !root.isNullScalar else { return StoreIR() }
        guard let entries = reader.mapping(root, "store.yaml", grammar: Grammar.storeFile) else { return nil }
        var store = StoreIR()
        for kind in StoreKindIR.allCases {
            guard let entry = entries[kind.rawValue] else { continue }
            let section = section(kind, entry)
            switch kind {
            case .persistence: store.persistence = section
            case .cache: store.cache = section
            case .memory: store.memory = section
            }
        }
        return store
    }

    // MARK: Sections

    private mutating func section(_ kind: StoreKindIR, _ entry: Entry) -> StoreSectionIR? {
        let location = reader.location(of: entry.keyNode)
        guard let entries = reader.mapping(entry.value, "'\(kind.rawValue)'", grammar: Grammar.storeSection(kind)) else { return nil }
        var policy: StorePolicyIR = kind == .persistence ? .migrate : .recreate
        var versions: [StoreVersionIR] = []
        if let item = entries["policy"], let value = self.policy(item.value, kind: kind) { policy = value }
        for item in entries.named {
            // The grammar lets through only keys that are numbers.
            guard let number = Int(item.key) else { continue }
            guard number >= 1 else {
                reader.error("version \(number) of '\(kind.rawValue)' is not allowed: versions are numbered from 1", at: item.keyNode)
                continue
            }
            // A database records its version in SQLite's 32-bit `PRAGMA user_version`; the
            // bound also keeps `number + 1` (the next version) from overflowing.
            guard number <= Int32.max else {
                reader.error(
                    "version \(number) of '\(kind.rawValue)' is too large: a database records at most version \(Int32.max)",
                    at: item.keyNode)
                continue
            }
            if let version = version(number, item, kind: kind) { versions.append(version) }
        }
        versions.sort { $0.number < $1.number }
        checkNumbering(versions, kind: kind)
        var section = StoreSectionIR(kind: kind, policy: policy, versions: versions, migrations: [], location: location)
        section.migrations = migrations(of: section)
        section.latestCreation = section.latest.map { StoreDiff.creation(of: $0, identifier: "") }
        return section
    }

    private mutating func policy(_ node: Node, kind: StoreKindIR) -> StorePolicyIR? {
        guard let text = reader.string(node, "policy") else { return nil }
        guard let policy = StorePolicyIR(rawValue: text) else {
            let hint = Suggestion.hint(for: text, among: ["migrate", "recreate"]) ?? ""
            reader.error("policy must be 'migrate' or 'recreate', found '\(text)'\(hint)", at: node)
            return nil
        }
        if kind == .persistence, policy == .recreate {
            reader.error(
                "'persistence' cannot have policy: recreate: it never loses data; use 'cache' for data that may be rebuilt", at: node)
            return nil
        }
        if kind == .memory, policy == .migrate {
            reader.error("'memory' is created afresh at every launch; it cannot have policy: migrate", at: node)
            return nil
        }
        return policy
    }

    /// Versions start at 1 and have no gaps: each missing number is reported at the
    /// version that follows it.
    private mutating func checkNumbering(_ versions: [StoreVersionIR], kind: StoreKindIR) {
        var expected = 1
        for version in versions {
            if version.number < expected {
                reader.append(.error("version \(version.number) of '\(kind.rawValue)' is declared twice", at: version.location))
                continue
            }
            if version.number != expected {
                let missing =
                    expected == version.number - 1 ? "version \(expected) is" : "versions \(expected) to \(version.number - 1) are"
                let message =
                    expected == 1
                    ? "the first version of '\(kind.rawValue)' is \(version.number): versions are numbered from 1 without gaps"
                    : "version \(version.number) of '\(kind.rawValue)' follows version \(expected - 1): \(missing) missing; versions are numbered without gaps"
                reader.append(.error(message, at: version.location))
            }
            expected = version.number + 1
        }
    }

    private mutating func migrations(of section: StoreSectionIR) -> [StoreMigrationIR] {
        guard let first = section.versions.first, let latest = section.versions.last else { return [] }
        checkFirstVersion(first)
        let prefix = section.kind.rawValue
        guard section.policy == .migrate else {
            return [StoreDiff.creation(of: latest, identifier: "\(prefix).v\(latest.number)")]
        }
        var migrations = [StoreDiff.creation(of: first, identifier: "\(prefix).v\(first.number)")]
        for (old, new) in zip(section.versions, section.versions.dropFirst()) {
            var diff = StoreDiff(old: old, new: new, kind: section.kind)
            migrations.append(diff.migration(identifier: "\(prefix).v\(new.number)"))
            for diagnostic in diff.diagnostics { reader.append(diagnostic) }
        }
        return migrations
    }

    /// Renames and removals make no sense in version 1 of a migrated section.
    private mutating func checkFirstVersion(_ version: StoreVersionIR) {
        guard version.number == 1 else { return }
        for removal in version.removals {
            reader.append(.error("version 1 has no previous version to remove anything from", at: removal.location))
        }
        for rename in version.tableRenames {
            reader.append(.error("version 1 has no previous version to rename a table from", at: rename.location))
        }
    }
}
