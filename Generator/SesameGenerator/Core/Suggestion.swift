/// "Did you mean" for misspelt keys and names.
///
/// Bounded by construction, whatever the input: a name longer than `maximumLength` characters gets no
/// suggestion, a candidate whose length differs from the name's by more than the distance
/// allowed is skipped before any work, and the distance is computed in a band of that width
/// with three rows of memory, stopping as soon as every cell of a row is past the cut-off.
/// One lookup costs O(name length × 3) per candidate, never a full table.
enum Suggestion {
    /// Names longer than this get no suggestion: a typo in a name this long is not what a
    /// reader needs help with, and the diagnostic stays short.
    static let maximumLength = 256

    /// The "did you mean" tail every diagnostic appends: `; did you mean 'x'?` for the
    /// candidate closest to `word`, written as `writtenAs` spells it (`'{x}'` for a
    /// placeholder, `'#/x'` for a `$ref`); nil when no candidate is close enough, so a site
    /// writes `?? ""` or its own fallback.
    static func hint(
        for word: String, among candidates: [String], writtenAs spelling: (String) -> String = { $0 }
    ) -> String? {
        closest(to: word, in: candidates).map { "; did you mean '\(spelling($0))'?" }
    }

    /// The candidate closest to `word`, ignoring case: at most 3 edits away and at most a
    /// third of the candidate's length (at least 1), the first one on a tie; nil when none is
    /// that close.
    static func closest(to word: String, in candidates: [String]) -> String? {
        guard word.utf8.count <= maximumLength * 4 else { return nil }
        let lowered = Array(word.lowercased())
        guard lowered.count <= maximumLength else { return nil }
        var best: (String, Int)?
        for candidate in candidates where candidate.utf8.count <= maximumLength * 4 {
            let other = Array(candidate.lowercased())
            let limit = min(best.map { $0.1 - 1 } ?? 3, max(1, min(3, other.count / 3)))
            guard limit >= 0, let distance = editDistance(lowered, other, atMost: limit) else { continue }
            best = (candidate, distance)
        }
        return best?.0
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps
    /// of neighbours (`nmae` → `name`) each count one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        return editDistance(a, b, atMost: max(a.count, b.count))!
    }

    /// The optimal string alignment distance of `a` and `b` when it is at most `limit`, else
    /// nil. Only the cells within `limit` of the diagonal are computed (any path outside the
    /// band costs more than `limit`), in three rows: O(`a.count` × `limit`) time, O(`b.count`)
    /// memory.
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let outside = limit + 1
        var previousPrevious = [Int](repeating: outside, count: b.count + 1)
        var previous = [Int](repeating: outside, count: b.count + 1)
        var current = [Int](repeating: outside, count: b.count + 1)
        for j in 0...min(b.count, limit) { previous[j] = j }
        for i in 1...a.count {
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            // Cells left of the band count as past the cut-off.
            current[low - 1] = low == 1 && i <= limit ? i : outside
            var rowMinimum = current[low - 1]
            if low <= high {
                for j in low...high {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        value = min(value, previousPrevious[j - 2] + 1)
                    }
                    current[j] = min(value, outside)
                    rowMinimum = min(rowMinimum, current[j])
                }
            }
            if high < b.count { current[high + 1] = outside }
            if rowMinimum > limit { return nil }
            swap(&previousPrevious, &previous)
            swap(&previous, &current)
        }
        let distance = previous[b.count]
        return distance <= limit ? distance : nil
    }
}
