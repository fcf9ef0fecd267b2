/// Times a piece of work with `ContinuousClock` and keeps the best (minimum) of several runs:
/// the least disturbed by other processes on a shared machine.
enum Stopwatch {
    /// The fastest of `repetitions` runs of `work`, in seconds, and the last run's result.
    static func best<Result>(of repetitions: Int, _ work: () throws -> Result) rethrows -> (seconds: Double, result: Result) {
        precondition(repetitions >= 1, "at least one repetition")
        let clock = ContinuousClock()
        var best = Double.infinity
        var last: Result?
        for _ in 0..<repetitions {
            var result: Result?
            let elapsed = try clock.measure { result = try work() }
            best = min(best, elapsed.seconds)
            last = result
        }
        return (best, last!)
    }
}

extension Duration {
    /// The duration in seconds, with attosecond precision kept as far as a Double can.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
