/// A JSON Schema 2020-12 check of a JSON value, as plain data: the keywords a generated model
/// checks on the JSON it decodes rather than on its Swift properties (`multipleOf`,
/// `uniqueItems`, `minProperties`, `patternProperties`, `not`, `if`/`then`/`else`, `anyOf`,
/// `oneOf`, …), and every keyword of the subschemas these hold.
///
/// It is the one shape of a check from the generator to the runtime: the generator's keyword
/// pass produces it, generated code carries it as a literal, and the runtime's `SchemaCheck`
/// compiles it once (its regular expressions, its subschemas) and evaluates it. A keyword left
/// out (`nil`, empty) is absent. A `$ref` is the name of the referenced model (``reference``),
/// not code: whoever evaluates the check says what each name means.
@_spi(Generated) public struct ModelCheck: Sendable, Hashable, Codable {
    /// A JSON type, as `type` names it.
    public enum JSONType: String, Sendable, Hashable, Codable, CaseIterable {
        case null, boolean, integer, number, string, array, object
    }

    public var types: [JSONType]?
    public var constValue: JSONValue?
    public var enumValues: [JSONValue]?
    public var multipleOf: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var exclusiveMinimum: Double?
    public var exclusiveMaximum: Double?
    public var minLength: Int?
    public var maxLength: Int?
    public var pattern: String?
    public var format: String?
    public var prefixItems: [ModelCheck]
    public var items: ModelCheck? {
        get { itemsStorage?.value }
        set { itemsStorage = newValue.map(Subschema.init) }
    }
    public var contains: ModelCheck? {
        get { containsStorage?.value }
        set { containsStorage = newValue.map(Subschema.init) }
    }
    public var minContains: Int?
    public var maxContains: Int?
    public var uniqueItems: Bool
    public var minItems: Int?
    public var maxItems: Int?
    public var properties: [String: ModelCheck]
    public var required: [String]
    public var patternProperties: [String: ModelCheck]
    public var additionalProperties: ModelCheck? {
        get { additionalPropertiesStorage?.value }
        set { additionalPropertiesStorage = newValue.map(Subschema.init) }
    }
    public var propertyNames: ModelCheck? {
        get { propertyNamesStorage?.value }
        set { propertyNamesStorage = newValue.map(Subschema.init) }
    }
    public var minProperties: Int?
    public var maxProperties: Int?
    public var dependentRequired: [String: [String]]
    public var allOf: [ModelCheck]
    public var anyOf: [ModelCheck]
    public var oneOf: [ModelCheck]
    public var not: ModelCheck? {
        get { notStorage?.value }
        set { notStorage = newValue.map(Subschema.init) }
    }
    public var ifSchema: ModelCheck? {
        get { ifStorage?.value }
        set { ifStorage = newValue.map(Subschema.init) }
    }
    public var thenSchema: ModelCheck? {
        get { thenStorage?.value }
        set { thenStorage = newValue.map(Subschema.init) }
    }
    public var elseSchema: ModelCheck? {
        get { elseStorage?.value }
        set { elseStorage = newValue.map(Subschema.init) }
    }
    /// `$ref`: the name of the model the value must be (the key of its models file, or the
    /// JSON pointer of a schema inside one, `User/properties/address`).
    public var reference: String?

    // A struct cannot hold itself: each single subschema is stored behind a reference.
    private var itemsStorage: Subschema?
    private var containsStorage: Subschema?
    private var additionalPropertiesStorage: Subschema?
    private var propertyNamesStorage: Subschema?
    private var notStorage: Subschema?
    private var ifStorage: Subschema?
    private var thenStorage: Subschema?
    private var elseStorage: Subschema?

    /// Creates a check; every keyword left out is absent.
    public init(
        types: [JSONType]? = nil, constValue: JSONValue? = nil, enumValues: [JSONValue]? = nil, multipleOf: Double? = nil,
        minimum: Double? = nil, maximum: Double? = nil, exclusiveMinimum: Double? = nil, exclusiveMaximum: Double? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil, format: String? = nil,
        prefixItems: [ModelCheck] = [], items: ModelCheck? = nil, contains: ModelCheck? = nil, minContains: Int? = nil,
        maxContains: Int? = nil, uniqueItems: Bool = false, minItems: Int? = nil, maxItems: Int? = nil,
        properties: [String: ModelCheck] = [:], required: [String] = [], patternProperties: [String: ModelCheck] = [:],
        additionalProperties: ModelCheck? = nil, propertyNames: ModelCheck? = nil, minProperties: Int? = nil,
        maxProperties: Int? = nil, dependentRequired: [String: [String]] = [:], allOf: [ModelCheck] = [],
        anyOf: [ModelCheck] = [], oneOf: [ModelCheck] = [], not: ModelCheck? = nil, ifSchema: ModelCheck? = nil,
        thenSchema: ModelCheck? = nil, elseSchema: ModelCheck? = nil, reference: String? = nil
    ) {
        self.types = types
        self.constValue = constValue
        self.enumValues = enumValues
        self.multipleOf = multipleOf
        self.minimum = minimum
        self.maximum = maximum
        self.exclusiveMinimum = exclusiveMinimum
        self.exclusiveMaximum = exclusiveMaximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.format = format
        self.prefixItems = prefixItems
        self.minContains = minContains
        self.maxContains = maxContains
        self.uniqueItems = uniqueItems
        self.minItems = minItems
        self.maxItems = maxItems
        self.properties = properties
        self.required = required
        self.patternProperties = patternProperties
        self.minProperties = minProperties
        self.maxProperties = maxProperties
        self.dependentRequired = dependentRequired
        self.allOf = allOf
        self.anyOf = anyOf
        self.oneOf = oneOf
        self.reference = reference
        self.items = items
        self.contains = contains
        self.additionalProperties = additionalProperties
        self.propertyNames = propertyNames
        self.not = not
        self.ifSchema = ifSchema
        self.thenSchema = thenSchema
        self.elseSchema = elseSchema
    }

    /// The schema `false`: no value matches it.
    public static let never = ModelCheck(not: ModelCheck())

    /// Whether the check is the schema `false` (``never``).
    public var isNever: Bool { self == Self.never }

    /// Whether the check has no keyword: every value matches it.
    public var isEmpty: Bool { self == ModelCheck() }

    /// The names of the models its `$ref`s name, here and in every subschema, each once.
    public var references: Set<String> {
        var names: Set<String> = []
        var pending = [self]
        while let check = pending.popLast() {
            if let reference = check.reference { names.insert(reference) }
            pending += check.subschemas
        }
        return names
    }

    /// The subschemas the check holds directly.
    public var subschemas: [ModelCheck] {
        var result = prefixItems + allOf + anyOf + oneOf
        result += properties.values
        result += patternProperties.values
        for single in [items, contains, additionalProperties, propertyNames, not, ifSchema, thenSchema, elseSchema] {
            if let single { result.append(single) }
        }
        return result
    }

    private enum CodingKeys: String, CodingKey {
        case types, constValue, enumValues, multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength,
            maxLength, pattern, format, prefixItems, minContains, maxContains, uniqueItems, minItems, maxItems, properties,
            required, patternProperties, minProperties, maxProperties, dependentRequired, allOf, anyOf, oneOf, reference
        case itemsStorage = "items", containsStorage = "contains", additionalPropertiesStorage = "additionalProperties"
        case propertyNamesStorage = "propertyNames", notStorage = "not", ifStorage = "if", thenStorage = "then"
        case elseStorage = "else"
    }
}

/// One subschema of a ``ModelCheck``, behind a reference; compared, hashed and coded as the
/// check it holds.
private final class Subschema: Sendable, Hashable, Codable {
    let value: ModelCheck

    init(_ value: ModelCheck) { self.value = value }

    static func == (left: Subschema, right: Subschema) -> Bool { left === right || left.value == right.value }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }

    init(from decoder: any Decoder) throws { value = try ModelCheck(from: decoder) }

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
