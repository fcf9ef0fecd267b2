import Yams
@_spi(Generated) import SesameDescription

/// Objects (`properties`, `allOf`), enums and discriminated unions: the models whose Swift
/// type is a struct or an enum of their own.
extension ModelTranslator {
    mutating func object(_ entries: [Entry], qualifiedName: String, nested: inout [ModelIR], reader: inout NodeReader) -> ObjectIR {
        checkApplicable(entries, allowed: Self.objectKeywords, typeName: "object", reader: &reader)
        var schema = checkedKeywords(entries, unevaluatedProperties: false, reader: &reader) ?? ModelCheck()
        // `const` beside `properties` holds too: the whole object is
        // checked against the value, on decode and on encode; its keys are kept
        // (keepingKeysNamedByChecks), so that a decoded value encodes back.
        if let entry = entries["const"] { schema.constValue = literal(entry.value, reader: &reader) }
        if let ref = entries["$ref"], let name = resolveReference(ref.value, reader: &reader), declarations[name] != nil {
            // `$ref` beside `properties` applies too (2020-12): the object must also be the
            // referenced model, checked on its JSON (it was ignored).
            schema.reference = name
        }
        var required: [String: Node] = [:]
        if let requiredEntry = entries["required"], let names = reader.strings(requiredEntry.value, "required") {
            for (name, node) in names { required[name] = node }
        }
        var properties: [PropertyIR] = []
        if let propertiesEntry = entries["properties"], let propertyEntries = reader.mapping(propertiesEntry.value, "properties") {
            for entry in propertyEntries {
                let hint = NamingPass.propertyTypeHint(entry.key)
                let property = self.property(
                    entry, required: required[entry.key] != nil,
                    qualifiedName: qualifiedName, hint: hint, nested: &nested, reader: &reader)
                properties.append(property)
            }
        }
        // A required name with no property schema must be present, with any value.
        let declared = Set(properties.map(\.name))
        schema.required = required.keys.filter { !declared.contains($0) }.sorted()
        for name in schema.required {
            // Most often a typo: say so, without refusing what JSON Schema allows.
            if let hint = Suggestion.hint(for: name, among: Array(declared)) {
                reader.warning(
                    "required property '\(name)' has no property schema, so it must be present with any value\(hint)",
                    at: required[name]!)
            }
        }
        var additional = AdditionalPropertiesIR.ignored
        if let entry = entries["additionalProperties"] {
            if case .scalar = entry.value, let flag = entry.value.bool {
                additional = flag ? .kept(.any, ConstraintsIR()) : .rejected
                if !flag && !schema.patternProperties.isEmpty {
                    // Keys that a pattern matches are not additional: the JSON check knows them.
                    for name in declared { schema.properties[name] = ModelCheck() }
                    schema.additionalProperties = .never
                    additional = .ignored
                }
            } else if !schema.patternProperties.isEmpty {
                // A key is additional only when no pattern matches it: which schema a key's value
                // meets is the JSON check's to say, and the struct keeps every undeclared key as
                // JSON, checked on decode and on encode.
                for name in declared where schema.properties[name] == nil { schema.properties[name] = ModelCheck() }
                schema.additionalProperties = schemaCheck(entry.value, reader: &reader)
                additional = .kept(.any, ConstraintsIR())
            } else {
                let resolved = inlineType(
                    entry.value, qualifiedName: qualifiedName, hint: NamingPass.additionalPropertyTypeHint, nested: &nested, reader: &reader
                )
                additional = .kept(resolved.type, resolved.constraints)
            }
        }
        if let entry = entries["unevaluatedProperties"] {
            additional = unevaluatedProperties(
                entry, in: entries, additional: additional, checks: [schema], schema: &schema, qualifiedName: qualifiedName,
                nested: &nested, reader: &reader)
        }
        if let entry = entries["const"], case .object(let value)? = schema.constValue {
            refuseConstOfRewrittenText(value, properties: properties, additional: additional, at: entry.value, reader: &reader)
        }
        return ObjectIR(properties: properties, additionalProperties: additional, schema: schema.isEmpty ? nil : schema)
    }

    /// An error at `node` for each key of an object `const` value whose property decodes to a
    /// Swift value that does not keep its JSON text (a `Date`, `CalendarDate`, `UUID` or `URL`,
    /// or an array or dictionary of them): the check on encode compares the text the value
    /// encodes to (`2020-01-01T00:00:00Z`) with the const's (`2020-01-01T00:00:00+00:00`),
    /// so an object that decoded need not encode back. `const` on such a string is refused
    /// for the same reason (checkLiteral).
    private func refuseConstOfRewrittenText(
        _ value: [String: JSONValue], properties: [PropertyIR], additional: AdditionalPropertiesIR, at node: Node,
        reader: inout NodeReader
    ) {
        func rewritesText(_ type: TypeIR) -> Bool {
            switch type {
            case .string(let format?): return !format.keepsText
            case .array(let element), .dictionary(let element): return rewritesText(element)
            default: return false
            }
        }
        var typed = Dictionary(properties.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        if case .kept(let type, _) = additional {
            for key in value.keys where typed[key] == nil { typed[key] = type }
        }
        for key in value.keys.sorted() {
            guard let type = typed[key], rewritesText(type) else { continue }
            reader.error(
                "const is not supported on an object whose property '\(key)' is a \(type.schemaName): the Swift value does not keep the JSON text the const compares with; make it a plain string or drop the const",
                at: node)
        }
    }

    private mutating func property(
        _ entry: Entry, required: Bool, qualifiedName: String, hint: String,
        nested: inout [ModelIR], reader: inout NodeReader
    ) -> PropertyIR {
        let resolved = inlineType(entry.value, qualifiedName: qualifiedName, hint: hint, nested: &nested, reader: &reader)
        var deprecated = false
        if case .mapping(let mapping) = entry.value {
            for index in mapping.indices where mapping[index].key.string == "deprecated" {
                deprecated = reader.bool(mapping[index].value, "deprecated") ?? false
            }
        }
        return PropertyIR(
            name: entry.key, type: resolved.type, required: required, nullable: resolved.nullable,
            defaultValue: resolved.defaultValue, constraints: resolved.constraints, description: resolved.description,
            deprecated: deprecated, location: reader.location(of: entry.keyNode))
    }

    mutating func allOf(_ entries: [Entry], qualifiedName: String, nested: inout [ModelIR], reader: inout NodeReader) -> ObjectIR {
        // `properties` and `required` beside `allOf` (the OpenAPI way to extend a base model)
        // apply too, as one more member after the others: their properties come last.
        // `unevaluatedProperties` closes the composition (ModelTranslator+Unevaluated).
        let besideAllOf: Set<String> = ["type", "properties", "required"]
        let others = entries.filter {
            $0.key != "allOf" && $0.key != "unevaluatedProperties" && !besideAllOf.contains($0.key)
                && !Self.annotationsAndDeclarations.contains($0.key)
        }
        for other in others {
            reader.error("'\(other.key)' beside allOf is not supported; move it into one of the allOf schemas", at: other.keyNode)
        }
        if let type = entries["type"], type.value.string != "object" {
            reader.error("'type' beside allOf must be object: allOf merges object schemas into one struct", at: type.value)
        }
        guard let members = reader.sequence(entries["allOf"]!.value, "allOf") else {
            return ObjectIR(properties: [], additionalProperties: .ignored)
        }
        let siblings = entries.filter { besideAllOf.contains($0.key) }
        var properties: [PropertyIR] = []
        var additional = AdditionalPropertiesIR.ignored
        var checks: [ModelCheck] = []
        for member in members + (siblings.contains { $0.key != "type" } ? [nil] : []) {
            var part: ObjectIR?
            guard let member else {
                part = object(siblings, qualifiedName: qualifiedName, nested: &nested, reader: &reader)
                if let schema = part!.schema { checks.append(schema) }
                merge(part!, into: &properties, additional: &additional, at: entries["allOf"]!.keyNode, reader: &reader)
                continue
            }
            if let memberEntries = reader.mapping(member, "an allOf schema", grammar: Grammar.schema)?.entries {
                if let ref = memberEntries["$ref"] {
                    if let name = resolveReference(ref.value, reader: &reader) {
                        if let model = model(named: name) {
                            if case .object(let object) = model.kind,
                                mergedProperties + object.properties.count > Self.maximumMergedProperties
                            {
                                reader.error(
                                    "allOf would copy more than \(Self.maximumMergedProperties) properties from the models it names, in all models; declare shared properties once and refer to the model holding them",
                                    at: ref.value)
                            } else if case .object(let object) = model.kind {
                                part = object
                                mergedProperties += object.properties.count
                                nested += model.nested.filter { inner in !nested.contains { $0.swiftName == inner.swiftName } }
                            } else {
                                reader.error("allOf can only combine object schemas; '\(name)' is not an object", at: ref.value)
                            }
                        } else if inProgress.contains(name) {
                            reader.error("allOf of '\(name)' refers back to itself", at: ref.value)
                        }
                    }
                } else {
                    // An inline member is read as an object's keywords: those Sesame does not
                    // support are errors here too (`unevaluatedProperties` was ignored).
                    reportUnsupported(memberEntries, reader: &reader)
                    if let entry = memberEntries["unevaluatedProperties"] {
                        reader.error(
                            "unevaluatedProperties inside an allOf member sees only that member's properties; write it beside allOf to close the composition",
                            at: entry.keyNode)
                    }
                    part = object(memberEntries, qualifiedName: qualifiedName, nested: &nested, reader: &reader)
                }
            }
            guard let part else { continue }
            if let schema = part.schema { checks.append(schema) }
            merge(part, into: &properties, additional: &additional, at: member, reader: &reader)
        }
        // Each member's keywords checked on the JSON (`minProperties`, `required` names another
        // member declares, …) apply to the merged value; such a required name makes the
        // merged property required.
        for name in checks.flatMap(\.required) {
            if let index = properties.firstIndex(where: { $0.name == name }) { properties[index].required = true }
        }
        if let entry = entries["unevaluatedProperties"] {
            var extra = ModelCheck()
            additional = unevaluatedProperties(
                entry, in: entries, additional: additional, checks: checks, schema: &extra, qualifiedName: qualifiedName,
                nested: &nested, reader: &reader)
            checks += extra.allOf
        }
        var merged = ObjectIR(properties: properties, additionalProperties: additional)
        merged.schema = checks.count == 1 ? checks[0] : checks.isEmpty ? nil : ModelCheck(allOf: checks)
        return merged
    }

    /// Adds an `allOf` member's properties to those merged so far.
    private func merge(
        _ part: ObjectIR, into properties: inout [PropertyIR], additional: inout AdditionalPropertiesIR, at member: Node,
        reader: inout NodeReader
    ) {
        // A member's keys named by its checks are not its declarations: the composed model
        // keeps those its merged checks name (`keepingKeysNamedByChecks`).
        for property in part.properties where !property.namedByChecks {
            if let index = properties.firstIndex(where: { $0.name == property.name }) {
                if properties[index].type != property.type {
                    reader.error("allOf declares property '\(property.name)' twice with different types", at: member)
                } else {
                    properties[index].required = properties[index].required || property.required
                }
            } else {
                properties.append(property)
            }
        }
        // Nor are the undeclared keys a member keeps for its checks (`keptForChecks`).
        if part.additionalProperties != .ignored && part.keptForChecks == nil { additional = part.additionalProperties }
    }

    // MARK: Enums and unions

    mutating func enumeration(_ entry: Entry, entries: [Entry], reader: inout NodeReader) -> EnumIR {
        var rawType = EnumIR.RawType.string
        if let type = entries["type"], case .scalar(let scalar) = type.value {
            switch scalar.string {
            case "string": rawType = .string
            case "integer": rawType = .integer
            default: reader.error("enum values must be strings or integers, not \(scalar.string)", at: type.value)
            }
        }
        for other in entries where !["enum", "type", "default"].contains(other.key) && !Self.annotationsAndDeclarations.contains(other.key)
        {
            reader.error("'\(other.key)' is not supported on an enum", at: other.keyNode)
        }
        var cases: [EnumCaseIR] = []
        var seen: Set<String> = []
        let items = reader.sequence(entry.value, "enum") ?? []
        if entries["type"] == nil {
            let integers = items.filter { item in
                if case .scalar(let scalar) = item { return scalar.style == .plain && item.int != nil }
                return false
            }
            if !integers.isEmpty && integers.count < items.count {
                reader.error("enum mixes strings and integers; declare 'type: string' to treat every value as text", at: entry.value)
                return EnumIR(rawType: .string, cases: [])
            }
            if !items.isEmpty && integers.count == items.count { rawType = .integer }
        }
        for item in items {
            guard case .scalar(let scalar) = item else {
                reader.error("enum values must be scalars", at: item)
                continue
            }
            let raw = scalar.string
            if rawType == .integer, item.int == nil {
                reader.error("enum value '\(raw)' is not an integer", at: item)
                continue
            }
            if !seen.insert(raw).inserted {
                reader.error("enum value '\(raw)' is listed twice", at: item)
                continue
            }
            cases.append(EnumCaseIR(rawValue: raw, location: reader.location(of: item)))
        }
        if cases.isEmpty && items.isEmpty { reader.error("enum must list at least one value", at: entry.value) }
        return EnumIR(rawType: rawType, cases: cases, closed: options.closedEnums)
    }

    /// A `oneOf` with a `discriminator`: each member a `$ref` to an object model, or an inline
    /// object, which becomes a nested type of `qualifiedName` named after its tag (the `const`
    /// or one-value `enum` of its discriminator property).
    mutating func union(_ entries: [Entry], qualifiedName: String, nested: inout [ModelIR], reader: inout NodeReader) -> UnionIR {
        for other in entries where !["oneOf", "discriminator"].contains(other.key) && !Self.annotationsAndDeclarations.contains(other.key) {
            // OpenAPI documents often say `type: object` beside the union: its members are objects.
            if other.key == "type", case .scalar(let scalar) = other.value, scalar.string == "object" { continue }
            if other.key == "type" {
                reader.error("a oneOf with a discriminator is an object: 'type' beside it can only be object", at: other.value)
                continue
            }
            reader.error("'\(other.key)' beside oneOf is not supported", at: other.keyNode)
        }
        guard let discriminatorEntry = entries["discriminator"] else {
            reader.error(
                "oneOf needs a discriminator (discriminator: { propertyName: kind }) so that a value decodes to exactly one case",
                at: entries["oneOf"]!.keyNode)
            return UnionIR(discriminator: "", variants: [])
        }
        guard let discriminator = reader.mapping(discriminatorEntry.value, "discriminator", grammar: Grammar.discriminator),
            let propertyEntry = discriminator["propertyName"], let propertyName = reader.string(propertyEntry.value, "propertyName")
        else { return UnionIR(discriminator: "", variants: []) }
        // The tag of each variant: from the mapping, else the model's name.
        var tags: [String: (String, Node)] = [:]
        if let mapping = discriminator["mapping"], let mappingEntries = reader.mapping(mapping.value, "discriminator mapping") {
            for entry in mappingEntries {
                if let target = resolveReference(entry.value, reader: &reader) { tags[target] = (entry.key, entry.keyNode) }
            }
        }
        var variants: [UnionVariantIR] = []
        for member in reader.sequence(entries["oneOf"]!.value, "oneOf") ?? [] {
            guard let memberEntries = reader.mapping(member, "a oneOf schema", grammar: Grammar.schema)?.entries else {
                reader.error("each oneOf schema must be a $ref to an object model or an inline object", at: member)
                continue
            }
            guard let ref = memberEntries["$ref"] else {
                if let variant = inlineVariant(
                    member, memberEntries, propertyName: propertyName, taken: variants.map(\.tag), qualifiedName: qualifiedName,
                    nested: &nested, reader: &reader)
                {
                    variants.append(variant)
                }
                continue
            }
            guard let name = resolveReference(ref.value, reader: &reader), let declaration = declarations[name] else { continue }
            if let model = model(named: name) {
                guard case .object(let object) = model.kind else {
                    reader.error("oneOf variant '\(name)' must be an object", at: ref.value)
                    continue
                }
                if !object.properties.contains(where: { $0.name == propertyName && $0.required }) {
                    reader.error(
                        "oneOf variant '\(name)' must declare the discriminator '\(propertyName)' as a required property", at: ref.value)
                }
            }
            let tag = tags[name]?.0 ?? name
            variants.append(
                UnionVariantIR(tag: tag, model: declaration.reference, location: reader.location(of: ref.value)))
        }
        for (target, (tag, node)) in tags where !variants.contains(where: { $0.tag == tag }) {
            reader.error("discriminator mapping '\(tag)' names '\(target)', which is not one of the oneOf schemas", at: node)
        }
        return UnionIR(discriminator: propertyName, variants: variants, closed: options.closedEnums)
    }

    /// An inline object member of a discriminated `oneOf`, as a nested type named after its
    /// tag; nil, with an error, for a member that is not an object or gives no tag.
    private mutating func inlineVariant(
        _ member: Node, _ entries: [Entry], propertyName: String, taken: [String], qualifiedName: String,
        nested: inout [ModelIR], reader: inout NodeReader
    ) -> UnionVariantIR? {
        guard isObject(entries) else {
            reader.error("each oneOf schema must be a $ref to an object model or an inline object", at: member)
            return nil
        }
        guard let tag = Self.tag(of: propertyName, in: entries) else {
            reader.error(
                "an inline oneOf schema must give its discriminator '\(propertyName)' a const (or a one-value enum): the value is its tag",
                at: member)
            return nil
        }
        if taken.contains(tag) {
            reader.error("two oneOf schemas have the tag '\(tag)'", at: member)
            return nil
        }
        let swiftName = uniqueNestedName(SwiftName.typeName(tag), in: nested, owner: qualifiedName)
        let path = qualifiedName.isEmpty ? swiftName : "\(qualifiedName).\(swiftName)"
        var model = namedModel(name: swiftName, swiftName: swiftName, qualifiedName: path, node: member, reader: &reader)
        // A value of this variant always has its tag (the union reads it to choose the
        // variant), though published documents seldom list it in `required`.
        if case .object(var object) = model.kind, let index = object.properties.firstIndex(where: { $0.name == propertyName }) {
            object.properties[index].required = true
            model.kind = .object(object)
        }
        nested.append(model)
        return UnionVariantIR(tag: tag, model: ModelRef(declaredName: nil, swiftPath: path), location: reader.location(of: member))
    }

    /// The value an inline member's discriminator property must have: its `const`, or the
    /// only value of its `enum`.
    private static func tag(of propertyName: String, in entries: [Entry]) -> String? {
        guard let properties = entries["properties"], case .mapping(let mapping) = properties.value,
            let property = mapping.first(where: { $0.key.string == propertyName })?.value, case .mapping(let schema) = property
        else { return nil }
        if let value = schema["const"], case .scalar(let scalar) = value { return scalar.string }
        if let values = schema["enum"], case .sequence(let items) = values, items.count == 1, case .scalar(let scalar) = items[0] {
            return scalar.string
        }
        return nil
    }
}
