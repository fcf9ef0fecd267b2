@_spi(Generated) import SesameDescription

extension ModelCheck: SwiftLiteralArguments {
    /// The initialiser's arguments in its order, each keyword left out at its default: its
    /// single subschemas are stored behind private references, so its stored properties are
    /// not its initialiser's labels.
    var swiftLiteralArguments: [(label: String, value: Any)] {
        var list = SwiftLiteralArgumentList()
        func add(_ label: String, _ value: Any?) { list.add(label, value) }
        func nonEmpty<C: Collection>(_ values: C) -> C? { values.isEmpty ? nil : values }
        add("types", types)
        add("constValue", constValue)
        add("enumValues", enumValues)
        add("multipleOf", multipleOf)
        add("minimum", minimum)
        add("maximum", maximum)
        add("exclusiveMinimum", exclusiveMinimum)
        add("exclusiveMaximum", exclusiveMaximum)
        add("minLength", minLength)
        add("maxLength", maxLength)
        add("pattern", pattern)
        add("format", format)
        add("prefixItems", nonEmpty(prefixItems))
        add("items", items)
        add("contains", contains)
        add("minContains", minContains)
        add("maxContains", maxContains)
        add("uniqueItems", uniqueItems ? true : nil)
        add("minItems", minItems)
        add("maxItems", maxItems)
        add("properties", nonEmpty(properties))
        add("required", nonEmpty(required))
        add("patternProperties", nonEmpty(patternProperties))
        add("additionalProperties", additionalProperties)
        add("propertyNames", propertyNames)
        add("minProperties", minProperties)
        add("maxProperties", maxProperties)
        add("dependentRequired", nonEmpty(dependentRequired))
        add("allOf", nonEmpty(allOf))
        add("anyOf", nonEmpty(anyOf))
        add("oneOf", nonEmpty(oneOf))
        add("not", not)
        add("ifSchema", ifSchema)
        add("thenSchema", thenSchema)
        add("elseSchema", elseSchema)
        add("reference", reference)
        return list.arguments
    }
}
