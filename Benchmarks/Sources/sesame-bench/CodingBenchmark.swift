import AllocationCounter
import ArgumentParser
import BenchmarkTargets
import Foundation

/// `sesame-bench decode` and `encode` (issue 30): each payload of ``CodingPayload`` decoded
/// (or encoded) by Sesame's generated models, by hand-written `Codable` structs (the floor)
/// and by swift-openapi-generator's types, on the same bytes, alternated in one run. Each
/// round times the three sides in turn (the order rotates every round); the ratios are
/// medians of the rounds' ratios. Allocations and peak heap are the fewest of three counted
/// runs of each side (``AllocationCounter``).
enum CodingBenchmark {
    enum Direction: String, ExpressibleByArgument, CaseIterable, Sendable {
        case decode, encode
    }

    /// The figures of one payload in one direction.
    struct Result {
        var payload: String
        var direction: Direction
        var bytes: Int
        var models: Int
        var boxesPerModel: Int
        var jsonOnlyKeywords: Bool
        var rounds: Int
        /// Median seconds of one decode (or encode) of the payload, per side.
        var sesameSeconds: Double
        var codableSeconds: Double
        var peerSeconds: Double
        /// Medians of the rounds' ratios of Sesame's time to the other side's.
        var ratioToCodable: Double
        var ratioToPeer: Double
        var sesameAllocations: UInt64
        var codableAllocations: UInt64
        var peerAllocations: UInt64
        var sesamePeakBytes: UInt64
        var codablePeakBytes: UInt64
        var peerPeakBytes: UInt64

        func perModel(_ allocations: UInt64) -> Double { Double(allocations) / Double(models) }
        func perMB(_ seconds: Double) -> Double { seconds / (Double(bytes) / 1_000_000) * 1000 }

        var jsonLine: String {
            String(
                format: """
                    {"benchmark": "coding", "payload": "%@", "direction": "%@", "bytes": %d, "models": %d, "rounds": %d, \
                    "ratio_to_codable": %.3f, "ratio_to_peer": %.3f, \
                    "ms_per_mb": {"sesame": %.2f, "codable": %.2f, "peer": %.2f}, \
                    "allocations_per_model": {"sesame": %.2f, "codable": %.2f, "peer": %.2f}, \
                    "peak_bytes": {"sesame": %llu, "codable": %llu, "peer": %llu}}
                    """,
                payload, direction.rawValue, bytes, models, rounds, ratioToCodable, ratioToPeer, perMB(sesameSeconds),
                perMB(codableSeconds), perMB(peerSeconds), perModel(sesameAllocations), perModel(codableAllocations),
                perModel(peerAllocations), sesamePeakBytes, codablePeakBytes, peerPeakBytes)
        }

        var checks: [TargetCheck] {
            Targets.coding(
                payload: payload, direction: direction.rawValue, jsonOnlyKeywords: jsonOnlyKeywords, ratioToCodable: ratioToCodable,
                ratioToPeer: ratioToPeer, allocationsPerModel: perModel(sesameAllocations),
                codableAllocationsPerModel: perModel(codableAllocations), boxesPerModel: boxesPerModel,
                countingActive: allocation_counter_is_active() != 0)
        }
    }

    /// Times every payload in `direction`, `rounds` rounds each.
    static func measure(_ direction: Direction, rounds: Int, notes: Int = 10_000) throws -> [Result] {
        try CodingPayload.all(notes: notes).map { try measure($0, direction, rounds: rounds) }
    }

    static func measure(_ payload: CodingPayload, _ direction: Direction, rounds: Int) throws -> Result {
        let sides = [payload.sesame, payload.codable, payload.peer]
        // Each side's work: decode the bytes, or encode the value decoded from them.
        let work: [() throws -> Void] = try sides.map { side in
            switch direction {
            case .decode:
                return { try side.decode(payload.data) }
            case .encode:
                let encode = try side.encoder(payload.data)
                return { _ = try encode() }
            }
        }
        // Warm up (and fail here when a side does not decode the bytes).
        for item in work { try item() }
        let clock = ContinuousClock()
        var seconds: [[Double]] = Array(repeating: [], count: sides.count)
        for round in 0..<rounds {
            for offset in 0..<sides.count {
                let index = (round + offset) % sides.count
                let elapsed = try clock.measure { for _ in 0..<payload.repeats { try work[index]() } }
                seconds[index].append(elapsed.seconds / Double(payload.repeats))
            }
        }
        var allocations: [UInt64] = []
        var peaks: [UInt64] = []
        // The fewest of three counted runs: a first use of some path (a cache filled, a buffer
        // grown) is not what every decode pays.
        for item in work {
            var fewest = UInt64.max
            var lowestPeak = UInt64.max
            for _ in 0..<3 {
                allocation_counter_start()
                try item()
                allocation_counter_stop()
                fewest = min(fewest, allocation_counter_allocations())
                lowestPeak = min(lowestPeak, allocation_counter_peak_bytes())
            }
            allocations.append(fewest)
            peaks.append(lowestPeak)
        }
        let bytes: Int
        switch direction {
        case .decode: bytes = payload.data.count
        case .encode: bytes = try payload.sesame.encoder(payload.data)().count
        }
        return Result(
            payload: payload.name, direction: direction, bytes: bytes, models: payload.models, boxesPerModel: payload.boxesPerModel,
            jsonOnlyKeywords: payload.jsonOnlyKeywords, rounds: rounds, sesameSeconds: median(seconds[0]),
            codableSeconds: median(seconds[1]), peerSeconds: median(seconds[2]),
            ratioToCodable: median(zip(seconds[0], seconds[1]).map { $0 / $1 }),
            ratioToPeer: median(zip(seconds[0], seconds[2]).map { $0 / $1 }),
            sesameAllocations: allocations[0], codableAllocations: allocations[1], peerAllocations: allocations[2],
            sesamePeakBytes: peaks[0], codablePeakBytes: peaks[1], peerPeakBytes: peaks[2])
    }

    /// The figures as a table, one line per payload.
    static func table(_ results: [Result]) -> String {
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
        var lines = [
            [
                pad("payload", 14), pad("dir", 7), pad("× codable", 10), pad("× peer", 7), pad("ms/MB ours", 11),
                pad("codable", 8), pad("peer", 8), pad("allocs/model", 13), pad("codable", 8), pad("peer", 8), pad("peak KB", 9),
                pad("codable", 8), pad("peer", 8),
            ].joined(separator: " ")
        ]
        for result in results {
            lines.append(
                [
                    pad(result.payload, 14), pad(result.direction.rawValue, 7), pad(fixed(result.ratioToCodable, 2), 10),
                    pad(fixed(result.ratioToPeer, 2), 7), pad(fixed(result.perMB(result.sesameSeconds), 1), 11),
                    pad(fixed(result.perMB(result.codableSeconds), 1), 8), pad(fixed(result.perMB(result.peerSeconds), 1), 8),
                    pad(fixed(result.perModel(result.sesameAllocations), 1), 13),
                    pad(fixed(result.perModel(result.codableAllocations), 1), 8),
                    pad(fixed(result.perModel(result.peerAllocations), 1), 8), pad("\(result.sesamePeakBytes / 1024)", 9),
                    pad("\(result.codablePeakBytes / 1024)", 8), pad("\(result.peerPeakBytes / 1024)", 8),
                ].joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}

/// `sesame-bench decode` and `sesame-bench encode`: one JSON line per payload, a table, and
/// each target met or missed; exits 1 when one is missed.
struct CodingCommand<Name: CodingDirectionName>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Name.direction.rawValue,
            abstract:
                "Times \(Name.direction.rawValue == "decode" ? "decoding" : "encoding") the payloads with Sesame's generated models, plain Codable structs and swift-openapi-generator's types, alternated.",
            discussion: "Targets (issue 30): at most 1.2× plain Codable (1.5× with JSON-only keywords), at most 1× the peer, "
                + "and at most plain Codable's allocations per model plus one per boxed property.")
    }

    @Option(help: "How many alternated rounds; the ratios are their medians.")
    var rounds = 15

    @Option(help: "How many notes (and union entries) the lists hold.")
    var notes = 10_000

    func validate() throws {
        guard rounds >= 1, notes >= 1 else { throw ValidationError("--rounds and --notes must be at least 1") }
    }

    func run() throws {
        let results = try CodingBenchmark.measure(Name.direction, rounds: rounds, notes: notes)
        for result in results { print(result.jsonLine) }
        print(CodingBenchmark.table(results))
        let verdict = Verdict(results.flatMap(\.checks))
        for check in verdict.checks { print("  \(check)") }
        fflush(nil)
        FileHandle.standardError.write(Data("\(verdict.report)\n".utf8))
        if !verdict.passed { throw ExitCode(verdict.exitStatus) }
    }
}

/// Names the direction of a ``CodingCommand`` (a subcommand is a type).
protocol CodingDirectionName { static var direction: CodingBenchmark.Direction { get } }
enum DecodeDirection: CodingDirectionName { static let direction = CodingBenchmark.Direction.decode }
enum EncodeDirection: CodingDirectionName { static let direction = CodingBenchmark.Direction.encode }
