/// IP addresses (RFC 2673 §3.2 dotted quads, RFC 4291 §2.2 IPv6 text) and host names
/// (RFC 1123 §2.1), ASCII only.
enum IPAddress {
    /// Four decimal octets 0–255 separated by dots, without leading zeros (`087` could be
    /// read as octal), signs or spaces.
    static func isIPv4(_ text: String) -> Bool {
        text.utf8.count <= 15 && isIPv4(Array(text.utf8)[...])
    }

    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy(RFC3986.isDigit) else { return false }
            if part.count > 1, part.first == UInt8(ascii: "0") { return false }
            return part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
        }
    }

    /// Eight groups of one to four hex digits separated by colons; `::` once for one or more
    /// groups of zeros; the last two groups may be a dotted quad. No zone (`%eth0`), no
    /// brackets, no spaces.
    static func isIPv6(_ text: String) -> Bool {
        guard text.utf8.count <= 45 else { return false }
        let bytes = Array(text.utf8)[...]
        let colon = UInt8(ascii: ":")
        var head = bytes
        var tail: ArraySlice<UInt8> = []
        var compressed = false
        if let range = firstDoubleColon(in: bytes) {
            compressed = true
            head = bytes[..<range.lowerBound]
            tail = bytes[range.upperBound...]
            if firstDoubleColon(in: tail) != nil { return false }
        }
        func groups(_ part: ArraySlice<UInt8>, allowsIPv4: Bool) -> Int? {
            if part.isEmpty { return 0 }
            let pieces = part.split(separator: colon, omittingEmptySubsequences: false)
            var count = 0
            for (index, piece) in pieces.enumerated() {
                if allowsIPv4, index == pieces.count - 1, piece.contains(UInt8(ascii: ".")) {
                    guard isIPv4(piece) else { return nil }
                    count += 2
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy(RFC3986.isHexDigit) else { return nil }
                    count += 1
                }
            }
            return count
        }
        guard let before = groups(head, allowsIPv4: !compressed),
            let after = groups(tail, allowsIPv4: compressed)
        else { return false }
        return compressed ? before + after <= 7 : before == 8
    }

    private static func firstDoubleColon(in bytes: ArraySlice<UInt8>) -> Range<Int>? {
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: ":") { return index..<(index + 2) }
            index += 1
        }
        return nil
    }
}

/// RFC 1123 §2.1 host names: dot-separated labels of letters, digits and hyphens, each 1–63
/// characters, not starting or ending with a hyphen; 253 characters at most. A final dot
/// (the DNS root) is refused, as are underscores and anything not ASCII (write an
/// internationalized name in its `xn--` form).
enum Hostname {
    static func isHostname(_ text: String) -> Bool {
        guard text.utf8.count <= 253 else { return false }
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        return bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy(isLabel)
    }

    /// A label: 1–63 letters, digits and hyphens, with a letter or digit at each end.
    static func isLabel(_ label: ArraySlice<UInt8>) -> Bool {
        guard (1...63).contains(label.count), let first = label.first, let last = label.last,
            isLetterOrDigit(first), isLetterOrDigit(last)
        else { return false }
        return label.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        RFC3986.isAlpha(byte) || RFC3986.isDigit(byte)
    }
}

/// RFC 5321 §4.1.2 `Mailbox`: a dot-string or a quoted string, `@`, then a domain or an
/// address literal (`[127.0.0.1]`, `[IPv6:::1]`); the local part at most 64 octets, the
/// domain at most 255.
enum Mailbox {
    static func isMailbox(_ text: String) -> Bool {
        let bytes = Array(text.utf8)[...]
        guard let at = localPartEnd(bytes) else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard local.count <= 64, !domain.isEmpty, domain.count <= 255 else { return false }
        return isDomain(domain) || isAddressLiteral(domain)
    }

    /// Where the `@` after a valid local part is.
    private static func localPartEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        if bytes.first == UInt8(ascii: "\"") {
            // Quoted-string: qtextSMTP (ASCII 32–126 but `"` and `\`) or `\` and one of 32–126.
            var index = bytes.startIndex + 1
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let at = index + 1
                    return at < bytes.endIndex && bytes[at] == UInt8(ascii: "@") ? at : nil
                }
                if byte == UInt8(ascii: "\\") {
                    guard index + 1 < bytes.endIndex, (32...126).contains(bytes[index + 1]) else { return nil }
                    index += 2
                } else {
                    guard (32...126).contains(byte) else { return nil }
                    index += 1
                }
            }
            return nil
        }
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        let atoms = bytes[..<at].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return atoms.allSatisfy { !$0.isEmpty && $0.allSatisfy(isAtomText) } ? at : nil
    }

    /// `sub-domain *("." sub-domain)`, each a letter-digit-hyphen label.
    private static func isDomain(_ domain: ArraySlice<UInt8>) -> Bool {
        domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy(Hostname.isLabel)
    }

    /// `"[" (IPv4 / "IPv6:" IPv6) "]"`; general address literals (`tag:content`) are refused.
    private static func isAddressLiteral(_ domain: ArraySlice<UInt8>) -> Bool {
        guard domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]"), domain.count > 2 else { return false }
        let inside = domain.dropFirst().dropLast()
        // ABNF strings are case-insensitive: "IPv6:", "ipv6:", …
        if inside.count > 5, String(decoding: inside.prefix(5), as: UTF8.self).lowercased() == "ipv6:" {
            return isIPv6AddressLiteral(String(decoding: inside.dropFirst(5), as: UTF8.self))
        }
        // Snum = 1*3DIGIT, 0–255: RFC 5321 allows leading zeros here.
        let parts = inside.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy(RFC3986.isDigit)
                    && part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
            }
    }

    /// RFC 5321's `IPv6-addr`: an RFC 4291 address whose `::` (IPv6-comp) leaves at most 6
    /// groups written (4 before a dotted quad), so that it stands for at least two.
    private static func isIPv6AddressLiteral(_ text: String) -> Bool {
        guard IPAddress.isIPv6(text) else { return false }
        guard text.contains("::") else { return true }
        let written = text.split(separator: ":").reduce(0) { $0 + ($1.contains(".") ? 2 : 1) }
        return written <= 6
    }

    private static let atomSymbols = Set("!#$%&'*+-/=?^_`{|}~".utf8)

    /// `atext` of RFC 5322: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    private static func isAtomText(_ byte: UInt8) -> Bool {
        RFC3986.isAlpha(byte) || RFC3986.isDigit(byte) || atomSymbols.contains(byte)
    }
}
