/// The key tables of docs/format.md, rendered from the grammar table (`Grammar`): one
/// markdown table per mapping (key, type, default / required, meaning), each between
/// `<!-- grammar: <mapping> -->` and `<!-- /grammar -->`, the markers that
/// scripts/grammar-tables.py finds in docs/format.md to rewrite the region between them.
/// A mapping marked `inline` has no table of its own: its keys are rows of its holder's
/// table (`server.baseURL`). Same table, same bytes.
public enum FormatMarkdown {
    /// Every table, in the order the mappings are first reached from `Grammar.all`, each
    /// between its markers and followed by a blank line.
    public static func render() -> String {
        mappings().filter { !$0.inline }.map { region($0) + "\n" }.joined(separator: "\n")
    }

    /// The region of one mapping: its markers and its table, without a final newline.
    static func region(_ mapping: GrammarMapping) -> String {
        "<!-- grammar: \(mapping.name) -->\n" + table(mapping) + "<!-- /grammar -->"
    }

    /// The table of one mapping, each line ending in a newline.
    static func table(_ mapping: GrammarMapping) -> String {
        var writer = TableWriter()
        writer.row(["key of `\(mapping.name)`", "type", "default / required", "meaning"])
        writer.row(["---", "---", "---", "---"])
        // An explicit stack of the keys still to print: an inline mapping's rows come right
        // after the row of the key that holds it.
        var stack: [(prefix: String, keys: ArraySlice<GrammarKey>, mapping: GrammarMapping)] = [("", mapping.keys[...], mapping)]
        while var top = stack.popLast() {
            guard let key = top.keys.popFirst() else { continue }
            stack.append(top)
            let name = top.prefix + key.name
            writer.row(["`\(name)`", type(key.value), rules(key, of: top.mapping).joined(separator: "; ").nonEmpty ?? "—", key.meaning])
            if let (suffix, inner) = inlineMapping(key.value) { stack.append((name + suffix + ".", inner.keys[...], inner)) }
        }
        return writer.text
    }

    /// The key's rules, with the mapping's "at least one of" keys (the JSON Schema's `anyOf`
    /// of `required`s) said as such.
    private static func rules(_ key: GrammarKey, of mapping: GrammarMapping) -> [String] {
        guard mapping.requiresOneOf.contains(key.name) else { return key.rules }
        let others = mapping.requiresOneOf.filter { $0 != key.name }
        let rule = others.isEmpty ? "required" : "required unless " + others.map { "`\($0)`" }.joined(separator: " or ")
        return [rule] + key.rules
    }

    /// The inline mapping a key holds, directly or as a dictionary's values, with the path
    /// between the key and the inner keys (`.<name>` for a dictionary).
    private static func inlineMapping(_ value: GrammarValue) -> (String, GrammarMapping)? {
        switch value {
        case .mapping(let mapping) where mapping.inline: return ("", mapping)
        case .dictionary(_, .mapping(let mapping), _) where mapping.inline: return (".<name>", mapping)
        default: return nil
        }
    }

    /// Every mapping reachable from the shared forms and `Grammar.all`, first reached first,
    /// each once: a work list, since mappings hold mappings.
    static func mappings() -> [GrammarMapping] {
        var seen: Set<String> = []
        var result: [GrammarMapping] = []
        var work: [GrammarValue] = Grammar.all.map { .mapping($0) } + Grammar.shared.map(\.value)
        while !work.isEmpty {
            let value = work.removeFirst()
            switch value {
            case .mapping(let mapping):
                guard seen.insert(mapping.name).inserted else { continue }
                result.append(mapping)
                work.insert(contentsOf: mapping.keys.map(\.value) + (mapping.names.map { [$0.value] } ?? []), at: 0)
            case .list(let item, _, _): work.insert(item, at: 0)
            case .dictionary(let names, let values, _): work.insert(contentsOf: [names, values].compactMap { $0 }, at: 0)
            case .either(let forms): work.insert(contentsOf: forms, at: 0)
            case .refined(let base, _): work.insert(base, at: 0)
            default: continue
            }
        }
        return result
    }

    /// The shared forms a reader knows by a section of docs/format.md, not by their name in
    /// the JSON Schema's `$defs`. A shared form of a few words (`encoding`) shows its words.
    private static let sharedLabels: [String: String] = [
        "identifier": "[identifier](#names)",
        "duration": "[duration](#durations)",
        "requestLine": "[request line](#request-lines)",
        "template": "[template](#templates)",
        "modelName": "model name",
        "schemaRef": "[`$ref`](#ref)",
        "schema": "[schema](#models)",
        "schemaOrName": "model name or [schema](#models)",
        "subschema": "model name, [schema](#models) or boolean",
        "parameterSchema": "model name or [schema](#models)",
    ]

    /// A value's type in a few words of markdown.
    static func type(_ value: GrammarValue) -> String {
        switch value {
        case .string: return "string"
        case .integer(let minimum, let maximum):
            switch (minimum, maximum) {
            case (let minimum?, let maximum?): return "integer, \(minimum)–\(maximum)"
            case (let minimum?, nil): return "integer ≥ \(minimum)"
            case (nil, let maximum?): return "integer ≤ \(maximum)"
            case (nil, nil): return "integer"
            }
        case .number(let exclusiveMinimum): return exclusiveMinimum.map { "number > \($0)" } ?? "number"
        case .boolean: return "boolean"
        case .any: return "any"
        case .oneOf(let words): return words.map { "`\($0)`" }.joined(separator: ", ")
        case .jsonTypes(let types): return types.joined(separator: ", ")
        case .list(let item, _, _): return "list of " + type(item)
        case .dictionary(_, let values, _): return "names → " + type(values)
        case .mapping(let mapping): return mapping.inline ? "mapping" : "mapping (`\(mapping.name)`)"
        case .either(let forms): return forms.map(type).joined(separator: " or ")
        case .shared(let name):
            if let label = sharedLabels[name] { return label }
            if case .oneOf? = Grammar.shared.first(where: { $0.name == name })?.value {
                return type(Grammar.shared.first { $0.name == name }!.value)
            }
            return name
        case .refined(let base, _): return type(base)
        case .template(let placeholders): return "template of " + placeholders.sorted().map { "`{\($0)}`" }.joined(separator: ", ")
        }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

/// A markdown table's rows: cells joined by ` | `, a `|` inside a cell escaped.
private struct TableWriter {
    private(set) var text = ""

    mutating func row(_ cells: [String]) {
        text += "| " + cells.map { String($0.flatMap { $0 == "|" ? ["\\", "|"] : [$0] }) }.joined(separator: " | ") + " |\n"
    }
}
