@_spi(Generated) import SesameDescription

/// The string formats Sesame maps to Swift types.
enum StringFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case dateTime = "date-time"
    case date
    case uuid
    case uri
    case email
    case uriReference = "uri-reference"
    case hostname
    case ipv4
    case ipv6
    /// OpenAPI's base64-encoded octets (RFC 4648 §4): `Data`.
    case byte
    /// OpenAPI's secret text: a `String` kept out of the model's description and `dump`.
    case password

    /// Whether the Swift value is a `String` checked by a runtime parser on decode.
    var isCheckedString: Bool {
        switch self {
        case .email, .uriReference, .hostname, .ipv4, .ipv6: return true
        case .dateTime, .date, .uuid, .uri, .byte, .password: return false
        }
    }

    /// Whether the Swift value is the JSON text itself, a `String`: checked (`email`, …) or
    /// not (`password`). The other formats decode to a type of their own (`Date`, `Data`, …),
    /// which re-encodes its own text.
    var keepsText: Bool { isCheckedString || self == .password }
}

/// OpenAPI's formats of an integer (its Format Registry): the Swift type's width. Without
/// one an integer is `Int`.
enum IntegerFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case int32
    case int64
}

/// OpenAPI's formats of a number: `float` is `Float`; without one, or with `double`, a
/// number is `Double`.
enum NumberFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case float
}

/// The formats Sesame knows: the string formats, OpenAPI's integer and number formats, and
/// those it reads as another (`binary`, `double`). Any other is unknown: an error in a
/// models file, an annotation in a referenced document.
enum KnownFormats {
    /// The formats that leave an integer or a number what it is without one.
    static let plainNumber: Set<String> = ["double"]
    /// The formats that leave a string a plain `String` (`binary`: octets have no JSON
    /// form of their own, so a JSON string holds them as text).
    static let plainString: Set<String> = ["binary"]

    static let all: [String] =
        StringFormat.allCases.map(\.rawValue) + plainString.sorted() + IntegerFormat.allCases.map(\.rawValue)
        + NumberFormat.allCases.map(\.rawValue) + plainNumber.sorted()

    static func contains(_ name: String) -> Bool { all.contains(name) }
}

/// The type of a property, a parameter, an item or a response.
indirect enum TypeIR: Sendable, Hashable, Codable {
    case string(StringFormat?)
    case integer(IntegerFormat?)
    case number(NumberFormat?)
    case boolean
    /// Any JSON value (`{}` or a schema with no type).
    case any
    case array(TypeIR)
    /// An object with only `additionalProperties`: a dictionary.
    case dictionary(TypeIR)
    /// A named model.
    case model(ModelRef)

    /// Whether a named model appears in the type (itself, or as an item or a value).
    var containsModel: Bool {
        switch self {
        case .model: return true
        case .array(let element), .dictionary(let element): return element.containsModel
        default: return false
        }
    }
}

/// The validation keywords of a property, a parameter, an item or an alias, in the one check
/// shape (`ModelCheck`): those checked on the Swift value (`typed`), and those checked on the
/// decoded JSON (`schema`).
struct ConstraintsIR: Sendable, Hashable, Codable {
    /// The keywords generated code checks on the Swift value, after decoding it: `minLength`,
    /// `maxLength`, `pattern`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
    /// `minItems`, `maxItems`, `const`, and `items` (the same keywords, of each item of an
    /// array). No other keyword is set here.
    var typed: ModelCheck {
        get { typedStorage?.value ?? Self.noCheck }
        set { typedStorage = newValue.isEmpty ? nil : Box(newValue) }
    }
    /// The keywords checked on the JSON value rather than on the Swift one (`multipleOf`,
    /// `uniqueItems`, `not`, …, and the items' own under `items`): the runtime's
    /// `SchemaCheck` of it in the generated code.
    var schema: ModelCheck? {
        get { schemaStorage?.value }
        set { schemaStorage = newValue.map(Box.init) }
    }

    // Both checks live behind references, nil when absent (`typed` when empty): a
    // `ModelCheck` is several hundred bytes and about twenty reference-counted fields, every
    // property, item, parameter and alias holds a `ConstraintsIR`, and models are copied
    // often. Held inline, the two checks made the generator's translation and rendering
    // about 45% slower and its peak memory 45% larger on a 2,000-model schema
    // (docs/performance.md).
    private var typedStorage: Box<ModelCheck>?
    private var schemaStorage: Box<ModelCheck>?

    private static let noCheck = ModelCheck()

    /// No keyword: builds no check (`ModelCheck()` is not free, and most schemas have none).
    init() {}

    init(typed: ModelCheck, schema: ModelCheck? = nil) {
        self.typed = typed
        self.schema = schema
    }

    var isEmpty: Bool { typedStorage == nil && schemaStorage == nil }

    var minLength: Int? {
        get { typedStorage?.value.minLength }
        set { setTyped(\.minLength, newValue) }
    }
    var maxLength: Int? {
        get { typedStorage?.value.maxLength }
        set { setTyped(\.maxLength, newValue) }
    }
    var pattern: String? {
        get { typedStorage?.value.pattern }
        set { setTyped(\.pattern, newValue) }
    }
    var minimum: Double? {
        get { typedStorage?.value.minimum }
        set { setTyped(\.minimum, newValue) }
    }
    var maximum: Double? {
        get { typedStorage?.value.maximum }
        set { setTyped(\.maximum, newValue) }
    }
    var exclusiveMinimum: Double? {
        get { typedStorage?.value.exclusiveMinimum }
        set { setTyped(\.exclusiveMinimum, newValue) }
    }
    var exclusiveMaximum: Double? {
        get { typedStorage?.value.exclusiveMaximum }
        set { setTyped(\.exclusiveMaximum, newValue) }
    }
    var minItems: Int? {
        get { typedStorage?.value.minItems }
        set { setTyped(\.minItems, newValue) }
    }
    var maxItems: Int? {
        get { typedStorage?.value.maxItems }
        set { setTyped(\.maxItems, newValue) }
    }
    /// `const`, as a literal of the schema.
    var const: JSONValue? {
        get { typedStorage?.value.constValue }
        set { setTyped(\.constValue, newValue) }
    }
    /// The keywords checked on each item of an array, on its Swift value (the items' JSON
    /// checks are the array's `schema.items`).
    var items: ConstraintsIR? {
        get { typedStorage?.value.items.map { ConstraintsIR(typed: $0) } }
        set { if newValue != nil || typedStorage != nil { typed.items = newValue?.typed } }
    }

    /// Sets one keyword of `typed`: nil on constraints without a typed check leaves them as
    /// they are, and a value makes the check non-empty (no comparison with an empty check).
    private mutating func setTyped<Value>(_ keyword: WritableKeyPath<ModelCheck, Value?>, _ value: Value?) {
        guard let value else {
            if typedStorage != nil { typed[keyPath: keyword] = nil }
            return
        }
        var check = typedStorage?.value ?? Self.noCheck
        check[keyPath: keyword] = value
        typedStorage = Box(check)
    }

    // Coded as the two checks themselves, as when they were stored inline.
    private enum CodingKeys: String, CodingKey { case typed, schema }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            typed: try container.decode(ModelCheck.self, forKey: .typed),
            schema: try container.decodeIfPresent(ModelCheck.self, forKey: .schema))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typed, forKey: .typed)
        try container.encodeIfPresent(schema, forKey: .schema)
    }
}

/// A box that lets a value type hold a large value behind a reference (`ObjectIR.schema`).
final class Box<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    let value: Value
    init(_ value: Value) { self.value = value }
    static func == (lhs: Box, rhs: Box) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

extension TypeIR {
    /// How the type reads in the schema, for diagnostics.
    var schemaName: String {
        switch self {
        case .string(let format?): return "string (\(format.rawValue))"
        case .string(nil): return "string"
        case .integer(let format?): return "integer (\(format.rawValue))"
        case .integer(nil): return "integer"
        case .number(let format?): return "number (\(format.rawValue))"
        case .number(nil): return "number"
        case .boolean: return "boolean"
        case .any: return "any"
        case .array(let element): return "array of \(element.schemaName)"
        case .dictionary(let value): return "object of \(value.schemaName)"
        case .model(let model): return model.swiftPath
        }
    }
}

extension TypeIR {
    /// Whether decoding checks more than the Swift type says: a string a runtime parser checks
    /// (`email`, `hostname`, …), or an array of them.
    var isCheckedOnDecode: Bool {
        switch self {
        case .string(let format?): return format.isCheckedString
        case .array(.string(let format?)): return format.isCheckedString
        default: return false
        }
    }
}
