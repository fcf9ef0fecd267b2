import Yams

extension YAMLReader {
    /// How deep mappings and lists may nest in a schema file. Every stage walks a schema
    /// by recursion over its nesting (inline objects, arrays of arrays, literals, JSON
    /// checks, nested types), and a debug build of the generator spends up to 60 KB of stack
    /// per level: 150 nested arrays, one line of YAML, would overflow an 8 MB stack.
    /// libyaml's own limit (1,000) is too high for that. A real schema nests a dozen levels;
    /// the limit is the reason no walk over a schema's structure needs a depth check of
    /// its own. Walks over references (`allOf`, `oneOf`, `default` through `$ref`, cycles)
    /// do not nest and have no limit (see `ModelTranslator.translate`).
    public static let maximumNesting = 64

    /// An error at the first collection (in document order) that lies deeper than
    /// `maximumNesting`, the root being at depth 1; nil when none does. Recursive, but never
    /// more than `maximumNesting + 1` calls deep (it does not descend past the limit), and it
    /// builds no list of children: an iterative walk that did cost 6% of the time to generate
    /// a 2,000-model schema.
    static func nestingError(in root: Node, source: SchemaSource) -> Diagnostic? {
        guard let node = firstTooDeep(root, depth: 1) else { return nil }
        let mark = node.mark
        return .error(
            "mappings and lists nest more than \(maximumNesting) levels deep here; Sesame reads at most \(maximumNesting) (declare the inner schemas as models and use $ref)",
            at: SourceLocation(file: source.path, line: max(mark?.line ?? 1, 1), column: max(mark?.column ?? 1, 1)))
    }

    /// The first collection at or under `node` (at `depth`) deeper than `maximumNesting`.
    private static func firstTooDeep(_ node: Node, depth: Int) -> Node? {
        switch node {
        case .scalar, .alias:
            return nil
        case .mapping(let mapping):
            if depth > maximumNesting { return node }
            for pair in mapping {
                if let found = firstTooDeep(pair.key, depth: depth + 1) ?? firstTooDeep(pair.value, depth: depth + 1) {
                    return found
                }
            }
            return nil
        case .sequence(let sequence):
            if depth > maximumNesting { return node }
            for item in sequence {
                if let found = firstTooDeep(item, depth: depth + 1) { return found }
            }
            return nil
        }
    }
}
