/// The names taken in one scope (the members of one type, the types nested in one model, the
/// top-level types), and a way to take one more that no earlier name has, in near-linear time
/// over the whole scope. Every Swift name the generator makes unique is made unique here.
///
/// The first name that wants a spelling gets it; the next ones get a variant (`Style`):
/// members get `_`, `__`, then `_4`, `_5`… (`aB`, `aB_`, `aB__`, `aB_4`); nested types get
/// `2`, `3`… (`Item`, `Item2`). Appending a `_` per earlier name would make 3,000 properties
/// that all become `a` into names of up to 3,000 characters, each written several times (94 KB
/// of YAML giving 27.6 MB of Swift). Here a name is at most a few
/// digits longer than what it wanted, and each spelling remembers where its numbers stopped,
/// so no claim scans the names before it.
struct UniqueNames {
    /// How the second and later claims of one spelling are told apart.
    enum Style {
        /// `name_`, `name__`, then `name_4`, `name_5`…: members (properties, cases, parameters).
        case underscores
        /// `Name2`, `Name3`…: types nested in a model.
        case numbered
    }

    private(set) var used: Set<String>
    private var next: [String: Int] = [:]
    private let style: Style

    init(taken: Set<String> = [], style: Style = .underscores) {
        used = taken
        self.style = style
    }

    func contains(_ name: String) -> Bool { used.contains(name) }

    /// Marks `name` as taken without claiming a variant of it (a name decided elsewhere).
    mutating func reserve(_ name: String) {
        used.insert(name)
    }

    /// Takes `name` if no earlier name has it and `isTakenElsewhere` does not say it is taken
    /// outside this scope (a declared model's name, which a nested type would shadow), else
    /// the first free variant of it.
    mutating func claim(_ name: String, isTakenElsewhere: (String) -> Bool = { _ in false }) -> String {
        if !isTakenElsewhere(name), used.insert(name).inserted { return name }
        var number = next[name] ?? 2
        while true {
            let candidate = Self.variant(of: name, number: number, style: style)
            number += 1
            if !isTakenElsewhere(candidate), used.insert(candidate).inserted {
                next[name] = number
                return candidate
            }
        }
    }

    /// The `number`th spelling of `name` (the name itself is the first).
    static func variant(of name: String, number: Int, style: Style = .underscores) -> String {
        switch (style, number) {
        case (.numbered, _): return "\(name)\(number)"
        case (.underscores, 2): return name + "_"
        case (.underscores, 3): return name + "__"
        case (.underscores, _): return "\(name)_\(number)"
        }
    }
}
