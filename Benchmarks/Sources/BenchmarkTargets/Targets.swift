/// The issues' targets, one function per benchmark: figures in, checks out. Pure, so the
/// thresholds and what `sesame-bench all` does with them are tested without measuring.
public enum Targets {
    // MARK: Generator

    /// `generate`: 2,000 models under 0.6 s, no more than 2× the Yams parse of the same
    /// YAML, and linear from 500 to 2,000 models (the time per model grows at most ×1.15).
    public static func generate(secondsAt2000: Double, parseRatioAt2000: Double, secondsAt500: Double) -> [TargetCheck] {
        let perModelGrowth = secondsAt2000 / secondsAt500 / 4
        return [
            TargetCheck(name: "generate, 2000 models: under 0.6 s", measured: "\(fixed(secondsAt2000, 3)) s", met: secondsAt2000 < 0.6),
            TargetCheck(
                name: "generate, 2000 models: at most 2× the Yams parse", measured: "\(fixed(parseRatioAt2000, 2))×",
                met: parseRatioAt2000 <= 2),
            TargetCheck(
                name: "generate, 500 → 2000 models: linear (time per model ×1.15 at most)",
                measured: "time per model ×\(fixed(perModelGrowth, 2))", met: perModelGrowth <= 1.15),
        ]
    }

    /// The whole `sesame generate` command on files (read, write, `--check`): it must
    /// succeed, and `--check` must find nothing to change right after a write.
    public static func generateCommand(models: Int, succeeded: Bool, checkPassed: Bool) -> [TargetCheck] {
        [
            TargetCheck(
                name: "sesame generate, \(models) models: the command succeeds", measured: succeeded ? "exit 0" : "failed",
                met: succeeded),
            TargetCheck(
                name: "sesame generate --check, \(models) models: nothing to change after a write",
                measured: checkPassed ? "exit 0" : "failed", met: checkPassed),
        ]
    }

    /// `references`: a chain of `allOf` `$ref`s across 1,000 referenced files validates in
    /// at most 2 s; forty referenced documents whose aliases, together, would add over the
    /// schema's limit are refused within 10 s and 500 MB; both give the verdict expected.
    public static func references(
        chainFiles: Int, chainSeconds: Double, chainValid: Bool, aliasSeconds: Double, aliasMegabytes: Int, aliasRefused: Bool
    ) -> [TargetCheck] {
        [
            TargetCheck(
                name: "references, a chain across \(chainFiles) files: valid, within 2 s",
                measured: "\(fixed(chainSeconds, 2)) s, \(chainValid ? "valid" : "not valid")",
                met: chainValid && chainSeconds <= 2),
            TargetCheck(
                name: "references, 40 documents of aliases: refused within 10 s and 500 MB",
                measured: "\(fixed(aliasSeconds, 2)) s, \(aliasMegabytes) MB, \(aliasRefused ? "refused" : "accepted")",
                met: aliasRefused && aliasSeconds <= 10 && aliasMegabytes <= 500),
        ]
    }

    // MARK: Runtime

    /// `refresh-storm`: every request succeeds and exactly one refresh request reaches the
    /// back-end, whether it answered or not. `variant` names the storm ("expired", "401").
    public static func refreshStorm(variant: String, requests: Int, succeeded: Int, refreshRequests: Int) -> [TargetCheck] {
        [
            TargetCheck(
                name: "refresh-storm (\(variant)), \(requests) requests: exactly 1 refresh request reaches the back-end",
                measured: "\(refreshRequests) refresh request\(refreshRequests == 1 ? "" : "s")", met: refreshRequests == 1),
            TargetCheck(
                name: "refresh-storm (\(variant)), \(requests) requests: every request succeeds",
                measured: "\(succeeded) succeeded", met: succeeded == requests),
        ]
    }

    /// `processes`: one refresh per expiry across processes, none refused, every request
    /// served, and a sign-out reaching the other processes within 100 ms (p99).
    public static func processes(
        refreshes: Int, expectedRefreshes: Int, invalidGrant: Int, failedRequests: Int, propagationP99: Double
    ) -> [TargetCheck] {
        [
            TargetCheck(
                name: "processes: exactly one refresh per expiry reaches the server",
                measured: "\(refreshes) refreshes for \(expectedRefreshes) expiries", met: refreshes == expectedRefreshes),
            TargetCheck(name: "processes: no refresh refused (invalid_grant)", measured: "\(invalidGrant)", met: invalidGrant == 0),
            TargetCheck(name: "processes: every request succeeds", measured: "\(failedRequests) failed", met: failedRequests == 0),
            TargetCheck(
                name: "processes: a sign-out reaches the other processes within 100 ms (p99)",
                measured: "\(fixed(propagationP99, 1)) ms", met: propagationP99 <= 100),
        ]
    }

    /// `overhead`: the runtime adds at most 2 µs per request.
    public static func overhead(microseconds: Double) -> TargetCheck {
        TargetCheck(name: "overhead: at most 2 µs per request", measured: "\(fixed(microseconds, 3)) µs", met: microseconds <= 2)
    }

    /// `dpop`: a DPoP proof (sign and encode) takes at most 100 µs.
    public static func dpopProof(microseconds: Double) -> TargetCheck {
        TargetCheck(name: "dpop: a proof in at most 100 µs", measured: "\(fixed(microseconds, 1)) µs", met: microseconds <= 100)
    }

    /// `dpop`: the request path with DPoP costs at most 5 µs more than the bearer path and
    /// its proof.
    public static func dpopPath(beyondProofMicroseconds: Double) -> TargetCheck {
        TargetCheck(
            name: "dpop: the path beyond its proof at most 5 µs", measured: "\(fixed(beyondProofMicroseconds, 1)) µs",
            met: beyondProofMicroseconds <= 5)
    }

    /// `events`: every subscriber gets every event exactly once, in order, and nothing else.
    /// `run` names the run ("1000 × 2000 paced").
    public static func eventsLossless(
        run: String, expected: Int, delivered: Int, lost: Int, outOfOrder: Int, unexpected: Int
    )
        -> TargetCheck
    {
        TargetCheck(
            name: "events, \(run): every event once, in order",
            measured: "\(delivered) of \(expected) delivered, \(lost) lost, \(outOfOrder) out of order, \(unexpected) unexpected",
            met: delivered == expected && lost == 0 && outOfOrder == 0 && unexpected == 0)
    }

    /// `events`: up to this many subscribers of an unpaced feed at a steady rate (as a back-end
    /// pushes) keep up with it on the benchmark machine (2 shared cores), so they must lose
    /// nothing. An unpaced feed as fast as the service reads (50,000–130,000 events a second
    /// here), or more subscribers, outruns subscribers whose thread the OS does not schedule
    /// for the time 256 events take; they lose their oldest events by design, a figure.
    public static let eventsUnpacedSubscribersThatKeepUp = 10
    /// `events`: the cost per delivery is the fan-out's, so it is a target from this many
    /// subscribers on (with fewer, decoding each event dominates).
    public static let eventsCostMinimumSubscribers = 100

    /// `events`: the targets of one run. Paced, or unpaced at a steady rate (`rated`) with at
    /// most ``eventsUnpacedSubscribersThatKeepUp`` subscribers: every event once, in order.
    /// Otherwise unpaced: in order and nothing unexpected, what they lose being a figure without
    /// a target. Paced with at least ``eventsCostMinimumSubscribers``: under 1 µs per delivery.
    public static func events(
        run: String, subscribers: Int, paced: Bool, rated: Bool, expected: Int, delivered: Int, lost: Int, outOfOrder: Int, unexpected: Int,
        seconds: Double
    ) -> [TargetCheck] {
        var checks: [TargetCheck] = []
        if paced || (rated && subscribers <= eventsUnpacedSubscribersThatKeepUp) {
            checks.append(
                eventsLossless(
                    run: run, expected: expected, delivered: delivered, lost: lost, outOfOrder: outOfOrder, unexpected: unexpected))
        } else {
            checks.append(
                TargetCheck(
                    name: "events, \(run): in order, nothing unexpected (what is lost is a figure)",
                    measured: "\(delivered) of \(expected) delivered, \(lost) lost, \(outOfOrder) out of order, \(unexpected) unexpected",
                    met: outOfOrder == 0 && unexpected == 0))
        }
        if paced && subscribers >= eventsCostMinimumSubscribers {
            checks.append(eventsCost(run: run, seconds: seconds, deliveries: delivered))
        }
        return checks
    }

    /// `events`: a delivery (one event to one subscriber) costs under 1 µs of wall time.
    public static func eventsCost(run: String, seconds: Double, deliveries: Int) -> TargetCheck {
        let perDelivery = deliveries > 0 ? seconds / Double(deliveries) * 1e6 : .infinity
        return TargetCheck(
            name: "events, \(run): under 1 µs per delivery", measured: "\(fixed(perDelivery, 3)) µs", met: perDelivery < 1)
    }

    /// Launch: from a saved session to the user's context open, at most 1.5× opening the
    /// same SQLite files with GRDB alone.
    public static func launch(ratio: Double) -> TargetCheck {
        TargetCheck(name: "launch: at most 1.5× opening the files with GRDB", measured: "\(fixed(ratio, 2))×", met: ratio <= 1.5)
    }

    // MARK: Stores

    /// `store-insert`: the C API's time over ours at least 0.6.
    public static func storeInsert(rows: Int, ratio: Double) -> TargetCheck {
        TargetCheck(name: "store-insert, \(rows) rows: raw/ours at least 0.6", measured: fixed(ratio, 2), met: ratio >= 0.6)
    }

    /// One `migrate` step: an in-place step at most 0.1 s, a rebuild at most 2× the raw
    /// INSERT…SELECT, and the row count unchanged either way.
    public static func migrateStep(
        _ identifier: String, rebuilt: Bool, seconds: Double, baseline: Double, rows: Int, rowsBefore: Int, rowsAfter: Int
    ) -> [TargetCheck] {
        let speed =
            rebuilt
            ? TargetCheck(
                name: "migrate \(identifier): rebuild at most 2× the raw INSERT…SELECT",
                measured: "\(fixed(seconds / baseline, 2))×", met: seconds <= 2 * baseline)
            : TargetCheck(
                name: "migrate \(identifier): in place in at most 0.1 s", measured: "\(fixed(seconds, 4)) s", met: seconds <= 0.1)
        let kept = rowsBefore == rows && rowsAfter == rows
        return [
            speed,
            TargetCheck(
                name: "migrate \(identifier): the row count is unchanged", measured: "\(rowsBefore) → \(rowsAfter) of \(rows)",
                met: kept),
        ]
    }

    // MARK: Models

    /// The time target of `decode` and `encode` against plain `Codable`: 1.2×, or 1.5× for
    /// models that check keywords only the JSON shows (`minProperties`, `dependentRequired`…).
    public static func codingRatioToCodable(jsonOnlyKeywords: Bool) -> Double { jsonOnlyKeywords ? 1.5 : 1.2 }

    /// `decode` or `encode` of one payload: at most ``codingRatioToCodable(jsonOnlyKeywords:)``
    /// the time of plain `Codable` structs, at most 1× swift-openapi-generator's types, and at
    /// most plain `Codable`'s allocations per model plus one per boxed property. Allocations
    /// are only checked when the counting malloc is in use (`countingActive`); otherwise the
    /// check fails, since zero allocations would pass it.
    public static func coding(
        payload: String, direction: String, jsonOnlyKeywords: Bool, ratioToCodable: Double, ratioToPeer: Double,
        allocationsPerModel: Double, codableAllocationsPerModel: Double, boxesPerModel: Int, countingActive: Bool
    ) -> [TargetCheck] {
        let limit = codingRatioToCodable(jsonOnlyKeywords: jsonOnlyKeywords)
        let allowed = codableAllocationsPerModel + Double(boxesPerModel)
        return [
            TargetCheck(
                name: "\(direction) \(payload): at most \(fixed(limit, 1))× plain Codable", measured: "\(fixed(ratioToCodable, 2))×",
                met: ratioToCodable <= limit),
            TargetCheck(
                name: "\(direction) \(payload): at most 1× swift-openapi-generator's types", measured: "\(fixed(ratioToPeer, 2))×",
                met: ratioToPeer <= 1),
            TargetCheck(
                name: "\(direction) \(payload): allocations per model at most plain Codable's + \(boxesPerModel) boxed",
                measured: countingActive
                    ? "\(fixed(allocationsPerModel, 1)) against \(fixed(allowed, 1)) allowed" : "allocations not counted",
                met: countingActive && allocationsPerModel <= allowed),
        ]
    }

    // MARK: -

    /// `value` with `digits` decimals, without Foundation.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        let text = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
