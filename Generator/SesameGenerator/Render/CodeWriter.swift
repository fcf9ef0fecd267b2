/// An indentation-tracking text writer: the renderers' only way to produce Swift.
struct CodeWriter {
    private(set) var text: String = ""
    private var depth = 0
    private static let unit = "    "

    init(capacity: Int = 4096) {
        text.reserveCapacity(capacity)
    }

    /// Writes one line at the current indentation (an empty string writes a blank line).
    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
            return
        }
        for _ in 0..<depth { text += CodeWriter.unit }
        text += content
        text += "\n"
    }

    /// Writes `opening {`, the body one level deeper, then `}` (or `closing`).
    mutating func block(_ opening: String, closing: String = "}", _ body: (inout CodeWriter) -> Void) {
        line(opening + " {")
        depth += 1
        body(&self)
        depth -= 1
        line(closing)
    }

    /// Writes the body one level deeper with no braces (switch cases).
    mutating func indented(_ body: (inout CodeWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    /// Writes a `///` documentation comment; each line of `text` becomes a comment line,
    /// so no text from the schema can end the comment or start code.
    mutating func doc(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        for piece in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let cleaned = SwiftName.commentSafe(String(piece))
            line(cleaned.isEmpty ? "///" : "/// \(cleaned)")
        }
    }
}
