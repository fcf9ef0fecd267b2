import ArgumentParser
import Foundation
@_spi(Generated) import Sesame
@_spi(Generated) import SesameDescription

/// `sesame-bench date-time`: parsing RFC 3339 date-times with the runtime's strict parser
/// (`ModelCoding.parseDateTime`) against the parser it replaced (Foundation's
/// `Date.ISO8601FormatStyle`, tried without then with fractional seconds, after upper-casing),
/// on the same texts (both must agree on each first), alternating, best of the repetitions.
struct DateTimeBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "date-time", abstract: "Times the strict RFC 3339 date-time parser against Foundation's ISO 8601 parser.")

    @Option(help: "How many date-times are parsed per run.")
    var count = 100_000

    @Option(help: "How many runs of each; the best is kept.")
    var repetitions = 5

    /// The parser before the strict one, as `ModelCoding.parseDateTime` was written.
    static func foundationParse(_ text: String) -> Date? {
        let text = text.uppercased()
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// Texts of the shapes servers send: UTC with and without milliseconds, and offsets.
    static func texts(_ count: Int) -> [String] {
        (0..<count).map { index in
            let seconds = 1_600_000_000 + index * 7919
            let base = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
            switch index % 3 {
            case 0: return base
            case 1: return String(base.dropLast()) + ".\(100 + index % 900)Z"
            default: return String(base.dropLast()) + "+02:00"
            }
        }
    }

    struct Result {
        var strict: Double
        var foundation: Double
        var count: Int
        var ratio: Double { strict / foundation }
        var jsonLine: String {
            String(
                format:
                    "{\"benchmark\": \"date-time\", \"count\": %d, \"strict_seconds\": %.6f, \"foundation_seconds\": %.6f, \"ratio\": %.3f}",
                count, strict, foundation, ratio)
        }
    }

    static func measure(count: Int, repetitions: Int) throws -> Result {
        let texts = texts(count)
        // Both parsers must agree on every text before their times mean anything.
        // (Within a microsecond: the two add the fraction to the seconds in different orders.)
        for text in texts {
            guard let strict = ModelCoding.parseDateTime(text), let foundation = foundationParse(text),
                abs(strict.timeIntervalSince1970 - foundation.timeIntervalSince1970) < 0.000_001
            else { throw ValidationError("the parsers disagree on \(text)") }
        }
        var strict = Double.infinity
        var foundation = Double.infinity
        for _ in 0..<repetitions {
            strict = min(strict, Stopwatch.best(of: 1) { texts.reduce(0) { $0 + (ModelCoding.parseDateTime($1) == nil ? 0 : 1) } }.seconds)
            foundation = min(foundation, Stopwatch.best(of: 1) { texts.reduce(0) { $0 + (foundationParse($1) == nil ? 0 : 1) } }.seconds)
        }
        return Result(strict: strict, foundation: foundation, count: count)
    }

    func run() throws {
        let result = try Self.measure(count: count, repetitions: repetitions)
        print(result.jsonLine)
        print(
            String(
                format: "date-time: strict %.1f ns per parse, Foundation %.1f ns: %.2f× (target: no slower, ≤ 1×)",
                result.strict / Double(count) * 1e9, result.foundation / Double(count) * 1e9, result.ratio))
    }
}
