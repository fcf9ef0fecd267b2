import Foundation

/// RFC 3339 §5.6 `date-time` and `full-date`, exactly as the grammar says: two-digit months,
/// days, hours, minutes and seconds; days that exist in their month (leap years included);
/// hours 00–23, minutes 00–59; a seconds value of 60 only for a leap second, which is 23:59:60
/// in UTC; a fraction of any number of digits; an offset `Z` or `±hh:mm`. `T` and `Z` may be
/// lower case (§5.6, note). Nothing else: no whitespace, no missing zero, no `+01`, no `Z`
/// after an offset.
///
/// Scans the UTF-8 bytes once, without allocating for a native string.
enum RFC3339 {
    /// A `full-date`.
    struct FullDate: Hashable {
        var year: Int
        var month: Int
        var day: Int
    }

    /// Parses a `date-time` into the instant it names. A leap second (23:59:60 UTC) is the
    /// first instant of the next minute, as POSIX time counts it.
    static func dateTime(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            var scanner = Scanner(bytes: bytes)
            guard let date = scanner.fullDate(), scanner.take(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }),
                let hour = scanner.number(digits: 2), hour <= 23, scanner.take(UInt8(ascii: ":")),
                let minute = scanner.number(digits: 2), minute <= 59, scanner.take(UInt8(ascii: ":")),
                let second = scanner.number(digits: 2), second <= 60
            else { return nil }
            var fraction = 0.0
            if scanner.take(UInt8(ascii: ".")) {
                guard let value = scanner.fraction() else { return nil }
                fraction = value
            }
            guard let offset = scanner.offset(), scanner.isAtEnd else { return nil }
            let dayNumber = daysSince1970(date)
            let seconds = dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offset
            if second == 60 {
                // A leap second is inserted at the end of a month in UTC (§5.7, Appendix D):
                // 23:59:60Z on a month's last day, whatever the offset it is written with.
                let utc = seconds - 60  // hh:mm:00 of the leap second's minute, in UTC
                let minuteOfDay = ((utc % 86_400) + 86_400) % 86_400 / 60
                let utcDay = civil(fromDaysSince1970: Int((Double(utc) / 86_400).rounded(.down)))
                guard minuteOfDay == 23 * 60 + 59, utcDay.day == RFC3339.days(inMonth: utcDay.month, year: utcDay.year) else { return nil }
            }
            return Date(timeIntervalSince1970: Double(seconds) + fraction)
        }
    }

    /// Parses a `full-date` (`YYYY-MM-DD`).
    static func fullDate(_ text: String) -> FullDate? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            guard let date = scanner.fullDate(), scanner.isAtEnd else { return nil }
            return date
        }
    }

    /// Days in `month` of `year` in the proleptic Gregorian calendar.
    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to `date` (negative before), by Howard Hinnant's
    /// `days_from_civil`.
    static func daysSince1970(_ date: FullDate) -> Int {
        let year = date.month <= 2 ? date.year - 1 : date.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5 + date.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01, by Howard Hinnant's `civil_from_days`.
    static func civil(fromDaysSince1970 days: Int) -> FullDate {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return FullDate(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// Reads ASCII tokens from the front of a byte buffer.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            take { $0 == byte }
        }

        mutating func take(where matches: (UInt8) -> Bool) -> Bool {
            guard index < bytes.count, matches(bytes[index]) else { return false }
            index += 1
            return true
        }

        /// Exactly `digits` ASCII digits.
        mutating func number(digits: Int) -> Int? {
            guard bytes.count - index >= digits else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }

        /// One or more digits after the point, as a fraction of a second, truncated to the
        /// microsecond: a `Date` cannot hold more today (its `Double` counts seconds since
        /// 2001, about 0.1 µs apart), and rounding `.9999999…` would make it the next second.
        /// Later digits are only checked.
        mutating func fraction() -> Double? {
            var numerator = 0.0
            var denominator = 1.0
            var count = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if count < 6 {
                    numerator = numerator * 10 + Double(bytes[index] - UInt8(ascii: "0"))
                    denominator *= 10
                }
                count += 1
                index += 1
            }
            return count == 0 ? nil : numerator / denominator
        }

        mutating func fullDate() -> FullDate? {
            guard let year = number(digits: 4), take(UInt8(ascii: "-")),
                let month = number(digits: 2), (1...12).contains(month), take(UInt8(ascii: "-")),
                let day = number(digits: 2), day >= 1, day <= RFC3339.days(inMonth: month, year: year)
            else { return nil }
            return FullDate(year: year, month: month, day: day)
        }

        /// `Z` (0) or `±hh:mm`, in seconds east of UTC.
        mutating func offset() -> Int? {
            if take(where: { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "z") }) { return 0 }
            let sign: Int
            if take(UInt8(ascii: "+")) {
                sign = 1
            } else if take(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            guard let hours = number(digits: 2), hours <= 23, take(UInt8(ascii: ":")),
                let minutes = number(digits: 2), minutes <= 59
            else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
