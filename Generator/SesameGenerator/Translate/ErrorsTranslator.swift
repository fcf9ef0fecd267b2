@_spi(Generated) import SesameDescription

/// Translates `errors.yaml`: the error envelope and the catalogue of codes, each with its
/// status and category.
struct ErrorsTranslator {
    private(set) var diagnostics: [Diagnostic] = []

    mutating func translate(_ file: ParsedFile?) -> ErrorsIR {
        var result = ErrorsIR(codeField: "error", messageField: "error_description", errors: [])
        guard let file, let root = file.root else { return result }
        var reader = NodeReader(file: file.source.path)
        defer { diagnostics += reader.diagnostics }
        guard let entries = reader.mapping(root, "errors.yaml", grammar: Grammar.errorsFile) else { return result }
        if let envelope = entries["envelope"], let items = reader.mapping(envelope.value, "envelope", grammar: Grammar.envelope) {
            if let code = items["code"], let field = reader.string(code.value, "code") { result.codeField = field }
            result.messageField = items["message"].flatMap { reader.string($0.value, "message") }
        }
        for entry in entries["errors"].flatMap({ reader.mapping($0.value, "errors") }) ?? [] {
            guard let items = reader.mapping(entry.value, "error '\(entry.key)'", grammar: Grammar.error, missingAt: entry.keyNode)
            else { continue }
            var status = 400
            if let value = items["status"].flatMap({ reader.int($0.value, "status") }) {
                if (400...599).contains(value) {
                    status = value
                } else {
                    reader.error("status must be an HTTP error status (400–599)", at: items["status"]!.value)
                }
            }
            var category = ErrorCategory.client
            if let categoryEntry = items["category"], let text = reader.string(categoryEntry.value, "category") {
                if let value = ErrorCategory(rawValue: text) {
                    category = value
                } else {
                    reader.error(
                        "category must be one of \(ErrorCategory.allCases.map(\.rawValue).joined(separator: ", ")), found '\(text)'",
                        at: categoryEntry.value)
                }
            }
            result.errors.append(
                ErrorIR(
                    code: entry.key, status: status, category: category,
                    description: items["description"].flatMap { reader.string($0.value, "description") },
                    location: reader.location(of: entry.keyNode)))
        }
        return result
    }
}
