@_spi(Generated) import SesameDescription

/// errors.yaml, events.yaml and store.yaml.
extension Grammar {
    // MARK: errors.yaml

    static let errorsFile = GrammarMapping(
        "errors.yaml", "errors.yaml: the back-end's error catalogue.",
        keys: [
            GrammarKey("envelope", .mapping(envelope), "Where an error response holds its code and message."),
            GrammarKey("errors", .dictionary(values: .mapping(error)), "The error codes the back-end answers with."),
        ],
        nullable: true)

    static let envelope = GrammarMapping(
        "envelope", "Where an error response holds its code and message.",
        keys: [
            GrammarKey("code", .string(), "The field holding the error code (default error)."),
            GrammarKey("message", .string(), "The field holding the message (default error_description)."),
        ])

    static let error = GrammarMapping(
        "error", "An error code.",
        keys: [
            GrammarKey("status", .integer(minimum: 400, maximum: 599), missing: " needs a status", "An HTTP error status."),
            GrammarKey(
                "category", .oneOf(ErrorCategory.allCases.map(\.rawValue)), missing: " needs a category",
                "What the SDK does with the error."),
            GrammarKey("description", .shared("text"), "Documentation of the error."),
        ])

    // MARK: events.yaml

    static let eventsFile = GrammarMapping(
        "events.yaml", "events.yaml: events the back-end pushes.",
        keys: [
            GrammarKey("stream", .shared("requestLine"), "The server-sent events stream."),
            GrammarKey("events", .dictionary(names: .shared("identifier"), values: .mapping(event)), "The events, by name."),
        ],
        nullable: true)

    static let event = GrammarMapping(
        "event", "An event the back-end pushes.",
        keys: [
            GrammarKey("description", .shared("text"), "Documentation of the event."),
            GrammarKey("wireName", .string(), "The SSE event name (default: the event's key)."),
            GrammarKey("payload", .shared("schemaOrName"), "The payload: a model name or an inline schema."),
            GrammarKey("effect", .oneOf(["invalidate"]), "invalidate: receiving the event makes the session invalid."),
        ])

    // MARK: store.yaml

    static let storeFile = GrammarMapping(
        "store.yaml", "store.yaml: the on-device stores, version by version (docs/store.md).",
        keys: storeSections.map { kind, section in GrammarKey(kind.rawValue, .mapping(section), section.summary) },
        nullable: true)

    /// The sections of store.yaml, each with the policies it may have.
    static let storeSections: [(StoreKindIR, GrammarMapping)] = StoreKindIR.allCases.map { kind in
        let (policies, summary): ([String], String) =
            switch kind {
            case .persistence: (["migrate"], "Never loses data: versions are migrated losslessly.")
            case .cache: (["migrate", "recreate"], "May be dropped and rebuilt (policy recreate, the default).")
            case .memory: (["recreate"], "In memory, created afresh at every launch.")
            }
        return (
            kind,
            GrammarMapping(
                "'\(kind.rawValue)'", summary,
                keys: [GrammarKey("policy", .oneOf(policies), "What happens when the version changes: migrate or recreate.")],
                names: (.versionNumber, .shared("storeVersion"), ": versions are numbered 1, 2, 3…", always: true))
        )
    }

    /// The grammar of one section of store.yaml.
    static func storeSection(_ kind: StoreKindIR) -> GrammarMapping {
        storeSections.first { $0.0 == kind }!.1
    }

    static let storeVersion = GrammarMapping(
        "version", "The whole schema of one version: tables (names start with an uppercase letter), indexes, removals and table renames.",
        keys: [
            GrammarKey(
                "indexes", .dictionary(names: .string(pattern: "^[A-Za-z_][A-Za-z0-9_]*$"), values: .mapping(index)),
                "Indexes, by name."),
            GrammarKey(
                "removed", .either([.string(), .list(.string())]),
                "Tables (`Draft`) or columns (`Note.legacy`) removed since the previous version."),
            GrammarKey("renamed", .dictionary(values: .string()), "New table name → previous name."),
        ],
        names: (
            .tableName, .shared("storeTable"), " (table names start with an uppercase letter and contain only letters, digits and _)",
            always: false
        ),
        nullable: true)

    static let column = GrammarMapping(
        "column", "A column.",
        keys: [
            GrammarKey(
                "type", columnType,
                missing: " needs a `type:` (" + StoreColumnTypeIR.allCases.map(\.rawValue).joined(separator: ", ") + ")",
                "The column's type."),
            GrammarKey("primaryKey", .boolean, "Whether the column is (part of) the primary key."),
            GrammarKey("nullable", .boolean, "Whether the column may hold null."),
            GrammarKey("unique", .boolean, "Whether no two rows may hold the same value."),
            GrammarKey(
                "default", .jsonTypes(["string", "number", "boolean", "null"]),
                "A scalar of the column's type; null only for a nullable column."),
            GrammarKey("renamedFrom", .string(pattern: "^[A-Za-z_][A-Za-z0-9_]*$"), "The column's name in the previous version."),
        ])

    static let index = GrammarMapping(
        "index", "An index.",
        keys: [
            GrammarKey("table", .string(), missing: " needs `table:`", "The indexed table."),
            GrammarKey(
                "columns", .either([.string(), .list(.string(), minimumCount: 1)]), missing: " needs `columns:`",
                "The indexed columns, in order."),
            GrammarKey("unique", .boolean, "Whether no two rows may hold the same values."),
        ])
}
