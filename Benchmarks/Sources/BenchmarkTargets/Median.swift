/// The median of a benchmark's rounds, the one definition every `sesame-bench` figure uses
/// (`decode`/`encode`, `launch`, `id-token`, …): the middle value of the sorted values, the
/// mean of the two middle ones when the count is even, and `nan` for no values (a figure of
/// no rounds, which a target then reports as missed rather than crashing the run).
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
