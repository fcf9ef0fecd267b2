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
