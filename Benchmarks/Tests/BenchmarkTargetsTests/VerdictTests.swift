import Testing

@testable import BenchmarkTargets

@Suite("Verdict of sesame-bench all")
struct VerdictTests {
    /// Figures that meet every target of `all`.
    static var metChecks: [TargetCheck] {
        Targets.generate(secondsAt2000: 0.5, parseRatioAt2000: 1.2, secondsAt500: 0.13)
            + Targets.refreshStorm(variant: "expired", requests: 10_000, succeeded: 10_000, refreshRequests: 1)
            + Targets.refreshStorm(variant: "401", requests: 10_000, succeeded: 10_000, refreshRequests: 1)
            + [
                Targets.overhead(microseconds: 1.1),
                Targets.eventsLossless(
                    run: "1000 × 2000 paced", expected: 2_000_000, delivered: 2_000_000, lost: 0, outOfOrder: 0, unexpected: 0),
                Targets.eventsCost(run: "1000 × 2000 paced", seconds: 1.0, deliveries: 2_000_000),
                Targets.storeInsert(rows: 100_000, ratio: 0.9),
                Targets.launch(ratio: 1.2),
            ]
            + Targets.migrateStep("persistence.v2", rebuilt: false, seconds: 0.002, baseline: 0.3, rows: 10, rowsBefore: 10, rowsAfter: 10)
            + Targets.migrateStep("persistence.v3", rebuilt: true, seconds: 0.5, baseline: 0.3, rows: 10, rowsBefore: 10, rowsAfter: 10)
    }

    @Test func everyTargetMetExitsZero() {
        let verdict = Verdict(Self.metChecks)
        #expect(verdict.missed.isEmpty)
        #expect(verdict.passed)
        #expect(verdict.exitStatus == 0)
        #expect(verdict.report == "all \(Self.metChecks.count) targets met")
    }

    @Test func oneMissedTargetExitsOneAndIsNamed() {
        var checks = Self.metChecks
        checks += Targets.generate(secondsAt2000: 0.93, parseRatioAt2000: 1.46, secondsAt500: 0.19)
        let verdict = Verdict(checks)
        #expect(verdict.exitStatus == 1)
        #expect(!verdict.passed)
        // 0.93 s misses "under 0.6 s"; 0.93 / 0.19 / 4 = 1.22 misses "linear"; 1.46× meets 2×.
        #expect(
            verdict.missed.map(\.name) == [
                "generate, 2000 models: under 0.6 s", "generate, 500 → 2000 models: linear (time per model ×1.15 at most)",
            ])
        #expect(verdict.report.hasPrefix("MISSED 2 of \(checks.count) targets:"))
        #expect(verdict.report.contains("generate, 2000 models: under 0.6 s: 0.930 s"))
        #expect(verdict.report.contains("time per model ×1.22"))
        #expect(!verdict.report.contains("Yams parse"))
    }

    @Test func nothingCheckedIsNotAPass() {
        let verdict = Verdict([])
        #expect(!verdict.passed)
        #expect(verdict.exitStatus == 1)
        #expect(verdict.report == "no target was checked")
    }

    @Test func refreshStormCountsEveryRefreshRequest() {
        let twice = Targets.refreshStorm(variant: "401", requests: 10_000, succeeded: 10_000, refreshRequests: 2)
        #expect(twice.map(\.met) == [false, true])
        #expect(twice[0].measured == "2 refresh requests")
        let none = Targets.refreshStorm(variant: "401", requests: 10_000, succeeded: 0, refreshRequests: 0)
        #expect(none.map(\.met) == [false, false])
        #expect(none[1].name.contains("(401)"))
    }

    /// scripts/bench-figures.py reads `make bench`'s `targets:` block by this shape (the name,
    /// ": ", the figure, two spaces, `met` or `MISSED`), and its fixture was printed by it.
    @Test func aCheckPrintsTheLineTheFiguresTableReads() {
        let checks = Targets.generate(secondsAt2000: 0.927, parseRatioAt2000: 1.46, secondsAt500: 0.182)
        #expect(checks[0].description == "generate, 2000 models: under 0.6 s: 0.927 s  MISSED")
        #expect(checks[1].description == "generate, 2000 models: at most 2× the Yams parse: 1.46×  met")
    }

    @Test func eventsTargets() {
        let lossy = Targets.eventsLossless(
            run: "1000 × 2000 unpaced", expected: 2_000_000, delivered: 1_999_999, lost: 1, outOfOrder: 0, unexpected: 0)
        #expect(!lossy.met)
        #expect(lossy.description.hasSuffix("MISSED"))
        let repeated = Targets.eventsLossless(run: "r", expected: 4, delivered: 4, lost: 0, outOfOrder: 1, unexpected: 0)
        #expect(!repeated.met)
        #expect(Targets.eventsCost(run: "r", seconds: 1, deliveries: 1_000_000).met == false)  // exactly 1 µs is not under 1 µs
        #expect(Targets.eventsCost(run: "r", seconds: 0.9, deliveries: 1_000_000).met)
        #expect(Targets.eventsCost(run: "r", seconds: 0.9, deliveries: 0).met == false)
    }

    /// Which runs must lose nothing: paced ones, and unpaced ones of subscribers that keep up.
    @Test func eventsTargetsOfEachRun() {
        func checks(
            _ subscribers: Int, paced: Bool, rated: Bool = true, lost: Int, outOfOrder: Int = 0, seconds: Double = 0.001
        ) -> [TargetCheck] {
            let expected = subscribers * 2000
            return Targets.events(
                run: "\(subscribers)", subscribers: subscribers, paced: paced, rated: rated && !paced, expected: expected,
                delivered: expected - lost,
                lost: lost, outOfOrder: outOfOrder, unexpected: 0, seconds: seconds)
        }
        #expect(checks(10, paced: false, lost: 1).map(\.met) == [false])  // keeps up: a loss is missed
        #expect(checks(10, paced: false, rated: false, lost: 1).map(\.met) == [true])  // as fast as it reads: a figure
        #expect(checks(1, paced: false, lost: 0).map(\.met) == [true])  // no cost target: decoding dominates
        #expect(checks(1000, paced: false, lost: 400_000).map(\.met) == [true])  // a figure
        #expect(checks(1000, paced: false, lost: 400_000)[0].measured.contains("400000 lost"))
        #expect(checks(1000, paced: false, lost: 0, outOfOrder: 1).map(\.met) == [false])  // order still checked
        #expect(checks(1000, paced: true, lost: 1).map(\.met) == [false, true])  // lossless, and cost
        #expect(checks(1000, paced: true, lost: 0, seconds: 3).map(\.met) == [true, false])
    }

    @Test func migrateRowsChangedIsMissedEvenWhenFast() {
        let checks = Targets.migrateStep("v2", rebuilt: false, seconds: 0.001, baseline: 1, rows: 10, rowsBefore: 10, rowsAfter: 9)
        #expect(checks.map(\.met) == [true, false])
        #expect(checks[1].measured == "10 → 9 of 10")
        let slowRebuild = Targets.migrateStep("v3", rebuilt: true, seconds: 2.1, baseline: 1, rows: 10, rowsBefore: 10, rowsAfter: 10)
        #expect(slowRebuild.map(\.met) == [false, true])
    }

    @Test func thresholdsAreInclusiveWhereTheIssuesSayAtMost() {
        #expect(Targets.overhead(microseconds: 2).met)
        #expect(!Targets.overhead(microseconds: 2.001).met)
        #expect(Targets.launch(ratio: 1.5).met)
        #expect(!Targets.launch(ratio: 1.51).met)
        #expect(Targets.storeInsert(rows: 1, ratio: 0.6).met)
        #expect(!Targets.storeInsert(rows: 1, ratio: 0.59).met)
    }

    @Test func fixedRoundsLikeFormat() {
        #expect(Targets.fixed(0.9996, 3) == "1.000")
        #expect(Targets.fixed(1.234, 2) == "1.23")
        #expect(Targets.fixed(0.05, 2) == "0.05")
        #expect(Targets.fixed(-0.5, 1) == "-0.5")
        #expect(Targets.fixed(12.6, 0) == "13")
    }

    @Test func codingTargetsAllowMoreTimeForJSONOnlyKeywordsAndOneAllocationPerBox() {
        func missed(_ checked: Bool, ratio: Double, peer: Double, allocations: Double, counting: Bool = true) -> [String] {
            Verdict(
                Targets.coding(
                    payload: "notes", direction: "decode", jsonOnlyKeywords: checked, ratioToCodable: ratio, ratioToPeer: peer,
                    allocationsPerModel: allocations, codableAllocationsPerModel: 20, boxesPerModel: 1, countingActive: counting)
            ).missed.map(\.name)
        }
        #expect(missed(false, ratio: 1.2, peer: 1.0, allocations: 21).isEmpty)
        #expect(missed(true, ratio: 1.45, peer: 0.9, allocations: 21).isEmpty)
        #expect(missed(false, ratio: 1.3, peer: 0.9, allocations: 21) == ["decode notes: at most 1.2× plain Codable"])
        #expect(missed(true, ratio: 1.6, peer: 0.9, allocations: 21) == ["decode notes: at most 1.5× plain Codable"])
        #expect(missed(false, ratio: 1.0, peer: 1.1, allocations: 21) == ["decode notes: at most 1× swift-openapi-generator's types"])
        #expect(
            missed(false, ratio: 1.0, peer: 0.9, allocations: 21.5) == [
                "decode notes: allocations per model at most plain Codable's + 1 boxed"
            ])
        // Zero allocations counted because the counter was not in use is no pass.
        #expect(
            missed(false, ratio: 1.0, peer: 0.9, allocations: 0, counting: false) == [
                "decode notes: allocations per model at most plain Codable's + 1 boxed"
            ])
    }
}
