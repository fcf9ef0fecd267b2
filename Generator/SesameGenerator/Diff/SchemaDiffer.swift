@_spi(Generated) import SesameDescription

/// One comparison of two validated schemas: each `compare…` adds the changes of one part
/// of the schema (``SchemaDiff/compare(old:new:)`` sorts them).
struct SchemaDiffer {
    let old: SDKIR
    let new: SDKIR
    var changes: [SchemaChange] = []
    /// Models (qualified Swift names) that travel in responses, in requests.
    let responseModels: Set<String>
    let requestModels: Set<String>
    let oldModels: [String: ModelIR]
    let newModels: [String: ModelIR]
    /// How each side's types render, for what decides a model's Swift shape (``TypeRendering/wrapsAlias(_:_:_:)``).
    let oldTypes: TypeRendering
    let newTypes: TypeRendering

    init(old: SDKIR, new: SDKIR) {
        self.old = old
        self.new = new
        oldModels = SchemaDiffer.table(old.models)
        newModels = SchemaDiffer.table(new.models)
        oldTypes = TypeRendering(models: old.models)
        newTypes = TypeRendering(models: new.models)
        let (responses, requests) = SchemaDiffer.usage(of: old, models: oldModels)
        responseModels = responses
        requestModels = requests
    }

    mutating func add(_ kind: String, _ grade: SchemaChange.Grade, _ message: String, at location: SourceLocation?) {
        changes.append(SchemaChange(kind: kind, grade: grade, message: message, location: location))
    }

    mutating func run() {
        compareSDK()
        compareModelOptions()
        compareMethods()
        compareOperations()
        compareModels()
        compareErrors()
        compareEvents()
        compareStores()
    }

    // MARK: Stores

    /// A store version that shipped is frozen: a database at that version exists on
    /// devices, and the migrations from it were written for its exact schema.
    mutating func compareStores() {
        let newSections = Dictionary(uniqueKeysWithValues: (new.store?.sections ?? []).map { ($0.kind, $0) })
        for section in old.store?.sections ?? [] {
            let kind = section.kind.rawValue
            guard let updated = newSections[section.kind] else {
                add(
                    "store.section-removed", section.kind == .persistence ? .breaking : .warning,
                    "the \(kind) store was removed; databases on devices keep its data", at: section.location)
                continue
            }
            let newVersions = Dictionary(uniqueKeysWithValues: updated.versions.map { ($0.number, $0) })
            for version in section.versions {
                guard let changed = newVersions[version.number] else {
                    add(
                        "store.version-removed", .breaking,
                        "\(kind) v\(version.number) was removed; a database on a device may be at that version", at: version.location)
                    continue
                }
                if StoreSnapshots.json(of: version) != StoreSnapshots.json(of: changed) {
                    add(
                        "store.version-changed", section.kind == .persistence || section.policy == .migrate ? .breaking : .warning,
                        "\(kind) v\(version.number) changed after release; declare v\((updated.versions.last?.number ?? version.number) + 1) instead",
                        at: changed.location)
                }
            }
            let oldNumbers = Set(section.versions.map(\.number))
            for version in updated.versions where !oldNumbers.contains(version.number) {
                add("store.version-added", .compatible, "\(kind) v\(version.number) was added with its migration", at: version.location)
            }
        }
        let oldKinds = Set((old.store?.sections ?? []).map(\.kind))
        for section in new.store?.sections ?? [] where !oldKinds.contains(section.kind) {
            add("store.section-added", .compatible, "the \(section.kind.rawValue) store was added", at: section.location)
        }
    }
}
