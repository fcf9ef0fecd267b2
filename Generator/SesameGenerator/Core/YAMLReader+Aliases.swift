import Yams

extension YAMLReader {
    /// How many nodes aliases may add to a file. An alias is the node it names again, so a
    /// list of ten aliases to a list of ten aliases to … ("billion laughs") grows a file of a
    /// few lines into billions of nodes that every later stage would walk. Shared blocks in a
    /// real schema add hundreds.
    static let aliasedNodeLimit = 100_000

    /// An error at the repeated node when aliases add more than `aliasedNodeLimit` nodes.
    ///
    /// Composing resolves each alias to a copy of its anchor's node, marks included, so a
    /// collection met again at a position already seen is an alias. Each distinct position
    /// is counted once, which keeps the check linear in the file.
    ///
    /// An alias is written `*name`, so a file without a `*` has none and is not walked: most
    /// schemas skip the walk, which cost about a tenth of the pipeline's time at 2,000 models.
    static func aliasExpansionError(_ root: Node, in source: SchemaSource) -> Diagnostic? {
        guard source.text.utf8.contains(UInt8(ascii: "*")) else { return nil }
        var sizes: [Position: Int] = [:]
        var added = 0
        var culprit: Mark?

        // The node's size with aliases expanded, capped above the limit so it cannot overflow.
        func size(_ node: Node) -> Int {
            let children: [Node]
            switch node {
            case .mapping(let mapping): children = mapping.flatMap { [$0.key, $0.value] }
            case .sequence(let sequence): children = Array(sequence)
            default: return 1
            }
            let position = node.mark.map { Position(line: $0.line, column: $0.column) }
            if let position, let known = sizes[position] {
                added = min(added + known, aliasedNodeLimit + 1)
                if added > aliasedNodeLimit, culprit == nil { culprit = node.mark }
                return known
            }
            var total = 1
            for child in children where culprit == nil {
                total = min(total + size(child), aliasedNodeLimit + 1)
            }
            if let position { sizes[position] = total }
            return total
        }

        _ = size(root)
        guard let culprit else { return nil }
        return .error(
            "aliases repeat this node until the file would hold over \(aliasedNodeLimit) more nodes; "
                + "share smaller blocks, or write them out",
            at: SourceLocation(file: source.path, line: culprit.line, column: culprit.column))
    }

    private struct Position: Hashable {
        var line: Int
        var column: Int
    }
}
