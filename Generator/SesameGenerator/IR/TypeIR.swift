/// A literal value from the schema (`default`, `const`, `enum` values, body literals).
public indirect enum LiteralIR: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([LiteralIR])
    case object([String: LiteralIR])
}

/// The string formats Sesame maps to Swift types.
public enum StringFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case dateTime = "date-time"
    case date
    case uuid
    case uri
    case email
    case uriReference = "uri-reference"
    case hostname
    case ipv4
    case ipv6

    /// Whether the Swift value is a `String` checked by a runtime parser on decode.
    var isCheckedString: Bool {
        switch self {
        case .email, .uriReference, .hostname, .ipv4, .ipv6: return true
        case .dateTime, .date, .uuid, .uri: return false
        }
    }
}

/// The type of a property, a parameter, an item or a response.
public indirect enum TypeIR: Sendable, Hashable, Codable {
    case string(StringFormat?)
    case integer
    case number
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

/// The validation keywords Sesame checks on decode.
public struct ConstraintsIR: Sendable, Hashable, Codable {
    public var minLength: Int?
    public var maxLength: Int?
    public var pattern: String?
    public var minimum: Double?
    public var maximum: Double?
    public var exclusiveMinimum: Double?
    public var exclusiveMaximum: Double?
    public var minItems: Int?
    public var maxItems: Int?
    public var const: LiteralIR?
    /// Constraints on the items of an array.
    public var items: Box<ConstraintsIR>?
    /// The keywords checked on the JSON value rather than on the Swift one (`multipleOf`,
    /// `uniqueItems`, `not`, …): a `SchemaCheck` in the generated code.
    public var schema: Box<SchemaCheckIR>?

    public init() {}

    public var isEmpty: Bool { self == ConstraintsIR() }
}

/// A box that lets a value type hold itself (`ConstraintsIR.items`).
public final class Box<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
    public static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
    public init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

extension TypeIR {
    /// How the type reads in the schema, for diagnostics.
    var schemaName: String {
        switch self {
        case .string(let format?): return "string (\(format.rawValue))"
        case .string(nil): return "string"
        case .integer: return "integer"
        case .number: return "number"
        case .boolean: return "boolean"
        case .any: return "any"
        case .array(let element): return "array of \(element.schemaName)"
        case .dictionary(let value): return "object of \(value.schemaName)"
        case .model(let model): return model.swiftPath
        }
    }
}

/// A JSON Schema checked on the decoded JSON by the runtime's `SchemaCheck`: the keywords
/// that do not change the Swift type, and every keyword of the subschemas they hold.
public struct SchemaCheckIR: Sendable, Hashable, Codable {
    public var types: [String]?
    public var constValue: LiteralIR?
    public var enumValues: [LiteralIR]?
    public var multipleOf: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var exclusiveMinimum: Double?
    public var exclusiveMaximum: Double?
    public var minLength: Int?
    public var maxLength: Int?
    public var pattern: String?
    public var format: String?
    public var prefixItems: [SchemaCheckIR] = []
    public var items: Box<SchemaCheckIR>?
    public var contains: Box<SchemaCheckIR>?
    public var minContains: Int?
    public var maxContains: Int?
    public var uniqueItems = false
    public var minItems: Int?
    public var maxItems: Int?
    public var properties: [String: SchemaCheckIR] = [:]
    public var required: [String] = []
    public var patternProperties: [String: SchemaCheckIR] = [:]
    public var additionalProperties: Box<SchemaCheckIR>?
    public var propertyNames: Box<SchemaCheckIR>?
    public var minProperties: Int?
    public var maxProperties: Int?
    public var dependentRequired: [String: [String]] = [:]
    public var allOf: [SchemaCheckIR] = []
    public var anyOf: [SchemaCheckIR] = []
    public var oneOf: [SchemaCheckIR] = []
    public var not: Box<SchemaCheckIR>?
    public var ifSchema: Box<SchemaCheckIR>?
    public var thenSchema: Box<SchemaCheckIR>?
    public var elseSchema: Box<SchemaCheckIR>?
    /// `$ref` to a model: the value must decode as it.
    public var reference: ModelRef?
    /// The schema `false`.
    public var never = false

    public init() {}

    public var isEmpty: Bool { self == SchemaCheckIR() }
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
