/// The schema versions of a build: the cache and the persistence database evolve
/// separately, so a cache change never touches persistent data and the other way round.
public struct StoreVersions: Sendable, Hashable, Codable, CustomStringConvertible {
    public var cache: Int
    public var persistence: Int

    public init(cache: Int, persistence: Int) {
        self.cache = cache
        self.persistence = persistence
    }

    public var description: String { "cache v\(cache), persistence v\(persistence)" }
}
