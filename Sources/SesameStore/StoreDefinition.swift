/// The schemas of a context's three databases, as generated from `store.yaml`
/// (`<SDK>Store.definition`). A context is started with it.
public struct StoreDefinition: Sendable {
    public let persistence: StoreSchema
    public let cache: StoreSchema
    public let memory: StoreSchema

    /// Groups three schemas.
    /// - Precondition: each schema is of its kind.
    public init(persistence: StoreSchema, cache: StoreSchema, memory: StoreSchema) {
        precondition(
            persistence.kind == .persistence && cache.kind == .cache && memory.kind == .memory,
            "each schema must be of its database's kind")
        self.persistence = persistence
        self.cache = cache
        self.memory = memory
    }

    /// No tables in any database: what the standard context uses unless told otherwise.
    public static let empty = StoreDefinition(persistence: .empty(.persistence), cache: .empty(.cache), memory: .empty(.memory))

    /// The schema of a kind.
    public subscript(kind: StoreKind) -> StoreSchema {
        switch kind {
        case .cache: return cache
        case .memory: return memory
        case .persistence: return persistence
        }
    }

    /// The cache and persistence versions of this build.
    public var versions: StoreVersions { StoreVersions(cache: cache.version, persistence: persistence.version) }
}
