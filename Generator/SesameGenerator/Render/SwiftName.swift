/// Turns names from the schema into Swift identifiers and literals that cannot inject code.
enum SwiftName {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "async", "some", "any", "_", "consume", "copy", "borrowing", "consuming", "package", "Type", "Protocol",
    ]

    /// Names that a member cannot take even escaped, because generated code or Swift
    /// itself uses them on every type.
    static let reservedMembers: Set<String> = ["self", "Type", "Protocol", "init", "description", "hashValue"]

    /// Splits a name into words at `_`, `-`, `.`, spaces, non-identifier characters and
    /// lower-to-upper case changes.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name {
            if !(character.isLetter || character.isNumber) {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, character.isUppercase, previous.isLowercase || previous.isNumber {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Type names the generated code uses and a model must not shadow: a model called
    /// `Date` becomes `DateModel`.
    static let reservedTypeNames: Set<String> = [
        "Swift", "Foundation", "Sesame", "String", "Int", "Double", "Bool", "Array", "Dictionary", "Set", "Optional",
        "Error", "Data", "Date", "URL", "UUID", "Decoder", "Encoder", "Codable", "CodingKey", "CodingKeys", "Hashable",
        "Sendable", "Mirror", "JSONValue", "JSONDecoder", "JSONEncoder", "CalendarDate", "DateTimeValue", "UUIDValue",
        "URIValue", "Indirect", "ModelCoding", "AnyCodingKey", "SchemaViolation", "ServerErrorResponse", "ErrorCategory",
        "OperationRequest", "OperationResponse", "OperationPerformer", "RequestBody", "RequestDescription", "SDKSchema",
        "SDKDescription", "ServerEvent", "TemplateField", "SingleStepMethod", "MultiStepMethod", "AuthenticationInput",
        "AuthenticationMethodDescription", "AuthenticationStepDescription", "Requests", "Methods", "Details", "Event",
        "ServerError",
    ]

    /// A top-level or nested type name: UpperCamel, renamed when it would shadow a type
    /// the generated code uses.
    static func typeName(_ name: String) -> String {
        let candidate = upperCamel(name)
        return reservedTypeNames.contains(candidate) ? candidate + "Model" : candidate
    }

    /// `invalid_grant` → `invalidGrant`, `session.revoked` → `sessionRevoked`.
    static func lowerCamel(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return identifier("_") }
        let head = first.allSatisfy({ $0.isUppercase || $0.isNumber }) ? first.lowercased() : lowerFirst(first)
        return identifier(head + parts.dropFirst().map(upperFirst).joined())
    }

    /// `token_response` → `TokenResponse`; a name that is already UpperCamel is kept.
    static func upperCamel(_ name: String) -> String {
        let parts = words(name)
        guard !parts.isEmpty else { return identifier("_") }
        return identifier(parts.map(upperFirst).joined())
    }

    /// A name made a valid identifier: a leading digit gets `_`; non-identifier characters
    /// were dropped by `words`.
    static func identifier(_ name: String) -> String {
        guard let first = name.first else { return "_" }
        if first.isNumber { return "_" + name }
        return name
    }

    /// The identifier as written in declarations and uses: keywords in backticks.
    static func escaped(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    static func upperFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    static func lowerFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.lowercased() + word.dropFirst()
    }

    /// A Swift string literal holding `text` exactly: quotes, backslashes, newlines and
    /// every control character escaped, so schema text can never end the literal.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        result += "\""
        return result
    }

    /// Text made safe inside a `//` or `///` comment: no line breaks, and no `*/` or `/*`
    /// that could matter if the comment is ever a block.
    static func commentSafe(_ text: String) -> String {
        // Most text needs nothing: no line breaks, no control characters, no comment markers.
        if !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "*" })
            && text.first?.isWhitespace != true && text.last?.isWhitespace != true {
            return text
        }
        var cleaned = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar.value < 0x20 && scalar != "\t" {
                cleaned += " "
            } else {
                cleaned.unicodeScalars.append(scalar)
            }
        }
        return cleaned.replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "/*", with: "/ *")
            .trimmingCharacters(in: .whitespaces)
    }
}

import Foundation
