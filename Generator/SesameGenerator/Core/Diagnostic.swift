/// A position in a schema file: 1-based line and column (columns count Unicode scalars,
/// as libyaml does).
public struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The file's path as the caller named it (relative paths stay relative).
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// A problem found in a schema, printed the way compilers print theirs:
/// `Schema/auth.yaml:12:7: error: unknown model 'Tokn'`.
///
/// Validators return diagnostics as values; they never print.
public struct Diagnostic: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        case note, warning, error

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            let order: [Severity] = [.note, .warning, .error]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    public var severity: Severity
    public var message: String
    /// Where the problem is; nil for problems with no single position (an empty folder).
    public var location: SourceLocation?

    /// A diagnostic; line breaks and other invisible characters a quoted name brings into
    /// `message` are written as escapes (`\n`, `\u{2028}`), so it prints on one line.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation?) {
        self.severity = severity
        self.message = Self.printable(message)
        self.location = location
    }

    private static func printable(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: SwiftName.isHidden) else { return message }
        var result = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where SwiftName.isHidden(scalar): result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    public static func error(_ message: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    public static func warning(_ message: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// The diagnostics in file, line, column order (those with no position first), so
    /// that output does not depend on the order checks ran in.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case (nil, nil): return lhs.offset < rhs.offset
            case (nil, _): return true
            case (_, nil): return false
            case (let l?, let r?): return l == r ? lhs.offset < rhs.offset : l < r
            }
        }.map(\.element)
    }
}
