import Foundation
import HTTPTypes

/// One challenge of a `WWW-Authenticate` field (RFC 9110 §11.6.1, RFC 6750 §3): its scheme
/// and its auth-params, or its token68.
///
/// ``parse(_:)`` reads a field value by the grammar and gives up on what breaks it: a
/// challenge the value does not finish (an unterminated quoted string, a stray character)
/// is dropped with everything after it, and a challenge that repeats a parameter is dropped
/// (RFC 9110 §11.2: each parameter name occurs once per challenge; a repeated `error` would
/// be ambiguous). Bounded: a value longer than ``maximumLength`` bytes gives no challenge,
/// and at most ``maximumChallenges`` challenges of ``maximumParameters`` parameters each are
/// read. For the runtime and `SesameDPoP` only (`@_spi(Generated)`).
@_spi(Generated) public struct AuthenticationChallenge: Sendable, Hashable {
    /// The scheme, lowercased (`bearer`, `basic`, `dpop`).
    public var scheme: String
    /// The auth-params by lowercased name, their values unquoted and unescaped.
    public var parameters: [String: String] = [:]
    /// The token68 that follows the scheme instead of parameters, if any.
    public var token68: String?

    /// Field values longer than this many bytes are ignored.
    static let maximumLength = 8192
    /// Challenges read per field value.
    static let maximumChallenges = 16
    /// Parameters read per challenge; a challenge with more is dropped.
    static let maximumParameters = 32
    /// `WWW-Authenticate` fields read per response.
    static let maximumFields = 16

    /// The challenges of every `WWW-Authenticate` field of a response, in order.
    public static func challenges(in headerFields: HTTPFields) -> [AuthenticationChallenge] {
        headerFields[values: .wwwAuthenticate].prefix(maximumFields).flatMap { parse($0) }
    }

    /// The challenges of one field value, in order; see the type's documentation for what is
    /// dropped.
    static func parse(_ value: String) -> [AuthenticationChallenge] {
        let bytes = Array(value.utf8)
        guard bytes.count <= maximumLength else { return [] }
        var scanner = Scanner(bytes: bytes)
        var challenges: [AuthenticationChallenge] = []
        var current: AuthenticationChallenge?
        var valid = true
        func finish() {
            if let challenge = current, valid { challenges.append(challenge) }
            current = nil
            valid = true
        }
        while challenges.count < maximumChallenges {
            scanner.skipWhitespaceAndCommas()
            guard !scanner.isAtEnd else { break }
            // A stray character (`, "junk`) breaks the challenge it follows too.
            guard let name = scanner.token() else {
                current = nil
                break
            }
            let afterName = scanner.position
            scanner.skipWhitespace()
            if current != nil, scanner.consume(UInt8(ascii: "=")) {
                // An auth-param of the current challenge.
                scanner.skipWhitespace()
                guard let parameter = scanner.quotedString() ?? scanner.token() else {
                    current = nil
                    break
                }
                let key = name.lowercased()
                if current?.parameters[key] != nil || current?.parameters.count == maximumParameters {
                    valid = false
                } else {
                    current?.parameters[key] = parameter
                }
                guard scanner.endsElement() else {
                    current = nil
                    break
                }
                continue
            }
            // A new challenge: its scheme alone, or a space then a token68 or parameters.
            finish()
            current = AuthenticationChallenge(scheme: name.lowercased())
            if scanner.endsElement() { continue }
            guard scanner.followsWhitespace(from: afterName) else {
                current = nil
                break
            }
            if let token68 = scanner.token68() { current?.token68 = token68 }
        }
        finish()
        return Array(challenges.prefix(maximumChallenges))
    }
}

extension AuthenticationChallenge {
    /// Reads the grammar's pieces from UTF-8 bytes.
    fileprivate struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard !isAtEnd, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        mutating func skipWhitespace() {
            while !isAtEnd, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
        }

        mutating func skipWhitespaceAndCommas() {
            while !isAtEnd, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == UInt8(ascii: ",") {
                position += 1
            }
        }

        /// Whether whitespace separates `start` from the current position.
        func followsWhitespace(from start: Int) -> Bool {
            position > start && (bytes[start] == 0x20 || bytes[start] == 0x09)
        }

        /// After an element: optional whitespace, then a comma or the end (not consumed).
        mutating func endsElement() -> Bool {
            skipWhitespace()
            return isAtEnd || bytes[position] == UInt8(ascii: ",")
        }

        /// A token (RFC 9110 §5.6.2), or nil without moving when none starts here.
        mutating func token() -> String? {
            let start = position
            while !isAtEnd, Self.isTokenCharacter(bytes[position]) { position += 1 }
            guard position > start else { return nil }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// A token68 (RFC 9110 §11.2) ending the element, or nil without moving.
        mutating func token68() -> String? {
            let start = position
            while !isAtEnd, Self.isToken68Character(bytes[position]) { position += 1 }
            let end = position
            while !isAtEnd, bytes[position] == UInt8(ascii: "=") { position += 1 }
            let padded = position
            guard end > start, endsElement() else {
                position = start
                return nil
            }
            return String(decoding: bytes[start..<padded], as: UTF8.self)
        }

        /// A quoted string (RFC 9110 §5.6.4) unescaped, or nil without moving when none
        /// starts here or it is not terminated.
        mutating func quotedString() -> String? {
            let start = position
            guard consume(UInt8(ascii: "\"")) else { return nil }
            var value: [UInt8] = []
            while !isAtEnd {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: value, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text ): no other control.
                    guard !isAtEnd, bytes[position] == 0x09 || (bytes[position] >= 0x20 && bytes[position] != 0x7F) else {
                        position = start
                        return nil
                    }
                    value.append(bytes[position])
                    position += 1
                case 0x00..<0x09, 0x0A..<0x20, 0x7F:
                    position = start
                    return nil
                default:
                    value.append(byte)
                }
            }
            position = start
            return nil
        }

        static func isTokenCharacter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }

        static func isToken68Character(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "-._~+/".utf8.contains(byte)
            }
        }
    }
}
