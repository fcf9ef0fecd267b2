/// One YAML file of a schema folder, read by the caller (the CLI or a plugin).
public struct SchemaSource: Sendable, Hashable {
    /// The path used in diagnostics, such as `Schema/auth.yaml`.
    public var path: String
    /// The path relative to the schema folder, such as `auth.yaml` or `models/billing.yaml`:
    /// it decides the file's role and is what `$ref: "billing.yaml#/Invoice"` names.
    public var relativePath: String
    public var text: String
    /// Whether the file was read because a `$ref` names it (a JSON Schema or OpenAPI
    /// document, docs/format.md "References"): it declares no models of its own, and its
    /// `relativePath` may leave the folder (`../api/openapi.yaml`) under a declared root.
    public var isReferencedDocument: Bool

    public init(path: String, relativePath: String, text: String, isReferencedDocument: Bool = false) {
        self.path = path
        self.relativePath = relativePath
        self.text = text
        self.isReferencedDocument = isReferencedDocument
    }

    /// The role a file plays, by its name at the top of the folder: `sdk.yaml`, `auth.yaml`,
    /// `errors.yaml`, `events.yaml`, `store.yaml`; any other YAML file declares models.
    public enum Role: String, Sendable, CaseIterable {
        case sdk, auth, errors, events, store, models
    }

    public var role: Role {
        // Only files at the top of the folder have roles; `models/auth.yaml` declares models.
        if relativePath.contains("/") { return .models }
        switch relativePath {
        case "sdk.yaml", "sdk.yml": return .sdk
        case "auth.yaml", "auth.yml": return .auth
        case "errors.yaml", "errors.yml": return .errors
        case "events.yaml", "events.yml": return .events
        case "store.yaml", "store.yml": return .store
        default: return .models
        }
    }
}
