import Foundation
@_spi(Generated) import SesameDescription

/// The runtime's form of a `ModelCheck`: the check compiled once (its regular expressions
/// with ECMA-262's semantics, its subschemas) and evaluated on the JSON a generated model
/// decodes. Every keyword applies only to the JSON type it is defined for, as JSON Schema
/// says: `minProperties` says nothing about a string.
///
/// Generated code builds one per schema that needs it, once (`static let`), and calls
/// ``validate(_:codingPath:)`` from `init(from:)`. A `$ref` in the check names a model; the
/// `references` it is built with say what each name checks (generated code passes
/// ``ModelCoding/reference(_:)`` of the model: the value must decode as it).
@_spi(Generated) public final class SchemaCheck: Sendable {
    /// A JSON type, as `type` names it.
    public typealias JSONType = ModelCheck.JSONType

    /// The check as generated code wrote it.
    public let check: ModelCheck
    let reference: Reference?
    private let prefixItems: [SchemaCheck]
    private let items: SchemaCheck?
    private let contains: SchemaCheck?
    private let properties: [String: SchemaCheck]
    private let additionalProperties: SchemaCheck?
    private let propertyNames: SchemaCheck?
    let allOf: [SchemaCheck]
    private let anyOf: [SchemaCheck]
    private let oneOf: [SchemaCheck]
    let not: SchemaCheck?
    let ifSchema: SchemaCheck?
    let thenSchema: SchemaCheck?
    let elseSchema: SchemaCheck?
    /// `pattern`, compiled once with ECMA-262's semantics.
    private let compiledPattern: ECMARegex?
    /// `patternProperties` in the order they are tried, each regex compiled once.
    private let compiledPatternProperties: [(pattern: String, regex: ECMARegex?, schema: SchemaCheck)]
    /// What the check reads of an object (``PropertyValues``).
    let propertyValues: PropertyValues
    /// Whether the check asks only which properties an object has (`required`,
    /// `minProperties`, `dependentRequired`), and says nothing of any other value: see
    /// ``isMet(byPresenceIn:declared:)``.
    let checksPresenceOnly: Bool
    /// `dependentRequired` in the order its failures are looked for, sorted once.
    let sortedDependentRequired: [(key: String, value: [String])]
    /// Whether, and how, the check is told on an object model's own decoder (``InPlace``).
    let inPlace: InPlace?

    /// Compiles `check`. `references` says what each model name a `$ref` of the check (or of
    /// its subschemas) names checks; a name it leaves out fails every value, as a
    /// ``SchemaViolation`` at `$ref`.
    public convenience init(_ check: ModelCheck, references: [String: Reference] = [:]) {
        self.init(compiling: check, references: references)
    }

    private init(compiling check: ModelCheck, references: [String: Reference]) {
        func compile(_ subschema: ModelCheck?) -> SchemaCheck? {
            subschema.map { SchemaCheck(compiling: $0, references: references) }
        }
        func compile(_ subschemas: [ModelCheck]) -> [SchemaCheck] {
            subschemas.map { SchemaCheck(compiling: $0, references: references) }
        }
        self.check = check
        if let name = check.reference {
            self.reference =
                references[name]
                ?? Reference { _, codingPath in
                    throw SchemaViolation(
                        codingPath: codingPath, keyword: "$ref", message: "the check knows no model \(SchemaViolation.excerpt(name))")
                }
        } else {
            self.reference = nil
        }
        prefixItems = compile(check.prefixItems)
        items = compile(check.items)
        contains = compile(check.contains)
        properties = check.properties.mapValues { SchemaCheck(compiling: $0, references: references) }
        additionalProperties = compile(check.additionalProperties)
        propertyNames = compile(check.propertyNames)
        allOf = compile(check.allOf)
        anyOf = compile(check.anyOf)
        oneOf = compile(check.oneOf)
        not = compile(check.not)
        ifSchema = compile(check.ifSchema)
        thenSchema = compile(check.thenSchema)
        elseSchema = compile(check.elseSchema)
        compiledPattern = check.pattern.flatMap { ModelCoding.regex($0) }
        compiledPatternProperties = check.patternProperties.sorted(by: { $0.key < $1.key }).map {
            (pattern: $0.key, regex: ModelCoding.regex($0.key), schema: SchemaCheck(compiling: $0.value, references: references))
        }
        sortedDependentRequired = check.dependentRequired.sorted(by: { $0.key < $1.key })
        var rest = check
        rest.required = []
        rest.minProperties = nil
        rest.dependentRequired = [:]
        checksPresenceOnly = rest.isEmpty
        propertyValues = PropertyValues(
            check, subschemas: allOf + anyOf + oneOf + [not, ifSchema, thenSchema, elseSchema].compactMap { $0 })
        inPlace = InPlace(
            check, reference: reference, allOf: allOf, not: not, ifSchema: ifSchema, thenSchema: thenSchema,
            elseSchema: elseSchema)
    }

    /// The schema `false`: no value matches it.
    public static let never = SchemaCheck(.never)

    /// Whether `value` matches the schema.
    public func matches(_ value: JSONValue) -> Bool {
        (try? validate(value, codingPath: [])) != nil
    }

    /// Checks `value`, found at `codingPath`.
    /// - Throws: ``SchemaViolation`` naming the path and keyword of the first failure.
    public func validate(_ value: JSONValue, codingPath: [any CodingKey]) throws {
        func fail(_ keyword: String, _ message: String, at path: [any CodingKey]? = nil) -> SchemaViolation {
            SchemaViolation(codingPath: path ?? codingPath, keyword: keyword, message: message)
        }
        if let reference { try reference(value, codingPath) }
        if let types = check.types, !types.contains(where: { value.hasType($0) }) {
            throw fail("type", "expected \(types.map(\.rawValue).joined(separator: " or ")), found \(value.typeName)")
        }
        if let constValue = check.constValue, !value.schemaEquals(constValue) { throw fail("const", "expected the schema's constant") }
        if let enumValues = check.enumValues, !enumValues.contains(where: { value.schemaEquals($0) }) {
            throw fail("enum", "expected one of the schema's \(enumValues.count) values")
        }
        switch value {
        case .integer, .number:
            let number = value.doubleValue!
            if let multipleOf = check.multipleOf, !Self.isMultiple(value, of: multipleOf) {
                throw fail("multipleOf", "expected a multiple of \(Self.format(multipleOf)), found \(Self.format(number))")
            }
            try ModelCoding.range(
                number, minimum: check.minimum, maximum: check.maximum, exclusiveMinimum: check.exclusiveMinimum,
                exclusiveMaximum: check.exclusiveMaximum, codingPath: codingPath)
        case .string(let text):
            if check.minLength != nil || check.maxLength != nil {
                try ModelCoding.length(text, min: check.minLength, max: check.maxLength, codingPath: codingPath)
            }
            if let pattern = check.pattern { try ModelCoding.pattern(text, pattern, compiledPattern, codingPath: codingPath) }
            if let format = check.format { try ModelCoding.format(text, format, codingPath: codingPath) }
        case .array(let elements):
            try validateArray(elements, codingPath: codingPath)
        case .object(let object):
            try validateObject(object, codingPath: codingPath)
        case .null, .bool:
            break
        }
        for schema in allOf { try schema.validate(value, codingPath: codingPath) }
        if !anyOf.isEmpty, !anyOf.contains(where: { $0.matches(value) }) {
            throw Self.failures(of: anyOf, on: value, at: codingPath).violation(
                codingPath: codingPath, keyword: "anyOf", matches: 0, of: anyOf.count)
        }
        if !oneOf.isEmpty {
            let count = oneOf.lazy.filter { $0.matches(value) }.count
            if count != 1 {
                let failures = count == 0 ? Self.failures(of: oneOf, on: value, at: codingPath) : ChoiceFailures()
                throw failures.violation(codingPath: codingPath, keyword: "oneOf", matches: count, of: oneOf.count)
            }
        }
        if let not, not.matches(value) { throw fail("not", "the value matches a schema it must not match") }
        if let ifSchema {
            if ifSchema.matches(value) {
                try thenSchema?.validate(value, codingPath: codingPath)
            } else {
                try elseSchema?.validate(value, codingPath: codingPath)
            }
        }
    }

    /// What each of `schemas` says of `value` at `codingPath`, which none of them matched: on the failure path
    /// only, so that a match costs what it did.
    private static func failures(of schemas: [SchemaCheck], on value: JSONValue, at codingPath: [any CodingKey]) -> ChoiceFailures {
        var failures = ChoiceFailures()
        for schema in schemas {
            do {
                try schema.validate(value, codingPath: codingPath)
            } catch {
                failures.record(error)
            }
        }
        return failures
    }

    private func validateArray(_ elements: [JSONValue], codingPath: [any CodingKey]) throws {
        try ModelCoding.items(count: elements.count, min: check.minItems, max: check.maxItems, codingPath: codingPath)
        for (index, element) in elements.enumerated() {
            let path = codingPath + [AnyCodingKey(intValue: index)]
            let keyword = index < prefixItems.count ? "prefixItems" : "items"
            guard let schema = index < prefixItems.count ? prefixItems[index] : items else { continue }
            if schema.isNever {
                throw SchemaViolation(codingPath: path, keyword: keyword, message: "the schema allows no item here")
            }
            try schema.validate(element, codingPath: path)
        }
        if let contains {
            let count = elements.lazy.filter { contains.matches($0) }.count
            let minimum = check.minContains ?? 1
            if count < minimum {
                throw SchemaViolation(
                    codingPath: codingPath, keyword: check.minContains == nil ? "contains" : "minContains",
                    message: "expected at least \(minimum) items matching contains, found \(count)")
            }
            if let maxContains = check.maxContains, count > maxContains {
                throw SchemaViolation(
                    codingPath: codingPath, keyword: "maxContains",
                    message: "expected at most \(maxContains) items matching contains, found \(count)")
            }
        }
        if check.uniqueItems {
            // One pass with a hash of each item's value as JSON Schema compares them: O(n) on average.
            var seen: [SchemaEqualKey: Int] = [:]
            seen.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                if let first = seen.updateValue(index, forKey: SchemaEqualKey(element)) {
                    throw SchemaViolation(
                        codingPath: codingPath + [AnyCodingKey(intValue: index)], keyword: "uniqueItems",
                        message: "the item equals the item at \(first)")
                }
            }
        }
    }

    private func validateObject(_ object: [String: JSONValue], codingPath: [any CodingKey]) throws {
        if let minProperties = check.minProperties, object.count < minProperties {
            throw SchemaViolation(
                codingPath: codingPath, keyword: "minProperties",
                message: "expected at least \(minProperties) properties, found \(object.count)")
        }
        if let maxProperties = check.maxProperties, object.count > maxProperties {
            throw SchemaViolation(
                codingPath: codingPath, keyword: "maxProperties",
                message: "expected at most \(maxProperties) properties, found \(object.count)")
        }
        for name in check.required where object[name] == nil {
            throw SchemaViolation(
                codingPath: codingPath + [AnyCodingKey(name)], keyword: "required", message: "the required property is missing")
        }
        for (name, needed) in sortedDependentRequired where object[name] != nil {
            for other in needed where object[other] == nil {
                throw SchemaViolation(
                    codingPath: codingPath + [AnyCodingKey(other)], keyword: "dependentRequired",
                    message: "the property is required when \(SchemaViolation.excerpt(name)) is present")
            }
        }
        // Each property is visited only when a keyword checks properties one by one.
        guard propertyNames != nil || !properties.isEmpty || !compiledPatternProperties.isEmpty || additionalProperties != nil
        else { return }
        for key in object.keys.sorted() {
            let value = object[key]!
            let path = codingPath + [AnyCodingKey(key)]
            if let propertyNames, !propertyNames.matches(.string(key)) {
                throw SchemaViolation(codingPath: path, keyword: "propertyNames", message: "the property name breaks propertyNames")
            }
            var evaluated = false
            if let schema = properties[key] {
                evaluated = true
                try schema.validate(value, codingPath: path)
            }
            for (_, regex, schema) in compiledPatternProperties {
                guard let regex, regex.matches(key) else { continue }
                evaluated = true
                try schema.validate(value, codingPath: path)
            }
            if !evaluated, let additionalProperties {
                if additionalProperties.isNever {
                    throw SchemaViolation(
                        codingPath: path, keyword: "additionalProperties", message: "the schema allows no undeclared property")
                }
                try additionalProperties.validate(value, codingPath: path)
            }
        }
    }

    /// Whether the schema is `false` (`not: {}`, with no keyword that fails first).
    private var isNever: Bool {
        guard let not = check.not, not.isEmpty else { return false }
        return check.types == nil && check.reference == nil && check.allOf.isEmpty && check.anyOf.isEmpty && check.oneOf.isEmpty
            && check.properties.isEmpty
    }

    /// Whether a JSON number is a multiple of `step` as the JSON texts write them, not as binary
    /// floating point rounds them: 0.3 is a multiple of 0.1 (whose quotient in `Double` is
    /// 2.9999999999999996), 9007199254740993 is not a multiple of 2. Integers are divided as
    /// integers; other numbers as the decimals their shortest spellings are, and only numbers
    /// beyond `Decimal`'s range (about 1e165) as doubles.
    static func isMultiple(_ value: JSONValue, of step: Double) -> Bool {
        guard step > 0, step.isFinite else { return false }
        if case .integer(let integer) = value, step.rounded() == step, step < 9.2e18 {
            return integer % Int(step) == 0
        }
        let text: String
        switch value {
        case .integer(let integer): text = String(integer)
        case .number(let number): text = "\(number)"
        default: return false
        }
        guard let dividend = Decimal(string: text), let divisor = Decimal(string: "\(step)"), divisor != 0 else {
            let quotient = (value.doubleValue ?? .nan) / step
            return quotient.isFinite && quotient.rounded() == quotient
        }
        var quotient = dividend / divisor
        var whole = Decimal()
        NSDecimalRound(&whole, &quotient, 0, .plain)
        return whole == quotient
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
