import Yams

extension SDKFileTranslator {
    /// Checks sdk.yaml's `models` options (read by `ModelOptions`, before any model): each a
    /// word of its list, reported at its value otherwise.
    func checkModelOptions(_ node: Node, reader: inout NodeReader) {
        guard let items = reader.mapping(node, "models", grammar: Grammar.modelOptions) else { return }
        let options: [(key: String, values: [String])] = [
            ("enums", ModelOptions.Enums.allCases.map(\.rawValue)), ("formats", ModelOptions.Formats.allCases.map(\.rawValue)),
            ("unknown", ModelOptions.Unknown.allCases.map(\.rawValue)),
        ]
        for (key, values) in options {
            guard let entry = items[key], let text = reader.string(entry.value, key) else { continue }
            if !values.contains(text) {
                let hint = Suggestion.hint(for: text, among: values) ?? ""
                reader.error(
                    "models.\(key) must be \(values.map { "'\($0)'" }.joined(separator: " or ")), found '\(text)'\(hint)", at: entry.value)
            }
        }
    }
}
