import Yams

extension YAMLReader {
    /// How deep mappings and lists may nest in a schema file. Every stage walks a schema
    /// by recursion over its nesting (inline objects, arrays of arrays, literals, JSON
    /// checks, nested types), and a debug build of the generator spends up to 60 KB of stack
    /// per level: 150 nested arrays, one line of YAML, overflowed an 8 MB stack (issue 29).
    /// libyaml's own limit (1,000) is too high for that. A real schema nests a dozen levels;
    /// the limit is the reason no walk over a schema's structure needs a depth check of
    /// its own. Walks over references (`allOf`, `oneOf`, `default` through `$ref`, cycles)
    /// do not nest and have no limit (see `ModelTranslator.translate`).
    public static let maximumNesting = 64

    /// An error at the first collection (in document order) that lies deeper than
    /// `maximumNesting`, the root being at depth 1; nil when none does. Iterative.
    static func nestingError(in root: Node, source: SchemaSource) -> Diagnostic? {
        var stack: [(node: Node, depth: Int)] = [(root, 1)]
        while let (node, depth) = stack.popLast() {
            let children: [Node]
            switch node {
            case .mapping(let mapping): children = mapping.flatMap { [$0.key, $0.value] }
            case .sequence(let sequence): children = Array(sequence)
            case .scalar, .alias: continue
            }
            if depth > maximumNesting {
                let mark = node.mark
                return .error(
                    "mappings and lists nest more than \(maximumNesting) levels deep here; Sesame reads at most \(maximumNesting) (declare the inner schemas as models and use $ref)",
                    at: SourceLocation(file: source.path, line: max(mark?.line ?? 1, 1), column: max(mark?.column ?? 1, 1)))
            }
            stack += children.reversed().map { ($0, depth + 1) }
        }
        return nil
    }
}
