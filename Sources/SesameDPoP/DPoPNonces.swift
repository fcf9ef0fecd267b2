import Foundation
import HTTPTypes

/// The latest nonce each server gave (RFC 9449 §8, §9), by origin: a response's `DPoP-Nonce`
/// field replaces the nonce of the origin that sent it, and a proof for a request to an
/// origin carries that origin's nonce only, never another's.
///
/// A value that is not a nonce (empty, longer than ``maximumNonceLength``, a character
/// outside `NQCHAR`) is ignored, and the nonce held stays. At most ``maximumOrigins``
/// origins are kept: the least recently updated is forgotten first.
public actor DPoPNonces {
    /// The `DPoP-Nonce` header field's name.
    public static let headerFieldName = HTTPField.Name("DPoP-Nonce")!
    /// The longest nonce kept, in bytes.
    public static let maximumNonceLength = 1024
    /// How many origins' nonces are kept.
    public static let maximumOrigins = 64

    private var nonces: [DPoPOrigin: (nonce: String, updated: Int)] = [:]
    /// Counts updates, to find the least recently updated origin.
    private var updates = 0

    /// An empty store.
    public init() {}

    /// The latest nonce `origin` gave, or nil.
    public func nonce(for origin: DPoPOrigin) -> String? {
        nonces[origin]?.nonce
    }

    /// The latest nonce the origin of `url` gave, or nil (also when `url` has no http(s)
    /// origin).
    public func nonce(for url: URL) -> String? {
        DPoPOrigin(url: url).flatMap { nonces[$0]?.nonce }
    }

    /// Keeps the `DPoP-Nonce` of a response from `origin`, if it has a valid one (the last,
    /// when it has several fields); any response may carry one, whatever its status.
    /// - Returns: the nonce kept, or nil when the response had none that is valid.
    @discardableResult
    public func update(from headerFields: HTTPFields, of origin: DPoPOrigin) -> String? {
        guard let nonce = headerFields[values: Self.headerFieldName].last, Self.isValidNonce(nonce) else { return nil }
        updates += 1
        nonces[origin] = (nonce, updates)
        if nonces.count > Self.maximumOrigins, let oldest = nonces.min(by: { $0.value.updated < $1.value.updated })?.key {
            nonces[oldest] = nil
        }
        return nonce
    }

    /// Keeps the `DPoP-Nonce` of a response to a request for `url`.
    /// - Returns: the nonce kept, or nil when the response had no valid one or `url` has no
    ///   http(s) origin.
    @discardableResult
    public func update(from headerFields: HTTPFields, for url: URL) -> String? {
        guard let origin = DPoPOrigin(url: url) else { return nil }
        return update(from: headerFields, of: origin)
    }

    /// Forgets the nonce of `origin`.
    public func remove(for origin: DPoPOrigin) {
        nonces[origin] = nil
    }

    /// Forgets every nonce.
    public func removeAll() {
        nonces = [:]
    }

    /// Whether `value` is a nonce by RFC 9449 §8.1 (`nonce = 1*NQCHAR`, `NQCHAR = %x21 /
    /// %x23-5B / %x5D-7E`) no longer than ``maximumNonceLength`` bytes.
    public static func isValidNonce(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= maximumNonceLength else { return false }
        return bytes.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }
}
