/// The names taken in one scope (the members of one type), and a way to take one more that
/// no earlier name has, in near-linear time over the whole scope.
///
/// The first name that wants a spelling gets it; the next ones get `_`, `__`, then `_4`,
/// `_5`… (`aB`, `aB_`, `aB__`, `aB_4`). Appending a `_` per earlier name, as the generator
/// did before, made 3,000 properties that all become `a` into names of up to 3,000
/// characters, each written several times: 94 KB of YAML gave 27.6 MB of Swift (issue 29).
/// Here a name is at most a few digits longer than what it wanted, and each spelling
/// remembers where its numbers stopped, so no claim scans the names before it.
struct UniqueNames {
    private(set) var used: Set<String>
    private var next: [String: Int] = [:]

    init(taken: Set<String> = []) {
        used = taken
    }

    func contains(_ name: String) -> Bool { used.contains(name) }

    /// Takes `name` if no earlier name has it, else the first free variant of it.
    mutating func claim(_ name: String) -> String {
        if used.insert(name).inserted { return name }
        var number = next[name] ?? 2
        while true {
            let candidate = Self.variant(of: name, number: number)
            number += 1
            if used.insert(candidate).inserted {
                next[name] = number
                return candidate
            }
        }
    }

    /// The `number`th spelling of `name` (the name itself is the first).
    static func variant(of name: String, number: Int) -> String {
        switch number {
        case 2: return name + "_"
        case 3: return name + "__"
        default: return "\(name)_\(number)"
        }
    }
}
