import SesameDescription

/// A named data model, from a top-level key of a models file or hoisted from an inline
/// schema that needs a type of its own (an inline object or enum).
public struct ModelIR: Sendable, Hashable, Codable {
    /// The name in the schema, used by `$ref`.
    public var name: String
    /// The Swift type name, unqualified (`Channel` for `Challenge.Channel`).
    public var swiftName: String
    public var description: String?
    public var kind: Kind
    /// Types declared inside this one (inline objects and enums of its properties).
    public var nested: [ModelIR]
    public var location: SourceLocation

    public init(name: String, swiftName: String, description: String?, kind: Kind, nested: [ModelIR] = [], location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName
        self.description = description
        self.kind = kind
        self.nested = nested
        self.location = location
    }

    public enum Kind: Sendable, Hashable, Codable {
        /// A struct.
        case object(ObjectIR)
        /// An enum of strings or integers that keeps unknown values.
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

public struct ObjectIR: Sendable, Hashable, Codable {
    public var properties: [PropertyIR]
    public var additionalProperties: AdditionalPropertiesIR
    /// The Swift property that keeps undeclared keys (`additionalProperties`, or
    /// `additionalProperties_` beside a declared property of that name); set by the naming pass.
    public var additionalPropertiesName: String
    /// The object's keywords checked on its JSON (`minProperties`, `patternProperties`,
    /// `required` names without a property schema, `not`, …).
    public var schema: ModelCheck? {
        get { schemaStorage?.value }
        set { schemaStorage = newValue.map(Box.init) }
    }
    /// Behind a reference: a model is copied often, and most objects have no such keyword.
    private var schemaStorage: Box<ModelCheck>?

    public init(
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
public enum AdditionalPropertiesIR: Sendable, Hashable, Codable {
    /// Not declared: unknown keys are ignored (servers add fields; apps must not break).
    case ignored
    /// `true` or a schema: unknown keys are kept, typed by the schema.
    case kept(TypeIR, ConstraintsIR)
    /// `false`: an unknown key is a decoding error, as JSON Schema says.
    case rejected
}

public struct PropertyIR: Sendable, Hashable, Codable {
    /// The JSON key.
    public var name: String
    /// The Swift property; set by the naming pass.
    public var swiftName: String
    public var type: TypeIR
    public var required: Bool
    /// `type: [T, "null"]`.
    public var nullable: Bool
    public var defaultValue: LiteralIR?
    public var constraints: ConstraintsIR
    public var description: String?
    public var deprecated: Bool
    /// Stored behind a reference: it holds an object model, or closes a cycle of models.
    public var indirect: Bool
    /// The private property that stores an indirect property behind its reference
    /// (`_parent`); set by the naming pass, empty for a property stored directly.
    public var storageName: String
    /// The local a `const` property's value is decoded into and checked in (`container_`
    /// for a property `container`); set by the naming pass, never a local the decoder
    /// declares itself (`SwiftName.reservedDecoderLocals`).
    public var localName: String = ""
    public var location: SourceLocation

    public init(
        name: String, swiftName: String = "", type: TypeIR, required: Bool, nullable: Bool, defaultValue: LiteralIR?,
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
    public var isOptional: Bool { nullable || (!required && defaultValue == nil) }
}

public struct EnumIR: Sendable, Hashable, Codable {
    public enum RawType: String, Sendable, Hashable, Codable { case string, integer }
    public var rawType: RawType
    public var cases: [EnumCaseIR]

    public init(rawType: RawType, cases: [EnumCaseIR]) {
        self.rawType = rawType
        self.cases = cases
    }
}

public struct EnumCaseIR: Sendable, Hashable, Codable {
    /// The raw value, as text (`"guest"` or `"42"`).
    public var rawValue: String
    /// The Swift case; set by the naming pass.
    public var swiftName: String
    public var location: SourceLocation

    public init(rawValue: String, swiftName: String = "", location: SourceLocation) {
        self.rawValue = rawValue
        self.swiftName = swiftName
        self.location = location
    }
}

public struct UnionIR: Sendable, Hashable, Codable {
    public var discriminator: String
    public var variants: [UnionVariantIR]
    /// The label of the discriminator in the `unknown` case (never `value`, the label beside
    /// it); set by the naming pass.
    public var unknownTagLabel: String
    /// The property that returns the discriminator's value (`typeValue`); set by the naming pass.
    public var tagPropertyName: String

    public init(discriminator: String, variants: [UnionVariantIR], unknownTagLabel: String = "", tagPropertyName: String = "") {
        self.discriminator = discriminator
        self.variants = variants
        self.unknownTagLabel = unknownTagLabel
        self.tagPropertyName = tagPropertyName
    }
}

public struct UnionVariantIR: Sendable, Hashable, Codable {
    /// The discriminator's value for this variant.
    public var tag: String
    /// The Swift case; set by the naming pass.
    public var caseName: String
    /// The variant's model.
    public var model: ModelRef
    public var location: SourceLocation

    public init(tag: String, caseName: String = "", model: ModelRef, location: SourceLocation) {
        self.tag = tag
        self.caseName = caseName
        self.model = model
        self.location = location
    }
}

/// `anyOf`, `oneOf` without a discriminator, or a `type` list.
public struct ChoiceIR: Sendable, Hashable, Codable {
    /// The keyword, for diagnostics and violations: `anyOf`, `oneOf` or `type`.
    public var keyword: String
    /// `oneOf`: exactly one schema must match; otherwise the first that matches wins.
    public var exactlyOne: Bool
    public var variants: [ChoiceVariantIR]

    public init(keyword: String, exactlyOne: Bool, variants: [ChoiceVariantIR]) {
        self.keyword = keyword
        self.exactlyOne = exactlyOne
        self.variants = variants
    }
}

public struct ChoiceVariantIR: Sendable, Hashable, Codable {
    /// The variant's type; nil for `type: null`.
    public var type: TypeIR?
    /// The name the case is derived from (a model's or a type's); the naming pass sets `caseName`.
    public var hint: String
    public var caseName: String
    public var location: SourceLocation

    public init(type: TypeIR?, hint: String, caseName: String = "", location: SourceLocation) {
        self.type = type
        self.hint = hint
        self.caseName = caseName
        self.location = location
    }
}
