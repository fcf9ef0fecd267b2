import Foundation

/// The proof identifiers (`jti`) seen recently (RFC 9449 §11.1), at most `capacity` of them.
/// An identifier is kept until its proof leaves the `iat` window (`expiresAt`); when the cache
/// is full, the oldest entry goes first.
struct DPoPReplayCache: Sendable {
    let capacity: Int
    private var expiries: [String: Date] = [:]
    /// Identifiers in the order they were first seen: the eviction order.
    private var order: [String] = []
    private var head = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of identifiers held.
    var count: Int { expiries.count }

    /// Records `jti` until `expiresAt`; false when it is already held (a replay). Forgets
    /// what expired by `now`, then the oldest while the cache is full.
    mutating func insert(_ jti: String, expiresAt: Date, now: Date) -> Bool {
        while head < order.count, let expiry = expiries[order[head]], expiry <= now {
            expiries[order[head]] = nil
            head += 1
        }
        if let expiry = expiries[jti], expiry > now { return false }
        while expiries.count >= capacity, head < order.count {
            expiries[order[head]] = nil
            head += 1
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        expiries[jti] = expiresAt
        order.append(jti)
        return true
    }
}
