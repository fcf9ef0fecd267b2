import Foundation

/// A day in the calendar, with no time and no time zone: JSON Schema's `format: date`
/// (RFC 3339 `full-date`, `YYYY-MM-DD`).
public struct CalendarDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a date; returns nil when the month or the day does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CalendarDate.days(inMonth: month, year: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (RFC 3339 `full-date`); returns nil for anything else.
    public init?(_ text: String) {
        guard let date = RFC3339.fullDate(text) else { return nil }
        self.init(year: date.year, month: date.month, day: date.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(text) else {
            throw SchemaViolation(
                codingPath: decoder.codingPath, keyword: "format",
                message: "expected a date (YYYY-MM-DD), found \"\(SchemaViolation.excerpt(text))\"")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        RFC3339.days(inMonth: month, year: year)
    }
}
