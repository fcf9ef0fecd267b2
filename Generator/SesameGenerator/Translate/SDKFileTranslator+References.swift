import Yams

extension SDKFileTranslator {
    /// Checks sdk.yaml's `references` (read by `ReferenceSettings`, before any model): each
    /// root a relative folder, each map entry an absolute URI prefix and a relative path.
    func checkReferences(_ node: Node, reader: inout NodeReader) {
        guard let items = reader.mapping(node, "references", grammar: Grammar.references) else { return }
        if let roots = items["roots"], let list = reader.sequence(roots.value, "roots") {
            for root in list {
                guard let path = reader.string(root, "a root") else { continue }
                if path.isEmpty || path.hasPrefix("/") || path.contains("://") {
                    reader.error("a root is a folder relative to the schema folder, such as ../api; found '\(path)'", at: root)
                }
            }
        }
        if let map = items["map"], let entries = reader.mapping(map.value, "map") {
            for entry in entries {
                if !entry.key.contains(":") {
                    reader.error("a map key is an absolute URI prefix, such as https://example.com/schemas/", at: entry.keyNode)
                }
                guard let path = reader.string(entry.value, "a mapped path") else { continue }
                if path.isEmpty || path.hasPrefix("/") || path.contains("://") {
                    reader.error(
                        "a mapped path is relative to the schema folder, such as ../api/schemas/; found '\(path)'", at: entry.value)
                }
            }
        }
    }
}

extension SDKFileTranslator {
    /// Checks sdk.yaml's `models` options (read by `ModelOptions`, before any model): each a
    /// word of its list, reported at its value otherwise.
    func checkModelOptions(_ node: Node, reader: inout NodeReader) {
        guard let items = reader.mapping(node, "models", grammar: Grammar.modelOptions) else { return }
        let options: [(key: String, values: [String])] = [
            ("enums", ModelOptions.Enums.allCases.map(\.rawValue)), ("formats", ModelOptions.Formats.allCases.map(\.rawValue)),
        ]
        for (key, values) in options {
            guard let entry = items[key], let text = reader.string(entry.value, key) else { continue }
            if !values.contains(text) {
                let hint = Suggestion.closest(to: text, in: values).map { "; did you mean '\($0)'?" } ?? ""
                reader.error(
                    "models.\(key) must be \(values.map { "'\($0)'" }.joined(separator: " or ")), found '\(text)'\(hint)", at: entry.value)
            }
        }
    }
}
