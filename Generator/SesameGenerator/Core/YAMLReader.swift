import Yams

/// A schema file parsed into a `Yams.Node` tree whose nodes keep their line and column.
public struct ParsedFile: @unchecked Sendable {
    // `Yams.Node` holds no shared mutable state we touch; it is not marked Sendable upstream.
    public var source: SchemaSource
    /// The document's root; nil for an empty file or one that did not parse.
    public var root: Node?

    public init(source: SchemaSource, root: Node?) {
        self.source = source
        self.root = root
    }
}

/// Parses YAML text into nodes, turning libyaml's errors into positioned diagnostics.
public enum YAMLReader {
    /// Parses one file. A syntax error gives one diagnostic at libyaml's position and a nil root.
    public static func parse(_ source: SchemaSource) -> (file: ParsedFile, diagnostics: [Diagnostic]) {
        var aliasBudget = aliasedNodeLimit
        return parse(source, aliasBudget: &aliasBudget)
    }

    /// Parses one file of a schema whose files share `aliasBudget`, the nodes their aliases
    /// may still add (``aliasedNodeLimit`` for the first file).
    static func parse(_ source: SchemaSource, aliasBudget: inout Int) -> (file: ParsedFile, diagnostics: [Diagnostic]) {
        do {
            // The basic resolver tags every plain scalar as a string: the translators read
            // numbers, booleans and nulls themselves, and skipping Yams's seven regular
            // expressions per scalar halves the time to read a large schema.
            // Once one file went past the shared budget (its error said so), a later file whose
            // aliases need more is not composed either, without an error of its own.
            let exhausted = aliasBudget < 0
            if let error = aliasExpansionError(in: source, budget: &aliasBudget) {
                return (ParsedFile(source: source, root: nil), exhausted ? [] : [error])
            }
            let root = try Yams.compose(yaml: source.text, .basic)
            if let root, let error = nestingError(in: root, source: source) {
                return (ParsedFile(source: source, root: nil), [error])
            }
            return (ParsedFile(source: source, root: root), [])
        } catch let error as YamlError {
            return (ParsedFile(source: source, root: nil), [diagnostic(for: error, in: source)])
        } catch {
            return (
                ParsedFile(source: source, root: nil),
                [.error("the file could not be read as YAML", at: SourceLocation(file: source.path, line: 1, column: 1))]
            )
        }
    }

    static func diagnostic(for error: YamlError, in source: SchemaSource) -> Diagnostic {
        func location(_ mark: Mark) -> SourceLocation {
            SourceLocation(file: source.path, line: max(mark.line, 1), column: max(mark.column, 1))
        }
        func location(_ position: (line: Int, column: Int)) -> SourceLocation {
            SourceLocation(file: source.path, line: max(position.line, 1), column: max(position.column, 1))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) (\($0.text) at \($0.mark.line):\($0.mark.column))" } ?? problem
            return .error("invalid YAML: \(detail)", at: location(mark))
        case .reader(let problem, let offset, _, _):
            let position = offset.map { lineAndColumn(ofCharacterOffset: $0, in: source.text) } ?? (1, 1)
            return .error("the file is not valid UTF-8 text: \(problem)", at: location(position))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? "?"
            let position =
                secondOccurrence(ofKey: key, after: (context.mark.line, context.mark.column), in: source.text)
                ?? (context.mark.line, context.mark.column)
            return .error("duplicate key '\(key)'; a mapping may name each key once", at: location(position))
        default:
            return .error("invalid YAML: \(error)", at: SourceLocation(file: source.path, line: 1, column: 1))
        }
    }

    /// Finds the repeated key libyaml complains about: the next line, at the same column,
    /// that starts with the key and a colon.
    static func secondOccurrence(ofKey key: String, after mark: (line: Int, column: Int), in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: lineBreaks.contains)
        guard mark.line >= 1, mark.line <= lines.count, mark.column >= 1 else { return nil }
        for index in mark.line..<lines.count {
            let scalars = Array(lines[index].unicodeScalars)
            guard scalars.count >= mark.column else { continue }
            let rest = String(String.UnicodeScalarView(scalars[(mark.column - 1)...]))
            let indentation = scalars[..<(mark.column - 1)].allSatisfy { $0 == " " || $0 == "-" }
            if indentation, rest.hasPrefix(key + ":") || rest.hasPrefix("\"\(key)\":") || rest.hasPrefix("'\(key)':") {
                return (index + 1, mark.column)
            }
        }
        return nil
    }

    /// The characters libyaml counts as line breaks: a lone `\r` ends a line too, so that
    /// splitting on `\n` alone would find fewer lines than libyaml's marks count
    /// (`\r\n` is one `Character`).
    static let lineBreaks: Set<Character> = ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"]

    static func lineAndColumn(ofCharacterOffset offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for (index, character) in text.enumerated() {
            if index >= offset { break }
            if lineBreaks.contains(character) {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}
