/// RFC 3986 URIs and URI references, checked against the grammar of its appendix A: only
/// ASCII; reserved and unreserved characters where each part allows them; `%` followed by
/// two hex digits; a host that is a bracketed IPv6 address (or `IPvFuture`), or a
/// registered name; a port of digits. Spaces, `"`, `<>`, `{}`, `^`, `` ` ``, `|`,
/// backslashes, bad percent-encodings, non-ASCII and brackets outside a host are refused.
enum RFC3986 {
    /// An absolute `URI`: a scheme, then the hierarchical part.
    static func isURI(_ text: String) -> Bool {
        check(Array(text.utf8), allowRelative: false)
    }

    /// A `URI-reference`: a URI, or a relative reference.
    static func isURIReference(_ text: String) -> Bool {
        check(Array(text.utf8), allowRelative: true)
    }

    private static func check(_ bytes: [UInt8], allowRelative: Bool) -> Bool {
        var rest = bytes[...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            guard isEncoded(rest[(hash + 1)...], isQueryOrFragment) else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            guard isEncoded(rest[(question + 1)...], isQueryOrFragment) else { return false }
            rest = rest[..<question]
        }
        // A scheme is what comes before the first ":" when no "/" comes earlier.
        let colon = rest.firstIndex(of: UInt8(ascii: ":"))
        let slash = rest.firstIndex(of: UInt8(ascii: "/"))
        if let colon, slash.map({ colon < $0 }) ?? true {
            guard isScheme(rest[..<colon]) else { return false }
            return isHierarchicalPart(rest[(colon + 1)...], relative: false)
        }
        return allowRelative && isHierarchicalPart(rest, relative: true)
    }

    /// `hier-part` (or `relative-part`): `//authority path-abempty`, or a path.
    private static func isHierarchicalPart(_ part: ArraySlice<UInt8>, relative: Bool) -> Bool {
        if part.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let afterSlashes = part.dropFirst(2)
            let end = afterSlashes.firstIndex(of: UInt8(ascii: "/")) ?? afterSlashes.endIndex
            return isAuthority(afterSlashes[..<end]) && isPath(afterSlashes[end...])
        }
        // path-noscheme: in a relative reference, the first segment has no ":" (it would read
        // as a scheme); the split above already sent any such ":" to the scheme branch.
        return isPath(part)
    }

    /// Segments of `pchar` separated by "/".
    private static func isPath(_ path: ArraySlice<UInt8>) -> Bool {
        isEncoded(path) { isPathCharacter($0) || $0 == UInt8(ascii: "/") }
    }

    /// `[ userinfo "@" ] host [ ":" port ]`.
    private static func isAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var hostAndPort = authority
        if let at = authority.firstIndex(of: UInt8(ascii: "@")) {
            let userinfo = authority[..<at]
            guard isEncoded(userinfo, { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }) else {
                return false
            }
            hostAndPort = authority[(at + 1)...]
        }
        var port: ArraySlice<UInt8> = []
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = hostAndPort[(hostAndPort.startIndex + 1)..<close]
            guard isIPv6(literal) || isIPvFuture(literal) else { return false }
            let after = hostAndPort[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return false }
                port = after.dropFirst()
            }
        } else {
            let colon = hostAndPort.firstIndex(of: UInt8(ascii: ":")) ?? hostAndPort.endIndex
            let host = hostAndPort[..<colon]
            guard isEncoded(host, { isUnreserved($0) || isSubDelimiter($0) }) else { return false }
            if colon < hostAndPort.endIndex { port = hostAndPort[(colon + 1)...] }
        }
        return port.allSatisfy(isDigit)
    }

    private static func isIPv6(_ literal: ArraySlice<UInt8>) -> Bool {
        IPAddress.isIPv6(String(decoding: literal, as: UTF8.self))
    }

    /// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
    private static func isIPvFuture(_ literal: ArraySlice<UInt8>) -> Bool {
        guard literal.first == UInt8(ascii: "v") || literal.first == UInt8(ascii: "V"),
            let dot = literal.firstIndex(of: UInt8(ascii: "."))
        else { return false }
        let version = literal[(literal.startIndex + 1)..<dot]
        let rest = literal[(dot + 1)...]
        return !version.isEmpty && version.allSatisfy(isHexDigit) && !rest.isEmpty
            && rest.allSatisfy { isUnreserved($0) || isSubDelimiter($0) || $0 == UInt8(ascii: ":") }
    }

    private static func isScheme(_ scheme: ArraySlice<UInt8>) -> Bool {
        guard let first = scheme.first, isAlpha(first) else { return false }
        return scheme.allSatisfy {
            isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    /// Every byte is allowed by `allowed`, or starts a `%` with two hex digits.
    private static func isEncoded(_ bytes: ArraySlice<UInt8>, _ allowed: (UInt8) -> Bool) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard bytes.endIndex - index >= 3, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
            } else {
                guard allowed(byte) else { return false }
                index += 1
            }
        }
        return true
    }

    // MARK: Character classes

    /// A character of a query or a fragment: `pchar / "/" / "?"`, less the percent-encoding.
    private static func isQueryOrFragment(_ byte: UInt8) -> Bool {
        isPathCharacter(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
    }

    /// `pchar` without the percent-encoding (checked by ``isEncoded(_:_:)``).
    static func isPathCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    static func isAlpha(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
