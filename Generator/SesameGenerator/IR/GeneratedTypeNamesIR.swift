/// The Swift names of the types an SDK declares besides its models: the one list a model's
/// name is checked against.
struct GeneratedTypeNamesIR: Sendable, Hashable, Codable {
    /// The SDK's module name, which a type must not shadow either.
    var module: String
    /// `<SDK>Schema`, the `SDKSchema` conformance.
    var schema: String
    /// `<SDK>Error`, the error catalogue.
    var error: String
    /// `<SDK>Event`, the events.
    var event: String
    /// `<SDK>Store`, the stores' namespace: nil when the schema declares no store.
    var store: String?

    init(module: String, schema: String, error: String, event: String, store: String?) {
        self.module = module
        self.schema = schema
        self.error = error
        self.event = event
        self.store = store
    }

    /// Every name, for the clash check.
    var all: [String] { [schema, error, event, module] + (store.map { [$0] } ?? []) }
}
