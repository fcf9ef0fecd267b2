import Foundation

/// Helpers that generated models call from `init(from:)` and `encode(to:)`: date formats
/// that do not depend on the decoder's strategy, and the constraint checks of JSON Schema.
///
/// Every check throws ``SchemaViolation`` naming the JSON path of the value.
@_spi(Generated) public enum ModelCoding {
    // MARK: Dates

    /// Parses an RFC 3339 `date-time`, with or without fractional seconds.
    /// - Throws: ``SchemaViolation`` (`format`) when the text is not a date-time.
    public static func dateTime(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws -> Date {
        if let date = parseDateTime(text) { return date }
        throw SchemaViolation(
            codingPath: codingPath(), keyword: "format",
            message: "expected a date-time (RFC 3339), found \"\(SchemaViolation.excerpt(text))\"")
    }

    /// Parses an RFC 3339 `date-time` strictly (see docs/format.md, "Formats"); nil when the
    /// text is not one.
    public static func parseDateTime(_ text: String) -> Date? {
        RFC3339.dateTime(text)
    }

    /// Formats a `Date` as an RFC 3339 `date-time` in UTC: no fraction for a whole second,
    /// milliseconds when the date has no finer part (`.250`), else microseconds (`.540523`),
    /// what a `Date` decoded from a `date-time` keeps.
    public static func dateTimeString(_ date: Date) -> String {
        // Round to the microsecond first: `.002` must not come back as `.001`.
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let seconds = (microseconds / 1_000_000).rounded(.down)
        let fraction = Int(microseconds - seconds * 1_000_000)
        let whole = Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle())
        guard fraction != 0 else { return whole }
        let (value, width) = fraction % 1000 == 0 ? (fraction / 1000, 3) : (fraction, 6)
        let digits = String(value)
        return whole.dropLast() + "." + String(repeating: "0", count: width - digits.count) + digits + "Z"
    }

    // MARK: Formats

    /// Parses a `uuid`.
    public static func uuid(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws -> UUID {
        if let value = UUID(uuidString: text) { return value }
        throw SchemaViolation(
            codingPath: codingPath(), keyword: "format",
            message: "expected a UUID, found \"\(SchemaViolation.excerpt(text))\"")
    }

    /// Parses a `byte` string: base64 (RFC 4648 §4), its `=` padding optional.
    /// - Throws: ``SchemaViolation`` (`format`) for any other character (whitespace, the
    ///   URL-safe `-` and `_`), padding in the wrong place, or a length no encoding has.
    public static func base64(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws -> Data {
        let unpadded = text.utf8.count % 4 == 0 ? text : text + String(repeating: "=", count: 4 - text.utf8.count % 4)
        if text.utf8.count % 4 != 1, let data = Data(base64Encoded: unpadded) { return data }
        throw SchemaViolation(codingPath: codingPath(), keyword: "format", message: "expected base64 text (RFC 4648 §4)")
    }

    /// Parses a `uri`: an absolute URI (RFC 3986), with a scheme.
    /// - Throws: ``SchemaViolation`` (`format`) when the text breaks RFC 3986's grammar, or
    ///   when Foundation cannot represent a valid URI as a `URL`.
    public static func uri(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws -> URL {
        if RFC3986.isURI(text), let url = URL(string: text) { return url }
        throw SchemaViolation(
            codingPath: codingPath(), keyword: "format",
            message: "expected an absolute URI (RFC 3986), found \"\(SchemaViolation.excerpt(text))\"")
    }

    /// Checks a `uri-reference`: a URI, or a relative reference (RFC 3986 §4.1).
    public static func uriReference(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws {
        try check(RFC3986.isURIReference(text), text, "a URI reference (RFC 3986)", codingPath())
    }

    /// Checks an `email`: an RFC 5321 mailbox (`"joe bloggs"@example.com` and
    /// `joe@[127.0.0.1]` included; no leading, trailing or doubled dots outside quotes).
    /// The message does not quote the value: an address is personal data.
    public static func email(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws {
        if !Mailbox.isMailbox(text) {
            throw SchemaViolation(codingPath: codingPath(), keyword: "format", message: "expected an e-mail address (RFC 5321)")
        }
    }

    /// Checks a `hostname` (RFC 1123).
    public static func hostname(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws {
        try check(Hostname.isHostname(text), text, "a host name (RFC 1123)", codingPath())
    }

    /// Checks an `ipv4` address (dotted quad, no leading zeros).
    public static func ipv4(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws {
        try check(IPAddress.isIPv4(text), text, "an IPv4 address", codingPath())
    }

    /// Checks an `ipv6` address (RFC 4291 §2.2, no zone).
    public static func ipv6(_ text: String, codingPath: @autoclosure () -> [any CodingKey]) throws {
        try check(IPAddress.isIPv6(text), text, "an IPv6 address (RFC 4291)", codingPath())
    }

    private static func check(_ valid: Bool, _ text: String, _ expected: String, _ codingPath: @autoclosure () -> [any CodingKey]) throws {
        if !valid {
            throw SchemaViolation(
                codingPath: codingPath(), keyword: "format",
                message: "expected \(expected), found \"\(SchemaViolation.excerpt(text))\"")
        }
    }

    // MARK: Constraints

    /// Checks `minLength` and `maxLength`, counted in code points (Unicode scalars) as JSON
    /// Schema counts characters: `e` followed by a combining accent is 2, a flag emoji
    /// (two regional indicators) is 2, though each shows as one character.
    public static func length(_ text: String, min: Int?, max: Int?, codingPath: @autoclosure () -> [any CodingKey]) throws {
        let count = text.unicodeScalars.count
        if let min, count < min {
            throw SchemaViolation(
                codingPath: codingPath(), keyword: "minLength", message: "expected at least \(min) characters, found \(count)")
        }
        if let max, count > max {
            throw SchemaViolation(
                codingPath: codingPath(), keyword: "maxLength", message: "expected at most \(max) characters, found \(count)")
        }
    }

    /// Checks `pattern` (an ECMA-262 regular expression, not anchored), read as ECMA-262
    /// reads it: ASCII-only `\d`, `\w` and `\b`, matched by code points (docs/format.md).
    /// Each pattern is compiled once, the first time it is checked.
    public static func pattern(_ text: String, _ pattern: String, codingPath: @autoclosure () -> [any CodingKey]) throws {
        try self.pattern(text, pattern, regex(pattern), codingPath: codingPath())
    }

    static func pattern(_ text: String, _ pattern: String, _ regex: ECMARegex?, codingPath: @autoclosure () -> [any CodingKey]) throws {
        if !(regex?.matches(text) ?? false) {
            throw SchemaViolation(codingPath: codingPath(), keyword: "pattern", message: "expected a match of /\(pattern)/")
        }
    }

    private static let regexes = RegexCache()

    /// `pattern` compiled as JSON Schema reads it (ECMA-262), once: later calls with the
    /// same pattern return the same compiled regex. Nil when the pattern does not compile
    /// (then nothing matches it; the generator refuses such patterns).
    static func regex(_ pattern: String) -> ECMARegex? {
        regexes.regex(pattern)
    }

    /// Checks `minimum`, `maximum`, `exclusiveMinimum` and `exclusiveMaximum`.
    public static func range<Number: BinaryInteger>(
        _ value: Number, minimum: Double? = nil, maximum: Double? = nil,
        exclusiveMinimum: Double? = nil, exclusiveMaximum: Double? = nil,
        codingPath: @autoclosure () -> [any CodingKey]
    ) throws {
        try range(
            Double(value), minimum: minimum, maximum: maximum, exclusiveMinimum: exclusiveMinimum,
            exclusiveMaximum: exclusiveMaximum, codingPath: codingPath())
    }

    /// Checks `minimum`, `maximum`, `exclusiveMinimum` and `exclusiveMaximum` of a `Float`.
    public static func range(
        _ value: Float, minimum: Double? = nil, maximum: Double? = nil,
        exclusiveMinimum: Double? = nil, exclusiveMaximum: Double? = nil,
        codingPath: @autoclosure () -> [any CodingKey]
    ) throws {
        try range(
            Double(value), minimum: minimum, maximum: maximum, exclusiveMinimum: exclusiveMinimum,
            exclusiveMaximum: exclusiveMaximum, codingPath: codingPath())
    }

    /// Checks `minimum`, `maximum`, `exclusiveMinimum` and `exclusiveMaximum`.
    public static func range(
        _ value: Double, minimum: Double? = nil, maximum: Double? = nil,
        exclusiveMinimum: Double? = nil, exclusiveMaximum: Double? = nil,
        codingPath: @autoclosure () -> [any CodingKey]
    ) throws {
        func fail(_ keyword: String, _ expectation: String) -> SchemaViolation {
            SchemaViolation(codingPath: codingPath(), keyword: keyword, message: "expected a value \(expectation), found \(format(value))")
        }
        if let minimum, value < minimum { throw fail("minimum", ">= \(format(minimum))") }
        if let maximum, value > maximum { throw fail("maximum", "<= \(format(maximum))") }
        if let exclusiveMinimum, value <= exclusiveMinimum { throw fail("exclusiveMinimum", "> \(format(exclusiveMinimum))") }
        if let exclusiveMaximum, value >= exclusiveMaximum { throw fail("exclusiveMaximum", "< \(format(exclusiveMaximum))") }
    }

    /// Checks `minItems` and `maxItems`.
    public static func items(count: Int, min: Int?, max: Int?, codingPath: @autoclosure () -> [any CodingKey]) throws {
        if let min, count < min {
            throw SchemaViolation(codingPath: codingPath(), keyword: "minItems", message: "expected at least \(min) items, found \(count)")
        }
        if let max, count > max {
            throw SchemaViolation(codingPath: codingPath(), keyword: "maxItems", message: "expected at most \(max) items, found \(count)")
        }
    }

    /// Checks `const`.
    public static func constant<Value: Equatable>(_ value: Value, _ expected: Value, codingPath: @autoclosure () -> [any CodingKey]) throws
    {
        if value != expected {
            throw SchemaViolation(codingPath: codingPath(), keyword: "const", message: "expected \(expected)")
        }
    }

    /// Checks `const` for a string: code point by code point, as JSON Schema compares
    /// strings (`é` and `e` followed by U+0301 differ, though Swift's `==` equates them).
    public static func constant(_ value: String, _ expected: String, codingPath: @autoclosure () -> [any CodingKey]) throws {
        if !value.unicodeScalars.elementsEqual(expected.unicodeScalars) {
            throw SchemaViolation(codingPath: codingPath(), keyword: "const", message: "expected \(expected)")
        }
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// The coding key of a generated model's properties, written as a string literal:
/// `container.decode(String.self, forKey: "id")`. One type shared by every model instead
/// of a `CodingKeys` enum in each: an enum's conformances (`CodingKey`, `RawRepresentable`,
/// `Hashable`, `CaseIterable`) are about 36 functions per model, which every clean build of
/// an app compiles (docs/performance.md, "What keeps the generated code cheap to compile").
@_spi(Generated) public struct PropertyKey: CodingKey, ExpressibleByStringLiteral, Hashable, Sendable {
    public let stringValue: String

    public init(_ stringValue: String) { self.stringValue = stringValue }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init(stringLiteral value: String) { self.stringValue = value }

    /// Always nil: a model's properties are named, never indexed.
    public var intValue: Int? { nil }
    /// Always nil: a model's properties are named, never indexed.
    public init?(intValue: Int) { nil }
}

/// A coding key made of any string or index, for the keys a generated model does not
/// declare (`additionalProperties`) and for paths in errors.
@_spi(Generated) public struct AnyCodingKey: CodingKey, Hashable, Sendable {
    public var stringValue: String
    public var intValue: Int?

    public init(_ string: String) { self.stringValue = string }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// A regular expression with ECMA-262's semantics where Swift's `Regex` defaults differ:
/// `\d`, `\w` and `\b` are ASCII-only (Arabic-Indic `٣` is no `\d`, `é` is no `\w`), and
/// the text is matched by Unicode scalars, not grapheme clusters (`.` is one code point, so
/// `e` followed by a combining accent is two).
struct ECMARegex: @unchecked Sendable {
    // `Regex` is not `Sendable`; this one is never mutated after it is built.
    private let regex: Regex<AnyRegexOutput>

    init?(_ pattern: String) {
        guard let regex = try? Regex(pattern) else { return nil }
        self.regex = regex.asciiOnlyDigits().asciiOnlyWordCharacters().wordBoundaryKind(.simple).matchingSemantics(.unicodeScalar)
    }

    /// Whether the regex matches anywhere in `text` (JSON Schema's patterns are not anchored).
    func matches(_ text: String) -> Bool {
        text.contains(regex)
    }
}

/// The compiled regexes of the patterns checked so far, by pattern.
private final class RegexCache: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`; a pattern that does not compile is kept as nil.
    private var compiled: [String: ECMARegex?] = [:]

    func regex(_ pattern: String) -> ECMARegex? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        let regex = ECMARegex(pattern)
        compiled[pattern] = .some(regex)
        return regex
    }
}
