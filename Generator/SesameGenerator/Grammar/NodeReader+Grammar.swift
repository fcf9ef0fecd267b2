import Yams

extension NodeReader {
    /// The entries of a mapping that `grammar` declares, in file order.
    ///
    /// Reports each key the grammar does not accept as "unknown key 'k' in <what>" with the
    /// closest declared key, and each missing required key as "<what><the key's missing
    /// sentence>" at `missingAt` (the mapping itself by default); the unknown keys are left
    /// out. Nil, with an error, when the node is not a mapping.
    mutating func mapping(_ node: Node, _ what: String, grammar: GrammarMapping, missingAt: Node? = nil) -> GrammarFields? {
        guard var kept = mapping(node, what) else { return nil }
        // Most mappings hold only keys the grammar accepts: keep their array as it is.
        if !kept.allSatisfy({ grammar.accepts($0.key) }) {
            kept = reportUnknownKeys(kept, what, grammar: grammar)
        }
        for key in grammar.requiredKeys {
            guard let missing = key.missing, !kept.contains(where: { $0.key == key.name }) else { continue }
            error("\(what)\(missing)", at: missingAt ?? node)
        }
        GrammarLog.current?.reached(grammar.name)
        return GrammarFields(entries: kept, grammar: grammar)
    }

    /// The entries whose keys the grammar accepts; each other key is an error with the
    /// closest declared key suggested.
    private mutating func reportUnknownKeys(_ entries: [Entry], _ what: String, grammar: GrammarMapping) -> [Entry] {
        var kept: [Entry] = []
        for entry in entries {
            if grammar.accepts(entry.key) {
                kept.append(entry)
                continue
            }
            if ignoresUnknown && grammar.name == Grammar.schema.name {
                // OpenAPI's extensions, silently; any other key with a note (a typo in a
                // document the team does not own is not theirs to fix).
                if !entry.key.hasPrefix("x-") {
                    note("unknown key '\(entry.key)' in \(what) is ignored", at: entry.keyNode)
                }
                continue
            }
            let suggestion = Suggestion.hint(for: entry.key, among: grammar.keyNames)
            var hint = ""
            if let names = grammar.names, names.always || suggestion == nil { hint = names.hint }
            error("unknown key '\(entry.key)' in \(what)\(hint)\(suggestion ?? "")", at: entry.keyNode)
        }
        return kept
    }
}

/// The entries of a mapping read through the grammar. Looking a key up by name records it
/// in the `GrammarLog` of the current task, if any, for the tests that keep the table and
/// the translators in step.
struct GrammarFields: RandomAccessCollection {
    /// The accepted entries, in file order.
    let entries: [Entry]
    let grammar: GrammarMapping

    var startIndex: Int { entries.startIndex }
    var endIndex: Int { entries.endIndex }
    subscript(position: Int) -> Entry { entries[position] }

    /// The entry of a declared key, if present.
    subscript(key: String) -> Entry? {
        GrammarLog.current?.read(key, of: grammar)
        return entries.first { $0.key == key }
    }

    /// The entries whose keys are names (a store section's versions), not declared keys.
    var named: [Entry] {
        entries.filter { grammar.key($0.key) == nil && !grammar.refused.contains($0.key) }
    }
}
