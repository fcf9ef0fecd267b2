import Foundation

/// A duration written in the schema (`300s`, `5m`, `1h`, `250ms`), kept in milliseconds.
struct DurationIR: Sendable, Hashable, Codable, CustomStringConvertible {
    var milliseconds: Int64

    init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// Parses `<number><unit>` with unit `ms`, `s`, `m` or `h`; a bare number is seconds.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            guard let value = Int64(trimmed.dropLast(suffix.count)), value >= 0 else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: factor)
            if overflow { return nil }
            self.milliseconds = product
            return
        }
        guard let seconds = Int64(trimmed), seconds >= 0, seconds < Int64.max / 1000 else { return nil }
        self.milliseconds = seconds * 1000
    }

    var description: String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}
