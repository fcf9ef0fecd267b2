import Foundation
import JWTKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The provider's signing keys (its JWKS, RFC 7517), fetched on first use and kept: one fetch
/// serves every validation after it. A token whose `kid` is not in the set causes one
/// re-fetch (the provider rotated its keys); validations that find the same stale set at once
/// share that re-fetch. Re-fetches are at most one per ``refetchInterval`` (30 s by default):
/// tokens with made-up `kid`s, one after another, cost one fetch, not one each; within the
/// interval an unknown `kid` is refused against the set held.
///
/// Keys the runtime cannot use (another `kty`, an encryption key, a malformed entry) are
/// skipped, not fatal: the set fails only when it is not a JWKS at all.
public actor JWKSCache {
    /// Fetches the JWKS document's bytes.
    public typealias Fetch = @Sendable () async throws -> Data

    /// One fetched set: its keys by `kid`, and the jwt-kit collection that verifies with them.
    struct Loaded: Sendable {
        var generation: Int
        var keys: [String: JWK]
        /// The `kid` used for the set's only key when that key has none (OIDC Core §10.1).
        var soleKeyID: String?
        var collection: JWTKeyCollection
    }

    private let fetch: Fetch
    private var loaded: Loaded?
    private var inFlight: Task<Result<Loaded, IDTokenRejection>, Never>?
    /// How many times the set was fetched (a benchmark and the tests read it).
    public private(set) var fetchCount = 0
    /// The shortest time between two re-fetches caused by unknown `kid`s.
    public let refetchInterval: Duration
    /// The default ``refetchInterval``: 30 seconds.
    public static let defaultRefetchInterval: Duration = .seconds(30)
    private let now: @Sendable () -> ContinuousClock.Instant
    /// When the last re-fetch of a held set started.
    private var lastRefetch: ContinuousClock.Instant?

    /// A cache that gets the set with `fetch`, re-fetching it for unknown `kid`s at most once
    /// per `refetchInterval` as `now` measures it.
    public init(
        refetchInterval: Duration = JWKSCache.defaultRefetchInterval,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, fetch: @escaping Fetch
    ) {
        self.fetch = fetch
        self.refetchInterval = refetchInterval
        self.now = now
    }

    /// A cache that gets the set from `url` (the provider's `jwks_uri`) with `session`; any
    /// status but 200 is a failure, and so is a body larger than `maximumSize` bytes (by
    /// default 8 MiB, the runtime's `maximumResponseSize`): such a set is never parsed. The
    /// body is received whole before it is measured (`URLSession.data(from:)`, the one call
    /// every platform has). A set that a redirect brought from another origin (scheme, host or
    /// port) than `url`'s is refused: keys are trusted only from where the provider said.
    public init(
        url: URL, session: URLSession = .shared, maximumSize: Int = 8 << 20,
        refetchInterval: Duration = JWKSCache.defaultRefetchInterval
    ) {
        self.init(refetchInterval: refetchInterval) {
            let (data, response) = try await session.data(from: url)
            guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
                throw URLError(.badServerResponse)
            }
            guard let answered = response.url, Self.origin(of: answered) == Self.origin(of: url) else {
                throw JWKSFromAnotherOrigin()
            }
            guard data.count <= maximumSize else { throw JWKSTooLarge() }
            return data
        }
    }

    /// The JWKS document is larger than the cache accepts.
    struct JWKSTooLarge: Error {}
    /// A redirect took the JWKS fetch to another origin.
    struct JWKSFromAnotherOrigin: Error {}

    /// A URL's origin: its scheme and host, lower-cased, and its port (the scheme's default
    /// when it has none).
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }

    /// The set, fetched if it never was.
    /// - Throws: ``IDTokenRejection/keysUnavailable(reason:)``.
    func current() async throws(IDTokenRejection) -> Loaded {
        if let loaded { return loaded }
        return try await reload(replacing: nil)
    }

    /// A fresh set, unless the one `stale` names was already replaced (then that one).
    /// - Throws: ``IDTokenRejection/keysUnavailable(reason:)``; the set held stays.
    func reload(replacing stale: Int?) async throws(IDTokenRejection) -> Loaded {
        if let loaded, loaded.generation != stale { return loaded }
        let task: Task<Result<Loaded, IDTokenRejection>, Never>
        if let inFlight {
            task = inFlight
        } else {
            if let loaded {
                // A re-fetch of a set held: at most one per interval.
                let started = now()
                if let lastRefetch, lastRefetch.duration(to: started) < refetchInterval { return loaded }
                lastRefetch = started
            }
            let generation = (loaded?.generation ?? 0) + 1
            let fetch = self.fetch
            fetchCount += 1
            task = Task { await Self.load(fetch, generation: generation) }
            inFlight = task
        }
        let result = await task.value
        if inFlight == task { inFlight = nil }
        switch result {
        case .success(let fresh):
            if fresh.generation > (loaded?.generation ?? 0) { loaded = fresh }
            return loaded ?? fresh
        case .failure(let rejection):
            throw rejection
        }
    }

    private static func load(_ fetch: Fetch, generation: Int) async -> Result<Loaded, IDTokenRejection> {
        let data: Data
        do {
            data = try await fetch()
        } catch is JWKSFromAnotherOrigin {
            return .failure(.keysUnavailable(reason: "a redirect took the fetch to another origin"))
        } catch {
            return .failure(.keysUnavailable(reason: "fetching it failed (\(type(of: error)))"))
        }
        struct Document: Decodable { var keys: [JSONKey] }
        // A key's `use` (RFC 7517 §4.2): only signature keys, or keys that do not say, verify.
        struct Use: Decodable { var use: String? }
        struct JSONKey: Decodable {
            var jwk: JWK?
            init(from decoder: any Decoder) throws {
                let use = (try? Use(from: decoder))?.use ?? "sig"
                jwk = use == "sig" ? try? JWK(from: decoder) : nil
            }
        }
        guard let document = try? JSONDecoder().decode(Document.self, from: data) else {
            return .failure(.keysUnavailable(reason: "it is not a JSON Web Key Set"))
        }
        var usable = document.keys.compactMap(\.jwk)
        var soleKeyID: String?
        if usable.count == 1, usable[0].keyIdentifier == nil {
            soleKeyID = "sesame-sole-key"
            usable[0].keyIdentifier = JWKIdentifier(string: "sesame-sole-key")
        }
        let collection = JWTKeyCollection()
        var keys: [String: JWK] = [:]
        for jwk in usable {
            guard let kid = jwk.keyIdentifier?.string, keys[kid] == nil else { continue }
            do {
                try await collection.add(jwk: jwk)
                keys[kid] = jwk
            } catch {
                continue
            }
        }
        return .success(Loaded(generation: generation, keys: keys, soleKeyID: soleKeyID, collection: collection))
    }
}
