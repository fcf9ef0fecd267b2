import HTTPTypes

/// One challenge of a `WWW-Authenticate` field value (RFC 9110 §11.6.1): its scheme, and its
/// auth-params or its token68. Internal: ``DPoPNonces/asksForNonce(_:body:)`` reads it.
///
/// ``parse(_:)`` follows the grammar
///
///     challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
///     auth-param = token BWS "=" BWS ( token / quoted-string )
///
/// and stops where a value breaks it: the challenge being read (an unterminated quoted
/// string, a stray character) is dropped with everything after it. A challenge that names
/// a parameter twice is dropped (RFC 9110 §11.2: its meaning would be ambiguous). Bounded:
/// a value longer than ``maximumLength`` bytes gives nothing, at most ``maximumChallenges``
/// challenges are read, and a challenge with more than ``maximumParameters`` parameters is
/// dropped.
struct DPoPChallenge: Sendable, Hashable {
    /// The scheme, lowercased (`dpop`, `bearer`).
    var scheme: String
    /// The auth-params by lowercased name, quoted values unquoted and unescaped.
    var parameters: [String: String] = [:]
    /// The token68 in place of parameters, if any.
    var token68: String?

    static let maximumLength = 8192
    static let maximumChallenges = 16
    static let maximumParameters = 32
    /// `WWW-Authenticate` fields read per response.
    static let maximumFields = 16

    /// The challenges of every `WWW-Authenticate` field, in order.
    static func challenges(in headerFields: HTTPFields) -> [DPoPChallenge] {
        headerFields[values: .wwwAuthenticate].prefix(maximumFields).flatMap { parse($0) }
    }

    /// The challenges of one field value, in order (see the type's documentation).
    static func parse(_ value: String) -> [DPoPChallenge] {
        let bytes = Array(value.utf8)
        guard bytes.count <= maximumLength else { return [] }
        var reader = Reader(bytes: bytes)
        var challenges: [DPoPChallenge] = []
        var current: DPoPChallenge?
        var repeated = false
        func finish() {
            if let current, !repeated, challenges.count < maximumChallenges { challenges.append(current) }
            current = nil
            repeated = false
        }
        while challenges.count < maximumChallenges {
            reader.skip(commas: true)
            if reader.isAtEnd { break }
            guard let name = reader.token() else {
                current = nil
                break
            }
            let afterName = reader.position
            reader.skip(commas: false)
            if current != nil, reader.take(UInt8(ascii: "=")) {
                // A parameter of the challenge being read.
                reader.skip(commas: false)
                guard let parameter = reader.quotedString() ?? reader.token(), reader.endsElement() else {
                    current = nil
                    break
                }
                let key = name.lowercased()
                if current?.parameters[key] != nil || current?.parameters.count == maximumParameters {
                    repeated = true
                } else {
                    current?.parameters[key] = parameter
                }
                continue
            }
            // A new challenge: the scheme alone, or a space and then a token68 or parameters.
            finish()
            current = DPoPChallenge(scheme: name.lowercased())
            if reader.endsElement() { continue }
            guard reader.position > afterName else {
                current = nil
                break
            }
            if let token68 = reader.token68() { current?.token68 = token68 }
        }
        finish()
        return challenges
    }
}

extension DPoPChallenge {
    /// Reads the grammar's pieces from a field value's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }

        /// Consumes `byte` when it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard !isAtEnd, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// Skips spaces and tabs, and commas too when `commas`.
        mutating func skip(commas: Bool) {
            while !isAtEnd, bytes[position] == 0x20 || bytes[position] == 0x09 || (commas && bytes[position] == UInt8(ascii: ",")) {
                position += 1
            }
        }

        /// Whether an element ends here: optional whitespace, then a comma (not consumed) or
        /// the end.
        mutating func endsElement() -> Bool {
            skip(commas: false)
            return isAtEnd || bytes[position] == UInt8(ascii: ",")
        }

        /// A token (RFC 9110 §5.6.2), or nil without moving.
        mutating func token() -> String? {
            let start = position
            while !isAtEnd, Self.isTokenByte(bytes[position]) { position += 1 }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// A token68 (RFC 9110 §11.2) that ends the element, or nil without moving.
        mutating func token68() -> String? {
            let start = position
            while !isAtEnd, Self.isToken68Byte(bytes[position]) { position += 1 }
            let end = position
            while !isAtEnd, bytes[position] == UInt8(ascii: "=") { position += 1 }
            let padded = position
            guard end > start, endsElement() else {
                position = start
                return nil
            }
            return String(decoding: bytes[start..<padded], as: UTF8.self)
        }

        /// A quoted string (RFC 9110 §5.6.4), unescaped; nil without moving when none starts
        /// here or it is not terminated or holds a control character.
        mutating func quotedString() -> String? {
            let start = position
            guard take(UInt8(ascii: "\"")) else { return nil }
            var value: [UInt8] = []
            while !isAtEnd {
                var byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: value, as: UTF8.self) }
                if byte == UInt8(ascii: "\\") {
                    guard !isAtEnd else { break }
                    byte = bytes[position]
                    position += 1
                }
                // qdtext and quoted-pair: HTAB, SP, VCHAR and obs-text, no other control.
                guard byte == 0x09 || (byte >= 0x20 && byte != 0x7F) else { break }
                value.append(byte)
            }
            position = start
            return nil
        }

        static func isTokenByte(_ byte: UInt8) -> Bool {
            isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }

        static func isToken68Byte(_ byte: UInt8) -> Bool {
            isAlphanumeric(byte) || "-._~+/".utf8.contains(byte)
        }

        static func isAlphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
    }
}
