@_spi(Generated) import SesameDescription

/// A named data model, from a top-level key of a models file or hoisted from an inline
/// schema that needs a type of its own (an inline object or enum).
struct ModelIR: Sendable, Hashable, Codable {
    /// The name in the schema, used by `$ref`.
    var name: String
    /// The Swift type name, unqualified (`Channel` for `Challenge.Channel`).
    var swiftName: String
    var description: String?
    var kind: Kind
    /// Types declared inside this one (inline objects and enums of its properties).
    var nested: [ModelIR]
    var location: SourceLocation

    init(name: String, swiftName: String, description: String?, kind: Kind, nested: [ModelIR] = [], location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName
        self.description = description
        self.kind = kind
        self.nested = nested
        self.location = location
    }

    enum Kind: Sendable, Hashable, Codable {
        /// A struct.
        case object(ObjectIR)
        /// An enum of strings or integers that keeps unknown values (unless closed).
        case enumeration(EnumIR)
        /// `oneOf` with a discriminator: an enum with a case per variant.
        case union(UnionIR)
        /// `anyOf`, `oneOf` without a discriminator, or a `type` list of several types: an
        /// enum with a case per schema, decoded by trying each.
        case choice(ChoiceIR)
        /// Any other schema given a name: a typealias, or a checked wrapper when it has
        /// constraints.
        case alias(TypeIR, ConstraintsIR)
    }
}

struct ObjectIR: Sendable, Hashable, Codable {
    var properties: [PropertyIR]
    var additionalProperties: AdditionalPropertiesIR
    /// The Swift property that keeps undeclared keys (`additionalProperties`, or
    /// `additionalProperties_` beside a declared property of that name); set by the naming pass.
    var additionalPropertiesName: String
    /// The object's keywords checked on its JSON (`minProperties`, `patternProperties`,
    /// `required` names without a property schema, `not`, …).
    var schema: ModelCheck? {
        get { schemaStorage?.value }
        set { schemaStorage = newValue.map(Box.init) }
    }
    /// Behind a reference: a model is copied often, and most objects have no such keyword.
    private var schemaStorage: Box<ModelCheck>?
    /// Why `additionalProperties` is `.kept(.any, …)` when the schema did not ask for it: the
    /// object's checks count or match its undeclared keys (`minProperties`,
    /// `patternProperties`: docs/format.md, "Keys named only by the checks"); nil otherwise.
    /// An `allOf` does not merge it: the composition keeps what its merged checks need.
    var keptForChecks: KeptForChecks?

    /// Which undeclared keys an object keeps for its checks (``keptForChecks``).
    enum KeptForChecks: Sendable, Hashable, Codable {
        /// Every one: a check counts them (`minProperties`), or tells them apart under
        /// `not`, `oneOf` or `if` (`maxProperties`, `propertyNames`, `additionalProperties`).
        case all
        /// Those that match one of these `patternProperties` patterns (sorted).
        case matching([String])
    }

    init(
        properties: [PropertyIR], additionalProperties: AdditionalPropertiesIR,
        additionalPropertiesName: String = "additionalProperties", schema: ModelCheck? = nil
    ) {
        self.properties = properties
        self.additionalProperties = additionalProperties
        self.additionalPropertiesName = additionalPropertiesName
        self.schemaStorage = schema.map(Box.init)
    }
}

/// What happens to keys an object does not declare.
enum AdditionalPropertiesIR: Sendable, Hashable, Codable {
    /// Not declared: unknown keys are ignored (servers add fields; apps must not break).
    case ignored
    /// `true` or a schema: unknown keys are kept, typed by the schema.
    case kept(TypeIR, ConstraintsIR)
    /// `false`: an unknown key is a decoding error, as JSON Schema says.
    case rejected
}

struct PropertyIR: Sendable, Hashable, Codable {
    /// The JSON key.
    var name: String
    /// The Swift property; set by the naming pass.
    var swiftName: String
    var type: TypeIR
    var required: Bool
    /// `type: [T, "null"]`.
    var nullable: Bool
    var defaultValue: JSONValue?
    var constraints: ConstraintsIR
    var description: String?
    var deprecated: Bool
    /// Stored behind a reference: it holds an object model, or closes a cycle of models.
    var indirect: Bool
    /// The private property that stores an indirect property behind its reference
    /// (`_parent`); set by the naming pass, empty for a property stored directly.
    var storageName: String
    /// The local a `const` property's value is decoded into and checked in (`container_`
    /// for a property `container`); set by the naming pass, never a local the decoder
    /// declares itself (`SwiftName.reservedDecoderLocals`).
    var localName: String = ""
    /// Not declared in `properties`, but named by the object's own checks (`required`,
    /// `dependentRequired`, `properties` of a `oneOf` branch, …): a `JSONValue?` that keeps the
    /// key as received, `null` included, so that what was decoded encodes back and its check
    /// sees it (ModelTranslator+NamedKeys).
    var namedByChecks = false
    var location: SourceLocation

    init(
        name: String, swiftName: String = "", type: TypeIR, required: Bool, nullable: Bool, defaultValue: JSONValue?,
        constraints: ConstraintsIR, description: String?, deprecated: Bool = false, indirect: Bool = false,
        storageName: String = "", location: SourceLocation
    ) {
        self.name = name
        self.swiftName = swiftName
        self.type = type
        self.required = required
        self.nullable = nullable
        self.defaultValue = defaultValue
        self.constraints = constraints
        self.description = description
        self.deprecated = deprecated
        self.indirect = indirect
        self.storageName = storageName
        self.location = location
    }

    /// Whether the Swift property is optional: not required and no default, or nullable.
    var isOptional: Bool { nullable || (!required && defaultValue == nil) }
}

struct EnumIR: Sendable, Hashable, Codable {
    enum RawType: String, Sendable, Hashable, Codable { case string, integer }
    var rawType: RawType
    var cases: [EnumCaseIR]
    /// `models: { enums: closed }`: no `.unknown` case, a value not listed is refused.
    var closed: Bool

    init(rawType: RawType, cases: [EnumCaseIR], closed: Bool = false) {
        self.rawType = rawType
        self.cases = cases
        self.closed = closed
    }
}

struct EnumCaseIR: Sendable, Hashable, Codable {
    /// The raw value, as text (`"guest"` or `"42"`).
    var rawValue: String
    /// The Swift case; set by the naming pass.
    var swiftName: String
    var location: SourceLocation

    init(rawValue: String, swiftName: String = "", location: SourceLocation) {
        self.rawValue = rawValue
        self.swiftName = swiftName
        self.location = location
    }
}

struct UnionIR: Sendable, Hashable, Codable {
    var discriminator: String
    var variants: [UnionVariantIR]
    /// The label of the discriminator in the `unknown` case (never `value`, the label beside
    /// it); set by the naming pass.
    var unknownTagLabel: String
    /// The property that returns the discriminator's value (`typeValue`); set by the naming pass.
    var tagPropertyName: String
    /// `models: { enums: closed }`: no `.unknown(<discriminator>:value:)` case, an unknown tag is refused.
    var closed: Bool

    init(
        discriminator: String, variants: [UnionVariantIR], unknownTagLabel: String = "", tagPropertyName: String = "",
        closed: Bool = false
    ) {
        self.discriminator = discriminator
        self.variants = variants
        self.closed = closed
        self.unknownTagLabel = unknownTagLabel
        self.tagPropertyName = tagPropertyName
    }
}

struct UnionVariantIR: Sendable, Hashable, Codable {
    /// The discriminator's value for this variant.
    var tag: String
    /// The Swift case; set by the naming pass.
    var caseName: String
    /// The variant's model.
    var model: ModelRef
    var location: SourceLocation

    init(tag: String, caseName: String = "", model: ModelRef, location: SourceLocation) {
        self.tag = tag
        self.caseName = caseName
        self.model = model
        self.location = location
    }
}

/// `anyOf`, `oneOf` without a discriminator, or a `type` list.
struct ChoiceIR: Sendable, Hashable, Codable {
    /// The keyword, for diagnostics and violations: `anyOf`, `oneOf` or `type`.
    var keyword: String
    /// `oneOf`: exactly one schema must match; otherwise the first that matches wins.
    var exactlyOne: Bool
    var variants: [ChoiceVariantIR]

    init(keyword: String, exactlyOne: Bool, variants: [ChoiceVariantIR]) {
        self.keyword = keyword
        self.exactlyOne = exactlyOne
        self.variants = variants
    }
}

struct ChoiceVariantIR: Sendable, Hashable, Codable {
    /// The variant's type; nil for `type: null`.
    var type: TypeIR?
    /// The name the case is derived from (a model's or a type's); the naming pass sets `caseName`.
    var hint: String
    var caseName: String
    var location: SourceLocation

    init(type: TypeIR?, hint: String, caseName: String = "", location: SourceLocation) {
        self.type = type
        self.hint = hint
        self.caseName = caseName
        self.location = location
    }
}
