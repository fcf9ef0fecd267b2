import Foundation
import HTTPTypes

/// Reads `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP-date.
enum RetryAfter {
    /// The longest wait a `Retry-After` can ask for: one hour. A longer one (a date far
    /// ahead, `99999999999` seconds, more digits than a `Double` holds) is read as this,
    /// so that a broken or hostile back-end cannot stop refreshes until the next sign-in.
    static let maximum: TimeInterval = 3600

    /// How long the response asks to wait, from `now`; nil when it has no `Retry-After`, or
    /// one that is neither form.
    static func delay(in headerFields: HTTPFields, now: Date) -> TimeInterval? {
        guard let name = HTTPField.Name("Retry-After"), let value = headerFields[name] else { return nil }
        return delay(value, now: now)
    }

    /// The delay a `Retry-After` value asks for: `delay-seconds` as it is, an HTTP-date less
    /// `now` (zero when it has passed), at most ``maximum``; nil for anything else.
    static func delay(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Double(text).map { min($0, maximum) }
        }
        guard let date = httpDate(text, now: now) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), maximum)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// An HTTP-date in any of its three forms (RFC 9110 §5.6.7): IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms.
    /// A two-digit year more than 50 years ahead of `now` is in the past century.
    static func httpDate(_ text: String, now: Date) -> Date? {
        let parts = text.split(separator: " ").map { $0.lowercased() }
        let day: Substring
        let month: Substring
        let year: Substring
        let time: Substring
        var twoDigitYear = false
        switch parts.count {
        case 6 where parts[0].hasSuffix(",") && parts[5] == "gmt":
            (day, month, year, time) = (Substring(parts[1]), Substring(parts[2]), Substring(parts[3]), Substring(parts[4]))
        case 4 where parts[0].hasSuffix(",") && parts[3] == "gmt":
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard date.count == 3, date[2].count == 2 else { return nil }
            (day, month, year, time) = (date[0], date[1], date[2], Substring(parts[2]))
            twoDigitYear = true
        case 5 where !parts[0].hasSuffix(","):
            (day, month, year, time) = (Substring(parts[2]), Substring(parts[1]), Substring(parts[4]), Substring(parts[3]))
        default:
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard let monthIndex = months.firstIndex(of: String(month)), (1...2).contains(day.count), let dayNumber = Int(day),
            twoDigitYear || year.count == 4, var yearNumber = Int(year),
            clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        if twoDigitYear {
            let currentYear = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: now).year ?? 2000
            yearNumber += currentYear / 100 * 100
            if yearNumber > currentYear + 50 { yearNumber -= 100 }
        }
        guard dayNumber >= 1, dayNumber <= daysIn(month: monthIndex + 1, year: yearNumber) else { return nil }
        let days = daysFromCivil(year: yearNumber, month: monthIndex + 1, day: dayNumber)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
