import Yams

/// Reads one file's nodes and collects diagnostics at their positions.
///
/// Every accessor that finds the wrong kind of node reports it and returns nil, so that a
/// translator can go on and report every problem of a file in one run.
struct NodeReader {
    let file: String
    /// Whether an unknown keyword or format of a schema is ignored with a note instead of
    /// refused: in a referenced document, which the team does not own and JSON Schema reads
    /// so (an unknown keyword is ignored, an unknown format an annotation), and in the
    /// models files with `models: { unknown: ignore }`. `x-` keys (OpenAPI's extensions) are
    /// ignored silently.
    var ignoresUnknown: Bool
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String, ignoresUnknown: Bool = false) {
        self.file = file
        self.ignoresUnknown = ignoresUnknown
    }

    func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(file: file, line: 1, column: 1) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    mutating func error(_ message: String, at node: Node) {
        diagnostics.append(.error(message, at: location(of: node)))
    }

    mutating func warning(_ message: String, at node: Node) {
        diagnostics.append(.warning(message, at: location(of: node)))
    }

    mutating func note(_ message: String, at node: Node) {
        diagnostics.append(Diagnostic(.note, message, at: location(of: node)))
    }

    mutating func append(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    // MARK: Scalars

    /// The text of a scalar node, or nil (with an error) for a mapping or a sequence.
    mutating func string(_ node: Node, _ what: String) -> String? {
        if case .scalar(let scalar) = node { return scalar.string }
        error("\(what) must be a string, found \(node.kindName)", at: node)
        return nil
    }

    mutating func int(_ node: Node, _ what: String) -> Int? {
        if case .scalar = node, let value = node.int { return value }
        error("\(what) must be an integer, found \(node.describedValue)", at: node)
        return nil
    }

    mutating func bool(_ node: Node, _ what: String) -> Bool? {
        if case .scalar = node, let value = node.bool { return value }
        error("\(what) must be true or false, found \(node.describedValue)", at: node)
        return nil
    }

    /// A finite number: JSON has no infinity or NaN, and the Swift it renders could not spell them.
    mutating func number(_ node: Node, _ what: String) -> Double? {
        if case .scalar = node, let value = node.int.map(Double.init) ?? node.float {
            if value.isFinite { return value }
            error("\(what) must be a finite number, found \(node.describedValue)", at: node)
            return nil
        }
        error("\(what) must be a number, found \(node.describedValue)", at: node)
        return nil
    }

    /// A duration such as `300s`, `5m`, `1h`, `250ms` or a bare number of seconds.
    mutating func duration(_ node: Node, _ what: String) -> DurationIR? {
        guard let text = string(node, what) else { return nil }
        if let value = DurationIR(text) { return value }
        error("\(what) must be a duration such as 60s, 5m, 1h or 250ms, found '\(text)'", at: node)
        return nil
    }

    // MARK: Containers

    /// The entries of a mapping with string keys, in file order, whatever the keys: a
    /// mapping of names (operations, properties, fields). A mapping of keywords is read
    /// through its grammar instead (`mapping(_:_:grammar:missingAt:)`), which refuses
    /// unknown keys.
    mutating func mapping(_ node: Node, _ what: String) -> [Entry]? {
        guard case .mapping(let mapping) = node else {
            error("\(what) must be a mapping, found \(node.kindName)", at: node)
            return nil
        }
        var entries: [Entry] = []
        entries.reserveCapacity(mapping.count)
        for index in mapping.indices {
            let (keyNode, value) = mapping[index]
            guard case .scalar(let scalar) = keyNode else {
                error("keys of \(what) must be strings", at: keyNode)
                continue
            }
            entries.append(Entry(key: scalar.string, keyNode: keyNode, value: value))
        }
        return entries
    }

    /// The elements of a sequence.
    mutating func sequence(_ node: Node, _ what: String) -> [Node]? {
        if case .sequence(let sequence) = node { return Array(sequence) }
        error("\(what) must be a list, found \(node.kindName)", at: node)
        return nil
    }

    /// A list of strings; a single string is accepted as a list of one.
    mutating func strings(_ node: Node, _ what: String) -> [(String, Node)]? {
        if case .scalar(let scalar) = node { return [(scalar.string, node)] }
        guard let items = sequence(node, what) else { return nil }
        return items.compactMap { item in string(item, "an element of \(what)").map { ($0, item) } }
    }
}

/// A key and its value in a mapping, with the key's node for positions.
struct Entry {
    var key: String
    var keyNode: Node
    var value: Node
}

extension Array where Element == Entry {
    /// The entry of `key`. Compares the keys in place: `first(where:)` copied every entry it
    /// passed (two nodes, each retained and released), and schemas look up many keywords.
    subscript(key: String) -> Entry? {
        for index in indices where self[index].key == key { return self[index] }
        return nil
    }
}

extension Node {
    var kindName: String {
        switch self {
        case .scalar: return "a scalar"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    var describedValue: String {
        if case .scalar(let scalar) = self { return "'\(scalar.string)'" }
        return kindName
    }

    var isNullScalar: Bool {
        if case .scalar(let scalar) = self {
            return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
        }
        return false
    }
}
