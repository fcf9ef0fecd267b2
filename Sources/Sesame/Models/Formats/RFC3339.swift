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
        return text.withUTF8 { bytes in
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
            if second == 60 {
                // A leap second is inserted at the end of a UTC day: 23:59:60Z, whatever the offset.
                let utcMinutes = ((hour * 60 + minute - offset / 60) % 1440 + 1440) % 1440
                guard utcMinutes == 23 * 60 + 59 else { return nil }
            }
            let days = daysSince1970(date)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
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

        /// One or more digits after the point, as a fraction of a second. Digits past the
        /// 17th cannot change a `Double` and are only checked.
        mutating func fraction() -> Double? {
            var numerator = 0.0
            var denominator = 1.0
            var count = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if count < 17 {
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
