/// Parsing of `application/x-www-form-urlencoded` text (the WHATWG URL standard's
/// algorithm, which RFC 6749 Appendix B refers to).
enum FormURLEncoding {
    /// A form that names the same parameter more than once (RFC 6749 §3.2 forbids it).
    struct DuplicateParameter: Error {
        let name: String
    }

    /// Parses `text` into its parameters. Parameters with an empty value count as omitted
    /// (RFC 6749 §3.2). Throws `DuplicateParameter` when a name repeats.
    static func parse(_ text: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in pairs(text) {
            if result[name] != nil { throw DuplicateParameter(name: name) }
            if !value.isEmpty { result[name] = value }
        }
        return result
    }

    /// The names of the parameters of `text` that have a value, repeated or not: what a
    /// form carries even when ``parse(_:)`` rejects it.
    static func names(_ text: String) -> Set<String> {
        Set(pairs(text).filter { !$0.value.isEmpty }.map(\.name))
    }

    /// The decoded name-value pairs of `text` in order, without those with an empty name.
    private static func pairs(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            guard !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// Decodes one form component: `+` is a space, `%XX` a byte; the bytes are UTF-8.
    /// Malformed escapes are kept as written, as the WHATWG algorithm does.
    static func decode(_ component: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.utf8.count)
        var iterator = Array(component.utf8)[...]
        while let byte = iterator.popFirst() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                if iterator.count >= 2,
                    let high = hexValue(iterator[iterator.startIndex]),
                    let low = hexValue(iterator[iterator.startIndex + 1])
                {
                    bytes.append(high << 4 | low)
                    iterator.removeFirst(2)
                } else {
                    bytes.append(byte)
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Encodes one form component: unreserved characters as they are, a space as `+`,
    /// everything else as `%XX` of its UTF-8 bytes.
    static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                encoded += "+"
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
