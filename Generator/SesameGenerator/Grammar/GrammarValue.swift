/// What a value of the YAML format may be, as the grammar table declares it: the type of a
/// key, of a dictionary's values or of a list's items. `FormatJSONSchema` renders it; the
/// translators read the values themselves (a duration, a template…) and report their own
/// errors, so a `GrammarValue` says what they accept, not how they parse it.
indirect enum GrammarValue: Sendable {
    /// Any string; with a pattern, one that matches it (an ECMA-262 regular expression).
    case string(pattern: String? = nil)
    /// A whole number within the bounds.
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    /// Any number; with a bound, one strictly greater.
    case number(exclusiveMinimum: Int? = nil)
    case boolean
    /// Anything (an annotation, a default value).
    case any
    /// One of these words.
    case oneOf([String])
    /// A value of one of these JSON types (`string`, `number`, `boolean`, `null`, …).
    case jsonTypes([String])
    /// A list of values; `minimumCount` items at least, each different when `unique`.
    case list(GrammarValue, minimumCount: Int? = nil, unique: Bool = false)
    /// A mapping of names (matching `names` when given) to values.
    case dictionary(names: GrammarValue? = nil, values: GrammarValue, minimumCount: Int? = nil)
    /// A mapping with declared keys.
    case mapping(GrammarMapping)
    /// A value that may take any of these forms.
    case either([GrammarValue])
    /// A shared form declared once (`Grammar.shared`), rendered as `#/$defs/<name>`.
    case shared(String)
    /// A form with JSON Schema keywords added (a pattern on a shared form, a `format`).
    case refined(GrammarValue, [(String, OrderedJSON)])
    /// A `{placeholder}` template that may use only these names: the form of the shared
    /// `template`, with the placeholders listed.
    case template(placeholders: [String])
}

/// One key of a YAML mapping: its name, the type of its value, whether it is required
/// (and what to say when it is missing), its default, the keys it needs or excludes, and
/// its meaning. The one place the format documents the key: docs/format.md's key tables
/// (`FormatMarkdown`) and the JSON Schema's `description`s (`FormatJSONSchema`) are both
/// rendered from it.
struct GrammarKey: Sendable {
    var name: String
    var value: GrammarValue
    /// The rest of the sentence reported when the key is missing, after the mapping's name
    /// (`" needs a request"` → "credential.refresh needs a request"); nil when optional.
    var missing: String?
    /// When an optional key is required all the same, in markdown ("on the last step"):
    /// a rule the translator checks, since it depends on more than this mapping.
    var requiredWhen: String?
    /// What an absent key means, in markdown (`` `60s` ``, "the event's key"); nil when
    /// there is no default.
    var defaultValue: String?
    /// Keys that must be present beside this one: sibling keys (`issuer`), rendered as the
    /// JSON Schema's `dependentRequired`, or dotted paths elsewhere in the folder
    /// (`authorizationServer.issuer`), which the translator checks.
    var requires: [String]
    /// Keys that cannot stand beside this one (the translator refuses both).
    var conflicts: [String]
    /// What the key is for: the docs' meaning column and the JSON Schema's description.
    var meaning: String

    init(
        _ name: String, _ value: GrammarValue, missing: String? = nil, requiredWhen: String? = nil,
        default defaultValue: String? = nil,
        requires: [String] = [], conflicts: [String] = [], _ meaning: String
    ) {
        self.name = name
        self.value = value
        self.missing = missing
        self.requiredWhen = requiredWhen
        self.defaultValue = defaultValue
        self.requires = requires
        self.conflicts = conflicts
        self.meaning = meaning
    }

    var isRequired: Bool { missing != nil }

    /// The rules beside the meaning (required, the default, what it needs or excludes), in
    /// markdown, each a short phrase: "default `60s`", "needs `issuer`".
    var rules: [String] {
        var rules: [String] = []
        if isRequired { rules.append("required") }
        if let requiredWhen { rules.append("required \(requiredWhen)") }
        if let defaultValue { rules.append("default \(defaultValue)") }
        if !requires.isEmpty { rules.append("needs " + requires.map { "`\($0)`" }.joined(separator: ", ")) }
        if !conflicts.isEmpty { rules.append("not with " + conflicts.map { "`\($0)`" }.joined(separator: ", ")) }
        return rules
    }

    /// The meaning followed by the rules that are not already the JSON Schema's own
    /// (`required`): the `description` an editor shows.
    var description: String {
        var sentences = [meaning]
        if let requiredWhen { sentences.append("Required \(requiredWhen).") }
        if let defaultValue { sentences.append("Default: \(defaultValue).") }
        if !requires.isEmpty { sentences.append("Needs " + requires.map { "`\($0)`" }.joined(separator: ", ") + ".") }
        if !conflicts.isEmpty { sentences.append("Not with " + conflicts.map { "`\($0)`" }.joined(separator: ", ") + ".") }
        return sentences.joined(separator: " ")
    }
}

/// Keys that are names rather than keywords: a store section's version numbers, a
/// version's table names.
enum GrammarKeyPattern: String, Sendable {
    /// `1`, `2`, … (the store translator reports 0, negative and too large numbers itself).
    case versionNumber
    /// `Note`: an uppercase ASCII letter, then letters, digits and `_`.
    case tableName
    /// Any name (a models file's models).
    case anyName

    /// The JSON Schema pattern; nil for any name.
    var pattern: String? {
        switch self {
        case .versionNumber: return "^0*[1-9][0-9]*$"
        case .tableName: return "^[A-Z][A-Za-z0-9_]*$"
        case .anyName: return nil
        }
    }

    /// Whether the reader lets the key through to the translator.
    func matches(_ key: String) -> Bool {
        switch self {
        case .versionNumber: return Int(key) != nil
        case .anyName: return true
        case .tableName:
            guard let first = key.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
            return key.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
            }
        }
    }
}

/// The keys a YAML mapping accepts. The reader refuses every other key with a positioned
/// "unknown key" error (and a suggestion), and reports each missing required key.
struct GrammarMapping: Sendable {
    /// The mapping's name in `Grammar.all` and in the JSON Schema's `$defs` when shared.
    let name: String
    /// One line for editors.
    let summary: String
    /// The keys, in the order the format documents them.
    let keys: [GrammarKey]
    /// Keys that are names matching a pattern, the form of their values, and what an
    /// unknown key's error adds (`: versions are numbered 1, 2, 3…`): always, or only when
    /// no declared key is close.
    let names: (pattern: GrammarKeyPattern, value: GrammarValue, hint: String, always: Bool)?
    /// Keys the reader lets through for the translator to refuse with its own message (JSON
    /// Schema keywords Sesame does not support); the JSON Schema leaves them out.
    let refused: [String]
    /// Whether an empty file (null) is accepted for this mapping (a file's root).
    let nullable: Bool
    /// Keys of which at least one must be present (JSON Schema only: the
    /// translator says why).
    let requiresOneOf: [String]
    /// More JSON Schema keywords for what the table's form cannot say.
    let extra: [(String, OrderedJSON)]
    /// Whether docs/format.md shows its keys in the table of the mapping that holds it, as
    /// dotted rows (`server.baseURL`, `errors.<name>.status`), rather than in a table of
    /// its own.
    let inline: Bool

    init(
        _ name: String, _ summary: String, keys: [GrammarKey],
        names: (pattern: GrammarKeyPattern, value: GrammarValue, hint: String, always: Bool)? = nil,
        refused: [String] = [], nullable: Bool = false, requiresOneOf: [String] = [], extra: [(String, OrderedJSON)] = [],
        inline: Bool = false
    ) {
        self.name = name
        self.summary = summary
        self.keys = keys
        self.names = names
        self.refused = refused
        self.nullable = nullable
        self.requiresOneOf = requiresOneOf
        self.extra = extra
        self.inline = inline
        keySet = Set(keys.map(\.name)).union(refused)
        requiredKeys = keys.filter(\.isRequired)
    }

    /// The keys with a `missing` sentence, in order.
    let requiredKeys: [GrammarKey]

    /// The declared and refused keys, for constant-time lookups.
    private let keySet: Set<String>

    /// The declared key names, in order.
    var keyNames: [String] { keys.map(\.name) }

    func key(_ name: String) -> GrammarKey? { keys.first { $0.name == name } }

    /// Whether the reader accepts the key (declared, a name of the pattern, or refused later).
    func accepts(_ key: String) -> Bool {
        keySet.contains(key) || names?.pattern.matches(key) == true
    }
}

extension GrammarMapping {
    /// The placeholders a template key (or a key of templates, such as `fields`) may use:
    /// what the translator checks and the JSON Schema's pattern allows. Empty for a key
    /// that holds no restricted template.
    func placeholders(of key: String) -> Set<String> {
        var value = self.key(key)?.value
        while let current = value {
            switch current {
            case .template(let placeholders): return Set(placeholders)
            case .dictionary(_, let values, _): value = values
            case .refined(let base, _): value = base
            default: value = nil
            }
        }
        return []
    }
}
