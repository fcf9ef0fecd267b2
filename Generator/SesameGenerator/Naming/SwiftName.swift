@_spi(Generated) import SesameDescription

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

    /// The locals of a model's generated `init(from:)` at its top level, and the decoder
    /// itself: a `const` property's value is checked in a local of its own, which the naming
    /// pass keeps off these (`PropertyIR.localName`).
    static let reservedDecoderLocals: Set<String> = ["decoder", "container", "extra", "kept", "known", "key", "value", "index", "item"]

    /// Names an enum model's case cannot take: the members every generated enum declares
    /// (`unknown` → `unknownValue`, `rawValue` → `rawValueValue`).
    static let reservedEnumCases: Set<String> = reservedMembers.union(["unknown", "rawValue", "allKnownCases"])

    /// Names an error code's case cannot take: the members `<SDK>Error` declares
    /// (`unknown` → `unknownError`).
    static let reservedErrorCases: Set<String> = reservedMembers.union(["unknown", "response", "code", "category", "status"])

    /// Names an event's case cannot take: the members `<SDK>Event` declares
    /// (`unknown` → `unknownEvent`, `wireName` → `wireNameEvent`).
    static let reservedEventCases: Set<String> = reservedMembers.union(["unknown", "wireName"])

    /// Names a method's case cannot take: the members `SingleStepMethod` and
    /// `MultiStepMethod` declare (`description` → `descriptionMethod`).
    static let reservedMethodCases: Set<String> = reservedMembers.union([
        "methodDescription", "arguments", "debugDescription", "customMirror",
    ])

    /// Names an `AuthenticationInput` case cannot take: the members it declares.
    static let reservedInputCases: Set<String> = reservedMembers.union([
        "methodName", "stepName", "values", "debugDescription", "customMirror",
    ])

    /// The `AuthenticationInput` case of a later step of a multi-step method: `internal` and
    /// `continue` → `internalContinue`; `method` and `name` → `methodNameStep`.
    static func inputCase(method: String, step: String) -> String {
        let name = lowerCamel(method + "_" + step)
        return reservedInputCases.contains(name) ? name + "Step" : name
    }

    /// Splits a name into words at `_`, `-`, `.`, spaces, non-identifier characters and
    /// lower-to-upper case changes. A word keeps only letters and digits that Swift accepts
    /// in an identifier (emoji, symbols and line separators split words).
    static func words(_ name: String) -> [String] {
        isASCII(name) ? asciiWords(name) : unicodeWords(withoutIgnorables(name))
    }

    /// The name without the scalars Unicode says to render as nothing
    /// (Default_Ignorable_Code_Point: U+200B–U+200D, U+2060, bidirectional controls,
    /// variation selectors, Hangul fillers, tags, …). Kept, `Note` + U+200D would be a second
    /// type that reads `Note`, and a zero-width space would split a word where none shows;
    /// dropped, two such names are one Swift name, which the naming pass reports (models)
    /// or tells apart visibly (`note`, `note_`).
    static func withoutIgnorables(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: isIgnorable) else { return name }
        return String(String.UnicodeScalarView(name.unicodeScalars.filter { !isIgnorable($0) }))
    }

    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAD && scalar.properties.isDefaultIgnorableCodePoint
    }

    /// Whether a scalar is written as an escape in string literals and diagnostics: the
    /// invisible ones (`isInvisible`) and every default-ignorable one (`isIgnorable`), so a
    /// wire name `note` + U+200D reads `"note\u{200d}"`, not `"note"`.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        isInvisible(scalar) || isIgnorable(scalar)
    }

    /// Whether every character of the name is ASCII: most schema names are, and for them
    /// ``words(_:)`` and ``identifier(_:)`` take a byte path with the same result, without
    /// Unicode property look-ups or normalization (docs/performance.md, "The generator's CPU,
    /// counted in instructions").
    static func isASCII(_ name: String) -> Bool {
        name.utf8.allSatisfy { $0 < 0x80 }
    }

    private static func isASCIIUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    private static func isASCIILower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    private static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    /// The ASCII characters Swift accepts in an identifier: letters, digits and `_`.
    private static func isASCIIIdentifierByte(_ byte: UInt8) -> Bool {
        isASCIIUpper(byte) || isASCIILower(byte) || isASCIIDigit(byte) || byte == 0x5F
    }

    /// ``words(_:)`` of an ASCII name: letters and digits make words, anything else splits,
    /// and so does an upper-case letter after a lower-case letter or a digit.
    static func asciiWords(_ name: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var previous: UInt8?
        for byte in name.utf8 {
            let upper = isASCIIUpper(byte)
            guard upper || isASCIILower(byte) || isASCIIDigit(byte) else {
                if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll(keepingCapacity: true)
                previous = nil
                continue
            }
            if let previous, upper, isASCIILower(previous) || isASCIIDigit(previous) {
                words.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
            current.append(byte)
            previous = byte
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// ``words(_:)`` of any name, character by character with Unicode's properties.
    static func unicodeWords(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name {
            if !(character.isLetter || character.isNumber) || !character.unicodeScalars.allSatisfy(isIdentifierScalar) {
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
        "Swift", "Foundation", "Sesame", "SesameStore", "String", "Int", "Double", "Bool", "Array", "Dictionary", "Set", "Optional",
        "Error", "Data", "Date", "URL", "UUID", "Decoder", "Encoder", "Codable", "CodingKey", "CodingKeys", "Hashable",
        "Sendable", "Mirror", "JSONValue", "JSONDecoder", "JSONEncoder", "CalendarDate", "DateTimeValue", "UUIDValue",
        "URIValue", "Indirect", "ModelCoding", "AnyCodingKey", "PropertyKey", "SchemaViolation", "SchemaCheck", "ModelCheck",
        "ServerErrorResponse", "ErrorCategory",
        "OperationRequest", "OperationResponse", "OperationPerformer", "RequestBody", "RequestDescription", "SDKSchema",
        "SDKDescription", "ServerEvent", "TemplateField", "SingleStepMethod", "MultiStepMethod", "AuthenticationInput",
        "AuthenticationMethodDescription", "AuthenticationStepDescription", "Requests", "Methods", "Details", "Event",
        "ServerError",
    ]

    /// A top-level or nested type name: UpperCamel, renamed when it would shadow a type
    /// the generated code uses or be a keyword (`Type`, `Self`, `Any`, `_`): `Type` → `TypeModel`.
    static func typeName(_ name: String) -> String {
        let candidate = upperCamel(name)
        return isReservedTypeName(candidate) ? candidate + "Model" : candidate
    }

    /// Whether a type cannot take this name: it would shadow a type the generated code uses,
    /// or be a keyword, which even in backticks means the metatype after a `.` (`Outer.Type`).
    static func isReservedTypeName(_ name: String) -> Bool {
        reservedTypeNames.contains(name) || keywords.contains(name)
    }

    /// `invalid_grant` → `invalidGrant`, `session.revoked` → `sessionRevoked`.
    static func lowerCamel(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return symbolName(name) }
        let head = first.allSatisfy({ $0.isUppercase || $0.isNumber }) ? first.lowercased() : lowerFirst(first)
        return identifier(head + parts.dropFirst().map(upperFirst).joined())
    }

    /// `token_response` → `TokenResponse`; a name that is already UpperCamel is kept.
    static func upperCamel(_ name: String) -> String {
        let parts = words(name)
        guard !parts.isEmpty else { return symbolName(name) }
        return identifier(parts.map(upperFirst).joined())
    }

    /// The Swift name of a name with no letter or digit, spelt with its code points so that
    /// two such names stay distinct whatever their order: `*/` → `_2A_2F`, `🎉` → `_1F389`.
    /// An empty name, or one of only `_` (a valid identifier), stays as it is or `_`.
    static func symbolName(_ name: String) -> String {
        if name.unicodeScalars.allSatisfy({ $0 == "_" }) { return name.isEmpty ? "_" : name }
        return "_" + name.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: "_")
    }

    /// A name made a valid identifier: a leading digit (or a character Swift accepts only
    /// after the first) gets `_`; other non-identifier characters were dropped by `words`,
    /// and any a case change brought in are dropped here. Swift does not normalize
    /// identifiers, so the name is composed (NFC): `e` + U+0301 is written `é`, as keyboards type it.
    static func identifier(_ name: String) -> String {
        guard isASCII(name) else { return unicodeIdentifier(name) }
        // ASCII is already composed, and its identifier characters are letters, digits and `_`.
        var bytes = name.utf8.filter(isASCIIIdentifierByte)
        guard let first = bytes.first else { return "_" }
        if isASCIIDigit(first) { bytes.insert(0x5F, at: 0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``identifier(_:)`` of any name: composed (NFC), then filtered scalar by scalar.
    static func unicodeIdentifier(_ name: String) -> String {
        // Default-ignorable scalars are dropped (see `withoutIgnorables`).
        var scalars = String.UnicodeScalarView(
            name.precomposedStringWithCanonicalMapping.unicodeScalars.filter { isIdentifierScalar($0) && !isIgnorable($0) })
        guard let first = scalars.first else { return "_" }
        if !isIdentifierHead(first) || String(scalars).first?.isNumber == true { scalars.insert("_", at: scalars.startIndex) }
        return String(scalars)
    }

    /// Whether Swift accepts the scalar in an identifier after its first character: ASCII
    /// letters, digits and `_`, and the ranges of the Swift lexer (C11 Annex D, N1518 X.1).
    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        let c = scalar.value
        if scalar.isASCII { return isASCIIIdentifierByte(UInt8(scalar.value)) }
        let ranges: [ClosedRange<UInt32>] = [
            0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6,
            0xD8...0xF6, 0xF8...0xFF, 0x100...0x167F, 0x1681...0x180D, 0x180F...0x1FFF, 0x200B...0x200D, 0x202A...0x202E,
            0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F, 0x2070...0x218F, 0x2460...0x24FF, 0x2776...0x2793,
            0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF,
            0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE44, 0xFE47...0xFFF8,
        ]
        if c >= 0x10000 { return c <= 0xEFFFD && c & 0xFFFF <= 0xFFFD }
        return ranges.contains { $0.contains(c) }
    }

    /// Whether Swift accepts the scalar first in an identifier: not a digit, and not a
    /// combining mark (N1518 X.2).
    static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
        let c = scalar.value
        guard isIdentifierScalar(scalar), !("0"..."9").contains(scalar) else { return false }
        return
            !((0x300...0x36F).contains(c) || (0x1DC0...0x1DFF).contains(c) || (0x20D0...0x20FF).contains(c)
            || (0xFE20...0xFE2F).contains(c))
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

    /// Whether a scalar must not appear as itself in generated source: control characters,
    /// line and paragraph separators, the byte order mark, and the bidirectional controls
    /// that can make source read differently from what it compiles to ("Trojan Source").
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A Swift string literal holding `text` exactly: quotes, backslashes, newlines and
    /// every invisible character (`isHidden`) escaped, so schema text can never end the literal or hide
    /// in it.
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
                if isHidden(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        result += "\""
        return result
    }

    /// Text made safe inside a `//` or `///` comment: no line breaks or invisible
    /// characters (each becomes a space), and no `*/` or `/*` that could matter if the
    /// comment is ever a block.
    static func commentSafe(_ text: String) -> String {
        // Most text needs nothing: no line breaks, no invisible characters, no comment markers.
        if !text.unicodeScalars.contains(where: { isInvisible($0) || $0 == "*" })
            && text.first?.isWhitespace != true && text.last?.isWhitespace != true
        {
            return text
        }
        var cleaned = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) && scalar != "\t" {
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
