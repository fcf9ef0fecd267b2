import Foundation
import Yams

extension DiscoveryImport {
    /// Why the scalar `value` of `key`, at `mark`, cannot be replaced as a one-line text edit
    /// without changing something else; nil when it can. An alias (`*iss`) reads the node of
    /// its anchor, whose definition elsewhere would be rewritten; an anchored value (`&iss`)
    /// would lose its anchor; a tagged value its tag; a block scalar (`|`, `>`) or a value on
    /// the next line leaves lines behind that fold into the new value. A sequence must be a
    /// flow sequence (`[RS256, ES256]`) that closes on its line.
    static func unsafeToReplace(_ node: Node, at mark: Mark, key: Node, lines: [String]) -> String? {
        guard let keyMark = key.mark, mark.line == keyMark.line, mark.column > keyMark.column,
            lines.indices.contains(mark.line - 1)
        else {
            if case .sequence = node { return "is not a one-line flow sequence ([RS256, ES256])" }
            return "is an alias, or its value does not start on its line"
        }
        let line = Array(lines[mark.line - 1])
        guard line.indices.contains(mark.column - 1) else { return "is not a one-line value" }
        switch line[mark.column - 1] {
        case "*": return "is an alias (*)"
        case "&": return "is anchored (&)"
        case "!": return "is tagged (!)"
        case "|", ">": return "is a block scalar (| or >)"
        default: break
        }
        if case .scalar(let value) = node, value.style == .literal || value.style == .folded { return "is a block scalar (| or >)" }
        if case .sequence = node, line[mark.column - 1] != "[" || closingBracket(in: line, from: mark.column - 1) == nil {
            return "is not a one-line flow sequence ([RS256, ES256])"
        }
        return nil
    }

    /// Parses `updated` again and checks that the edit did what it meant and nothing else:
    /// the `values` of the top-level mapping `name` read back exactly, and every other node of
    /// the file (`original`) has the same value.
    /// - Returns: nil when it did; else an error refusing to write, at the file's start.
    static func verify(
        _ updated: String, against original: Node, mapping name: String, values: [EditedValue], file: String
    )
        -> Diagnostic?
    {
        let refusal = { (why: String) in
            Diagnostic(
                .error, "the edit would \(why): nothing written; set \(name) by hand",
                at: SourceLocation(file: file, line: 1, column: 1))
        }
        guard let root = try? Yams.compose(yaml: updated), case .mapping(let top) = root else {
            return refusal("not leave a YAML mapping")
        }
        guard case .mapping(let mapping)? = top.first(where: { $0.key.string == name })?.value else {
            return refusal("leave no \(name) mapping")
        }
        for value in values {
            let found = mapping.filter { $0.key.string == value.key }
            guard found.count == 1, value.readsBack(found[0].value) else {
                return refusal("not set \(value.key) to its value")
            }
        }
        let edited = Set(values.map { "/\(name)/" + $0.key })
        guard flatten(root, mapping: name, skipping: edited) == flatten(original, mapping: name, skipping: edited) else {
            return refusal("change another value of the file")
        }
        return nil
    }

    /// Every node of `root` as `path=value` lines, sorted, leaving out the paths in
    /// `skipping` and the count of the edited `mapping`; walked with a work list, not recursion.
    private static func flatten(_ root: Node, mapping name: String, skipping: Set<String>) -> [String] {
        var lines: [String] = []
        var work: [(node: Node, path: String)] = [(root, "")]
        while let (node, path) = work.popLast() {
            switch node {
            case .scalar(let scalar):
                lines.append("\(path)=\(node.tag.description):\(scalar.string)")
            case .alias:
                lines.append("\(path)=*")
            case .sequence(let sequence):
                lines.append("\(path)=[\(sequence.count)]")
                for (index, item) in sequence.enumerated() { work.append((item, "\(path)/\(index)")) }
            case .mapping(let mapping):
                // The mapping whose keys the edit may insert has no count of its own here.
                if path != "/\(name)" && path != "" { lines.append("\(path)={}") }
                for (index, pair) in mapping.enumerated() {
                    let name = pair.key.string.map { $0.replacingOccurrences(of: "/", with: "%2F") } ?? "#\(index)"
                    let child = "\(path)/\(name)"
                    guard !skipping.contains(child) else { continue }
                    if child != "/\(name)" { work.append((pair.key, child + "#key")) }
                    work.append((pair.value, child))
                }
            }
        }
        return lines.sorted()
    }
}
