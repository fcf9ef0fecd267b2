import Foundation

/// A CBOR data item (RFC 8949), as far as WebAuthn's attestation objects and COSE keys
/// need: integers, byte and text strings, arrays, maps and the simple values.
enum CBORValue: Sendable, Equatable {
    case unsigned(UInt64)
    /// `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Pairs in the order they came.
    case map([CBORPair])
    case bool(Bool)
    case null

    /// The value as an `Int`, when it is an integer that fits.
    var int: Int? {
        switch self {
        case .unsigned(let n): return Int(exactly: n)
        case .negative(let n): return Int(exactly: n).map { -1 - $0 }
        default: return nil
        }
    }

    /// The value of `key` in a map; nil for another item or a missing key.
    subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }
}

/// One key–value pair of a CBOR map.
struct CBORPair: Sendable, Equatable {
    var key: CBORValue
    var value: CBORValue
}

/// Why bytes are not a CBOR item the server reads: malformed or beyond a limit. Its
/// description names the problem, never the bytes.
struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    var description: String
}

/// A bounded CBOR decoder: it stops at the first of its limits, before it allocates for
/// what the input only claims (a length or a count is checked against the bytes that are
/// left). Nesting is at most ``Limits/depth`` deep, so its recursion is bounded by the limit
/// and not by the input. Indefinite lengths, tags and floats are refused: CTAP2's canonical
/// CBOR, which authenticators write, has none. Duplicate map keys are refused.
struct CBORReader {
    /// The limits of one read.
    struct Limits: Sendable {
        /// The largest input, in bytes.
        var totalSize = 16_384
        /// The deepest nesting: an item inside `depth` arrays or maps at most.
        var depth = 8
        /// The most items in one input, all levels together (a map pair counts two).
        var items = 1_024
        /// The longest byte or text string, in bytes.
        var stringLength = 8_192
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var offset = 0
    private var itemCount = 0

    /// Reads the one item that fills `bytes`.
    /// - Throws: ``CBORError`` when the bytes are malformed, exceed a limit, or hold more than the item.
    static func read(_ bytes: [UInt8], limits: Limits = Limits()) throws -> CBORValue {
        let (value, consumed) = try readPrefix(bytes, limits: limits)
        guard consumed == bytes.count else { throw CBORError(description: "bytes follow the CBOR item") }
        return value
    }

    /// Reads the item at the start of `bytes` and returns it with the number of bytes it took.
    /// - Throws: ``CBORError`` when the item is malformed or exceeds a limit.
    static func readPrefix(_ bytes: [UInt8], limits: Limits = Limits()) throws -> (CBORValue, Int) {
        guard bytes.count <= limits.totalSize else { throw CBORError(description: "the CBOR input is too large") }
        var reader = CBORReader(bytes: bytes, limits: limits)
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    private var remaining: Int { bytes.count - offset }

    private mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw CBORError(description: "the CBOR input ends inside an item") }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= remaining else { throw CBORError(description: "a CBOR length goes beyond the data") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// The argument of a head whose additional information is `info` (RFC 8949 §3).
    private mutating func argument(_ info: UInt8) throws -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24, 25, 26, 27:
            let width = 1 << Int(info - 24)
            var value: UInt64 = 0
            for byte in try take(width) { value = value << 8 | UInt64(byte) }
            return value
        case 31: throw CBORError(description: "indefinite-length CBOR items are not accepted")
        default: throw CBORError(description: "a CBOR head is malformed")
        }
    }

    /// A length or count that the remaining bytes could hold (every item takes at least one byte).
    private func bounded(_ argument: UInt64, limit: Int, what: String) throws -> Int {
        guard let count = Int(exactly: argument), count <= remaining else {
            throw CBORError(description: "a CBOR \(what) goes beyond the data")
        }
        guard count <= limit else { throw CBORError(description: "a CBOR \(what) exceeds the limit") }
        return count
    }

    private mutating func countItem() throws {
        itemCount += 1
        guard itemCount <= limits.items else { throw CBORError(description: "the CBOR input has too many items") }
    }

    private mutating func item(depth: Int) throws -> CBORValue {
        try countItem()
        let head = try byte()
        let major = head >> 5
        let info = head & 0x1F
        switch major {
        case 0: return .unsigned(try argument(info))
        case 1: return .negative(try argument(info))
        case 2:
            return .bytes(try take(try bounded(try argument(info), limit: limits.stringLength, what: "byte string length")))
        case 3:
            let text = try take(try bounded(try argument(info), limit: limits.stringLength, what: "text string length"))
            guard let string = String(bytes: text, encoding: .utf8) else {
                throw CBORError(description: "a CBOR text string is not UTF-8")
            }
            return .text(string)
        case 4, 5:
            guard depth < limits.depth else { throw CBORError(description: "the CBOR input is nested too deeply") }
            let count = try bounded(try argument(info), limit: limits.items, what: major == 4 ? "array count" : "map count")
            if major == 4 {
                var elements: [CBORValue] = []
                for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
                return .array(elements)
            }
            var pairs: [CBORPair] = []
            for _ in 0..<count {
                let key = try item(depth: depth + 1)
                guard !pairs.contains(where: { $0.key == key }) else { throw CBORError(description: "a CBOR map repeats a key") }
                pairs.append(CBORPair(key: key, value: try item(depth: depth + 1)))
            }
            return .map(pairs)
        case 6: throw CBORError(description: "CBOR tags are not accepted")
        default:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22, 23: return .null
            default: throw CBORError(description: "CBOR floats and other simple values are not accepted")
            }
        }
    }
}
