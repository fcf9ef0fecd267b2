import Foundation

/// JSON and date coding shared by every route: one-line, sorted, RFC 3339 UTC dates.
enum WireCoding {
    /// An encoder that writes compact JSON on one line, with sorted keys so output is stable.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Encodes `value` as one line of JSON text.
    static func jsonString(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }

    /// Formats a date as RFC 3339 in UTC, e.g. `2025-01-31T12:00:00Z`.
    static func dateTime(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    /// Formats a date as an RFC 3339 `full-date` in UTC, e.g. `2025-01-31`.
    static func fullDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day())
    }
}
