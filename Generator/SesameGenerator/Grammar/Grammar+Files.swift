@_spi(Generated) import SesameDescription

/// errors.yaml, events.yaml and store.yaml.
extension Grammar {
    // MARK: errors.yaml

    static let errorsFile = GrammarMapping(
        "errors.yaml", "errors.yaml: the back-end's error catalogue.",
        keys: [
            GrammarKey(
                "envelope", .mapping(envelope), default: "`{ code: error, message: error_description }`",
                "Where an error response holds its code and message."),
            GrammarKey(
                "errors", .dictionary(values: .mapping(error)),
                "The error codes the back-end answers with, by code: each a case of the generated `<SDK>Error`."),
        ],
        nullable: true)

    static let envelope = GrammarMapping(
        "envelope", "Where an error response holds its code and message.",
        keys: [
            GrammarKey("code", .string(), default: "`error`", "The body field holding the code."),
            GrammarKey(
                "message", .string(), default: "`error_description`",
                "The body field holding the message; an `envelope` that leaves `message` out reads no message."),
        ],
        inline: true)

    static let error = GrammarMapping(
        "error", "An error code.",
        keys: [
            GrammarKey("status", .integer(minimum: 400, maximum: 599), missing: " needs a status", "The HTTP status."),
            GrammarKey(
                "category", .oneOf(ErrorCategory.allCases.map(\.rawValue)), missing: " needs a category",
                "What the SDK and the app do about the error (the categories are below)."),
            GrammarKey("description", .shared("text"), "Documentation of the Swift case."),
        ],
        inline: true)

    // MARK: events.yaml

    static let eventsFile = GrammarMapping(
        "events.yaml", "events.yaml: events the back-end pushes.",
        keys: [
            GrammarKey("stream", .shared("requestLine"), "The request line of the server-sent events stream."),
            GrammarKey(
                "events", .dictionary(names: .shared("identifier"), values: .mapping(event)),
                "The events, by name: an identifier, which names the Swift case."),
        ],
        nullable: true)

    static let event = GrammarMapping(
        "event", "An event the back-end pushes.",
        keys: [
            GrammarKey("description", .shared("text"), "Documentation of the event."),
            GrammarKey("wireName", .string(), default: "the event's name", "The SSE `event:` name; two events cannot share one."),
            GrammarKey(
                "payload", .shared("schemaOrName"),
                "The JSON of the event's `data:`: a model's name or a schema; an inline schema that needs a type becomes `<Event>Payload` (`QuotaPayload`). Without it the event carries nothing."
            ),
            GrammarKey("effect", .oneOf(["invalidate"]), "`invalidate`: receiving the event makes the session invalid."),
        ],
        inline: true)

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
