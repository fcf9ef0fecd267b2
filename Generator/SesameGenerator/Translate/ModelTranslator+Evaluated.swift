import Yams
@_spi(Generated) import SesameDescription

/// What a schema's in-place applicators evaluate of a value (the annotations JSON Schema
/// 2020-12 collects for `unevaluatedItems` and `unevaluatedProperties`), known at generation
/// time: the schema's own `prefixItems`, `items`, `contains`, `properties`, … and those of its
/// `allOf` members and `$ref`s, always; those of an `anyOf`/`oneOf` branch, an `if`/`then`/`else`
/// or a `dependentSchemas` entry only when that schema matches, as a ``Condition``.
struct Evaluated: Hashable {
    /// Which of the two keywords the walk is for: only that kind of annotation is kept.
    enum Kind {
        case items, properties
    }

    /// A part that counts only when `check` matches the value (`matched`), or only when it
    /// does not (`unmatched`).
    struct Condition: Hashable {
        var check: ModelCheck
        var matched: Evaluated
        var unmatched: Evaluated
    }

    /// `items` (or a nested `unevaluatedItems`) evaluates every item.
    var allItems = false
    /// The longest `prefixItems`: the first items it evaluates.
    var prefixItems = 0
    /// Each `contains`: the items that match it are evaluated.
    var contains: [ModelCheck] = []
    /// `additionalProperties` (or a nested `unevaluatedProperties`) evaluates every key.
    var allProperties = false
    var properties: Set<String> = []
    var patterns: Set<String> = []
    var conditions: [Condition] = []

    /// Whether nothing is evaluated.
    var isEmpty: Bool { self == Evaluated() }

    /// Adds what `other` evaluates (both apply to the same value).
    mutating func formUnion(_ other: Evaluated) {
        allItems = allItems || other.allItems
        prefixItems = max(prefixItems, other.prefixItems)
        contains += other.contains.filter { !contains.contains($0) }
        allProperties = allProperties || other.allProperties
        properties.formUnion(other.properties)
        patterns.formUnion(other.patterns)
        conditions += other.conditions
    }
}

/// Why the evaluated items or keys of a schema cannot be known at generation time.
enum EvaluationLimit: Error {
    case dynamicReference
    case cycle(String)
    case depth
    case branches
}

extension ModelTranslator {
    /// How deep the walk of in-place applicators (`allOf`, `$ref`, `anyOf`, `if`, …) goes.
    static let maximumEvaluationDepth = 32
    /// How many `if` checks the translation of one keyword may hold: each branch whose
    /// annotations count only when it matches doubles the cases (`anyOf` of n such branches:
    /// 2^n - 1 checks).
    static let maximumEvaluationChecks = 255

    /// What the in-place applicators of `entries` evaluate, itself left out of it (`skipping`:
    /// the keyword being translated). Reads with a scratch reader: the keywords it walks are
    /// read, and their problems reported, where they stand.
    mutating func evaluated(_ entries: [Entry], kind: Evaluated.Kind, skipping: String, file: String) throws -> Evaluated {
        var visiting: Set<String> = []
        return try evaluated(entries.filter { $0.key != skipping }, kind: kind, file: file, depth: 0, visiting: &visiting)
    }

    private mutating func evaluated(
        _ node: Node, kind: Evaluated.Kind, file: String, depth: Int, visiting: inout Set<String>
    )
        throws -> Evaluated
    {
        if Self.booleanSchema(node) != nil { return Evaluated() }
        if case .scalar(let scalar) = node, declarations[scalar.string] != nil {
            return try referenced(scalar.string, kind: kind, depth: depth, visiting: &visiting)
        }
        guard case .mapping(let mapping) = node else { return Evaluated() }
        let entries = mapping.compactMap { key, value in key.string.map { Entry(key: $0, keyNode: key, value: value) } }
        return try evaluated(entries, kind: kind, file: file, depth: depth, visiting: &visiting)
    }

    private mutating func evaluated(
        _ entries: [Entry], kind: Evaluated.Kind, file: String, depth: Int, visiting: inout Set<String>
    )
        throws -> Evaluated
    {
        guard depth < Self.maximumEvaluationDepth else { throw EvaluationLimit.depth }
        var result = Evaluated()
        var scratch = NodeReader(file: file)
        for entry in entries {
            switch (entry.key, kind) {
            case ("$dynamicRef", _), ("$recursiveRef", _):
                throw EvaluationLimit.dynamicReference
            case ("items", .items), ("unevaluatedItems", .items):
                result.allItems = true
            case ("prefixItems", .items):
                if case .sequence(let items) = entry.value { result.prefixItems = max(result.prefixItems, items.count) }
            case ("contains", .items):
                result.contains.append(schemaCheck(entry.value, reader: &scratch))
            case ("additionalProperties", .properties), ("unevaluatedProperties", .properties):
                result.allProperties = true
            case ("properties", .properties):
                if case .mapping(let properties) = entry.value { result.properties.formUnion(properties.keys.compactMap(\.string)) }
            case ("patternProperties", .properties):
                if case .mapping(let patterns) = entry.value { result.patterns.formUnion(patterns.keys.compactMap(\.string)) }
            case ("dependentSchemas", .properties):
                // `{ card: S }`: S's annotations count when the object has `card`.
                guard case .mapping(let dependencies) = entry.value else { continue }
                for (key, schema) in dependencies {
                    guard let name = key.string else { continue }
                    let part = try evaluated(schema, kind: kind, file: file, depth: depth + 1, visiting: &visiting)
                    if part.isEmpty { continue }
                    let present = ModelCheck(types: [.object], required: [name])
                    result.conditions.append(Evaluated.Condition(check: present, matched: part, unmatched: Evaluated()))
                }
            case ("allOf", _):
                guard case .sequence(let members) = entry.value else { continue }
                for member in members {
                    result.formUnion(try evaluated(member, kind: kind, file: file, depth: depth + 1, visiting: &visiting))
                }
            case ("anyOf", _), ("oneOf", _):
                // Each branch's annotations count when it matches (anyOf: every branch that
                // matches; oneOf: the one).
                guard case .sequence(let members) = entry.value else { continue }
                for member in members {
                    let part = try evaluated(member, kind: kind, file: file, depth: depth + 1, visiting: &visiting)
                    if part.isEmpty { continue }
                    let check = schemaCheck(member, reader: &scratch)
                    result.conditions.append(Evaluated.Condition(check: check, matched: part, unmatched: Evaluated()))
                }
            case ("if", _):
                var matched = try evaluated(entry.value, kind: kind, file: file, depth: depth + 1, visiting: &visiting)
                if let then = entries["then"] {
                    matched.formUnion(try evaluated(then.value, kind: kind, file: file, depth: depth + 1, visiting: &visiting))
                }
                let unmatched = try entries["else"].map {
                    try evaluated($0.value, kind: kind, file: file, depth: depth + 1, visiting: &visiting)
                }
                if matched.isEmpty && (unmatched?.isEmpty ?? true) { continue }
                let check = schemaCheck(entry.value, reader: &scratch)
                result.conditions.append(Evaluated.Condition(check: check, matched: matched, unmatched: unmatched ?? Evaluated()))
            case ("$ref", _):
                guard let name = resolveReference(entry.value, reader: &scratch), declarations[name] != nil else { continue }
                result.formUnion(try referenced(name, kind: kind, depth: depth, visiting: &visiting))
            default:
                // `not` is left out: its annotations are always dropped (it matches when its
                // schema does not); so is every keyword that applies to other values (`properties`
                // for items, an item's own schema for keys).
                continue
            }
        }
        return result
    }

    /// What the declared model `name` evaluates, read in its own file.
    private mutating func referenced(
        _ name: String, kind: Evaluated.Kind, depth: Int, visiting: inout Set<String>
    ) throws
        -> Evaluated
    {
        guard let declaration = declarations[name] else { return Evaluated() }
        guard visiting.insert(name).inserted else { throw EvaluationLimit.cycle(name) }
        defer { visiting.remove(name) }
        return try evaluated(
            declaration.node, kind: kind, file: declaration.file.source.path, depth: depth + 1, visiting: &visiting)
    }

    /// The check of `unevaluated` (the keyword's schema) on what `evaluated` leaves out: a
    /// tree of `if` checks, one per condition, whose leaves check the items or keys that no
    /// part evaluated on that path. An empty check when every item or key is evaluated, or
    /// when `unevaluated` is `true`.
    static func unevaluatedCheck(_ evaluated: Evaluated, kind: Evaluated.Kind, unevaluated: ModelCheck) throws -> ModelCheck {
        var checks = 0
        return try unevaluatedCheck(evaluated, kind: kind, unevaluated: unevaluated, checks: &checks)
    }

    private static func unevaluatedCheck(
        _ evaluated: Evaluated, kind: Evaluated.Kind, unevaluated: ModelCheck, checks: inout Int
    )
        throws -> ModelCheck
    {
        if unevaluated.isEmpty { return ModelCheck() }
        switch kind {
        case .items where evaluated.allItems: return ModelCheck()
        case .properties where evaluated.allProperties: return ModelCheck()
        default: break
        }
        var base = evaluated
        guard !base.conditions.isEmpty else { return leaf(base, kind: kind, unevaluated: unevaluated) }
        let condition = base.conditions.removeFirst()
        checks += 1
        guard checks <= maximumEvaluationChecks else { throw EvaluationLimit.branches }
        var matched = base
        matched.formUnion(condition.matched)
        var unmatched = base
        unmatched.formUnion(condition.unmatched)
        let then = try unevaluatedCheck(matched, kind: kind, unevaluated: unevaluated, checks: &checks)
        let otherwise = try unevaluatedCheck(unmatched, kind: kind, unevaluated: unevaluated, checks: &checks)
        if then == otherwise { return then }
        return ModelCheck(
            ifSchema: condition.check, thenSchema: then.isEmpty ? nil : then, elseSchema: otherwise.isEmpty ? nil : otherwise)
    }

    /// The check of the items or keys that `evaluated` (with no condition left) leaves out.
    private static func leaf(_ evaluated: Evaluated, kind: Evaluated.Kind, unevaluated: ModelCheck) -> ModelCheck {
        switch kind {
        case .items:
            // The items after the longest prefixItems that match no contains.
            let rest = evaluated.contains.isEmpty ? unevaluated : ModelCheck(anyOf: evaluated.contains + [unevaluated])
            return ModelCheck(prefixItems: Array(repeating: ModelCheck(), count: evaluated.prefixItems), items: rest)
        case .properties:
            var check = ModelCheck(additionalProperties: unevaluated)
            for name in evaluated.properties { check.properties[name] = ModelCheck() }
            for pattern in evaluated.patterns where ModelCheck.isValidPattern(pattern) { check.patternProperties[pattern] = ModelCheck() }
            return check
        }
    }
}

extension ModelCheck {
    /// Whether `pattern` compiles (an invalid one is reported where it stands).
    static func isValidPattern(_ pattern: String) -> Bool { (try? Regex(pattern)) != nil }
}
