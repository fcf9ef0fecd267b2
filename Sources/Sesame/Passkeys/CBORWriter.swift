import Foundation

/// The few CBOR items (RFC 8949) an attestation object and a COSE key need: unsigned and
/// negative integers, byte and text strings, and maps, written in the order given (callers
/// give CTAP2's canonical order, §3.9 of RFC 8949's length-first rule). Encoding only.
struct CBORWriter {
    private(set) var output: [UInt8] = []

    /// An integer: major type 0 for `value ≥ 0`, 1 (`-1 - n`) below.
    mutating func integer(_ value: Int) {
        if value >= 0 {
            head(major: 0, UInt64(value))
        } else {
            head(major: 1, UInt64(-(value + 1)))
        }
    }

    /// A byte string (major type 2).
    mutating func byteString(_ value: some Collection<UInt8>) {
        head(major: 2, UInt64(value.count))
        output.append(contentsOf: value)
    }

    /// A text string (major type 3).
    mutating func text(_ value: String) {
        head(major: 3, UInt64(value.utf8.count))
        output.append(contentsOf: value.utf8)
    }

    /// The head of a map of `count` pairs (major type 5); the caller writes the pairs.
    mutating func mapHeader(count: Int) {
        head(major: 5, UInt64(count))
    }

    private mutating func head(major: UInt8, _ argument: UInt64) {
        let type = major << 5
        switch argument {
        case 0..<24: output.append(type | UInt8(argument))
        case 24...0xFF: output += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: output += [type | 25] + Self.bigEndian(argument, count: 2)
        case 0x1_0000...0xFFFF_FFFF: output += [type | 26] + Self.bigEndian(argument, count: 4)
        default: output += [type | 27] + Self.bigEndian(argument, count: 8)
        }
    }

    static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
