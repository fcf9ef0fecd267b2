/// Renders a `StoreIR` into the SDK's store files:
///
/// - `Store/Store.swift`: the `<SDK>Store` namespace, its `versions` and `definition`;
/// - `Store/Records.swift`: one GRDB record per table of each section's latest version,
///   in `<SDK>Store.Persistence`, `.Cache` and `.Memory`;
/// - `Store/Migrations.swift`: each section's `StoreSchema`, with raw-SQL migrations.
struct StoreRenderer {
    let store: StoreIR
    let namespace: String
    let schema: String

    /// - Parameters:
    ///   - namespace: the `<SDK>Store` type, as the naming pass named it.
    ///   - schema: the `<SDK>Schema` type, whose app sessions get these stores by default.
    init(store: StoreIR, namespace: String, schema: String) {
        self.store = store
        self.namespace = namespace
        self.schema = schema
    }

    static let kinds: [(kind: StoreKindIR, type: String)] = [(.persistence, "Persistence"), (.cache, "Cache"), (.memory, "Memory")]

    func section(_ kind: StoreKindIR) -> StoreSectionIR? {
        switch kind {
        case .persistence: return store.persistence
        case .cache: return store.cache
        case .memory: return store.memory
        }
    }

    func files() -> [GeneratedFile] {
        [
            GeneratedFile(path: "Store/Store.swift", contents: namespaceFile()),
            GeneratedFile(path: "Store/Records.swift", contents: recordsFile()),
            GeneratedFile(path: "Store/Migrations.swift", contents: migrationsFile()),
        ]
    }

    private func start(_ imports: [String]) -> CodeWriter {
        var writer = CodeWriter()
        writer.line(GeneratedFile.header)
        writer.line()
        for module in imports { writer.line("import \(module)") }
        writer.line()
        return writer
    }

    // MARK: Store.swift

    private func namespaceFile() -> String {
        var writer = start(["Foundation", "Sesame", "SesameStore"])
        writer.doc(
            """
            The on-device stores declared in `store.yaml`: records in `Persistence`, `Cache` and `Memory`, \
            and the schemas that create and migrate them.
            Start a user's context with `definition`; `versions` are the stores' current schema versions.
            """)
        writer.block("public enum \(namespace): Sendable") { writer in
            let cache = store.cache?.latestVersion ?? 0
            let persistence = store.persistence?.latestVersion ?? 0
            writer.doc("The schema versions of this build: cache \(cache), persistence \(persistence).")
            writer.line("public static let versions = StoreVersions(cache: \(cache), persistence: \(persistence))")
            writer.line()
            writer.doc("The three databases' schemas: an `AppSession`'s default stores, or `AppContexts.start(userID:stores:)`'s.")
            writer.line(
                "public static let definition = StoreDefinition(persistence: Persistence.schema, cache: Cache.schema, memory: Memory.schema)"
            )
            for (kind, type) in Self.kinds {
                writer.line()
                writer.doc(
                    section(kind) == nil
                        ? "`\(kind.rawValue)` is not declared in `store.yaml`: its database has no tables."
                        : "The `\(kind.rawValue)` database's records and schema.")
                writer.line("public enum \(type): Sendable {}")
            }
        }
        writer.line()
        // Qualified names: a model of the schema may be called `AppSession` or `URL`.
        writer.block("extension SesameStore.AppSession.Configuration where Schema == \(schema)") { writer in
            writer.doc(
                """
                A configuration with this SDK's stores (`\(namespace).definition`) in every user's context, \
                the session kept in the standard context, in `directory` (nil: under Application Support), \
                shared with other processes (the app's extensions) when `sharing` says so.
                """)
            writer.line("public init(")
            writer.line("    service: Sesame.AuthenticationServiceConfiguration<\(schema).Details> = .init(),")
            writer.line("    directory: Foundation.URL? = nil,")
            writer.line("    userDataOnSignOut: SesameStore.UserDataOnSignOut = .keep,")
            writer.line("    sharing: SesameStore.SessionSharing = .singleProcess")
            writer.line(") {")
            writer.line("    self.init(")
            writer.line("        service: service, stores: \(namespace).definition, directory: directory,")
            writer.line("        userDataOnSignOut: userDataOnSignOut, sharing: sharing)")
            writer.line("}")
        }
        return writer.text
    }

    // MARK: Migrations.swift

    private func migrationsFile() -> String {
        var writer = start(["GRDB", "SesameStore"])
        for (index, (kind, type)) in Self.kinds.enumerated() {
            if index > 0 { writer.line() }
            writer.block("extension \(namespace).\(type)") { writer in
                schema(kind, section(kind), into: &writer)
            }
        }
        return writer.text
    }

    private func schema(_ kind: StoreKindIR, _ section: StoreSectionIR?, into writer: inout CodeWriter) {
        let policy = section?.policy ?? .recreate
        let version = section?.latestVersion ?? 0
        writer.doc(
            "The `\(kind.rawValue)` database at version \(version) (policy: \(policy.rawValue)). "
                + "Migration identifiers never change once shipped; the SQL names raw tables and columns only.")
        writer.line("public static let schema = StoreSchema(")
        writer.indented { writer in
            writer.line("kind: .\(kind.rawValue),")
            writer.line("version: \(version),")
            writer.line("policy: .\(policy.rawValue),")
            let migrations = section?.migrations ?? []
            if migrations.isEmpty {
                writer.line("migrations: [],")
            } else {
                writer.line("migrations: [")
                writer.indented { writer in
                    for migration in migrations {
                        writer.line(
                            "StoreMigration(\(SwiftName.stringLiteral(migration.identifier)), version: \(migration.version)) { db in")
                        writer.indented { writer in
                            sql(migration.operations.flatMap(StoreSQL.statements), into: &writer)
                        }
                        writer.line("},")
                    }
                }
                writer.line("],")
            }
            writer.line("latest: { db in")
            writer.indented { writer in
                sql(section?.latestCreation?.operations.flatMap(StoreSQL.statements) ?? [], into: &writer)
            }
            writer.line("}")
        }
        writer.line(")")
    }

    private func sql(_ statements: [String], into writer: inout CodeWriter) {
        if statements.isEmpty { writer.line("_ = db") }
        for statement in statements {
            writer.line("try db.execute(sql: \(SwiftName.stringLiteral(statement)))")
        }
    }
}
