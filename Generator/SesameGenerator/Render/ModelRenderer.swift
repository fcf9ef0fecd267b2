/// Renders models: structs with checked `Codable`, enums that keep unknown values,
/// discriminated unions, and named aliases.
struct ModelRenderer {
    let types: TypeRendering

    func render(_ model: ModelIR, qualifiedName: String, into writer: inout CodeWriter) {
        writer.doc(model.description)
        switch model.kind {
        case .object(let object): renderObject(model, object, qualifiedName: qualifiedName, into: &writer)
        case .enumeration(let enumeration): renderEnum(model, enumeration, into: &writer)
        case .union(let union): renderUnion(model, union, into: &writer)
        case .alias(let type, let constraints): renderAlias(model, type, constraints, into: &writer)
        case .choice(let choice): renderChoice(model, choice, into: &writer)
        }
    }

    private func nestedModels(_ model: ModelIR, qualifiedName: String, into writer: inout CodeWriter) {
        for inner in model.nested {
            writer.line()
            render(inner, qualifiedName: "\(qualifiedName).\(inner.swiftName)", into: &writer)
        }
    }

    // MARK: Objects

    private func storedType(_ property: PropertyIR) -> String {
        let base = types.swift(property.type)
        return property.isOptional ? optionalType(base) : base
    }

    private func optionalType(_ base: String) -> String { "\(base)?" }

    private func renderObject(_ model: ModelIR, _ object: ObjectIR, qualifiedName: String, into writer: inout CodeWriter) {
        let name = SwiftName.escaped(model.swiftName)
        let keepsExtra: TypeIR? = { if case .kept(let type, _) = object.additionalProperties { return type } else { return nil } }()
        let extraName = object.additionalPropertiesName
        writer.block("public struct \(name): Codable, Hashable, Sendable") { body in
            for property in object.properties {
                body.doc(property.description)
                if property.deprecated { body.line("/// - Note: Deprecated by the schema.") }
                let swiftName = SwiftName.escaped(property.swiftName)
                if property.indirect {
                    renderBoxedProperty(property, into: &body)
                } else if property.constraints.const != nil, let literal = types.literal(property.constraints.const!, property.type) {
                    body.line("public var \(swiftName): \(storedType(property)) { \(literal) }")
                } else {
                    body.line("public var \(swiftName): \(storedType(property))")
                }
            }
            if let extra = keepsExtra {
                body.doc("Properties the schema does not declare, kept as received.")
                body.line("public var \(extraName): [String: \(types.swift(extra))]")
            }
            renderSchemaChecks(object, into: &body)
            body.line()
            renderInitializer(object, extraName: keepsExtra.map { (extraName, $0) }, into: &body)
            body.line()
            renderDecoder(object, extraName: extraName, into: &body)
            body.line()
            renderEncoder(object, extraName: extraName, into: &body)
            nestedModels(model, qualifiedName: qualifiedName, into: &body)
        }
    }

    /// A property stored behind a reference (docs/format.md, "Objects"): the storage is an
    /// optional `Indirect` box, nil only while `_modify` holds the value. `_modify` takes the
    /// value out of the box and empties the storage, so that a change through the property
    /// (`order.shipping.lines.append(line)`) finds the value uniquely referenced and changes
    /// it in place, then stores it in a new box; reading and setting go through the box.
    private func renderBoxedProperty(_ property: PropertyIR, into body: inout CodeWriter) {
        let storage = property.storageName
        body.block("public var \(SwiftName.escaped(property.swiftName)): \(storedType(property))") { accessor in
            if property.isOptional {
                accessor.line("get { Indirect.unwrap(\(storage)) }")
                accessor.line("set { \(storage) = Indirect.wrap(newValue) }")
            } else {
                accessor.line("get { \(storage)!.value }")
                accessor.line("set { \(storage) = Indirect(newValue) }")
            }
            accessor.block("_modify") { modify in
                modify.line("var value = Indirect.take(&\(storage))\(property.isOptional ? "" : "!")")
                modify.line("defer { \(storage) = \(property.isOptional ? "Indirect.wrap(value)" : "Indirect(value)") }")
                modify.line("yield &value")
            }
        }
        body.line("private var \(storage): Indirect<\(types.swift(property.type))>?")
    }

    /// The `SchemaCheck`s of the object and of its properties, built once.
    private func renderSchemaChecks(_ object: ObjectIR, into writer: inout CodeWriter) {
        if let schema = object.schema {
            writer.line()
            writer.doc("The keywords checked on the object's JSON.")
            writer.line("private static let schemaCheck = \(types.schemaCheck(schema))")
        }
        for property in object.properties {
            guard let schema = property.constraints.schema else { continue }
            writer.line("private static let \(checkName(property)) = \(types.schemaCheck(schema))")
        }
        if case .kept(_, let constraints) = object.additionalProperties, let schema = constraints.schema {
            writer.line("private static let extraSchemaCheck = \(types.schemaCheck(schema))")
        }
    }

    private func checkName(_ property: PropertyIR) -> String { "schemaCheck_\(property.swiftName)" }

    private func isConst(_ property: PropertyIR) -> Bool {
        property.constraints.const != nil && types.literal(property.constraints.const!, property.type) != nil
    }

    private func renderInitializer(_ object: ObjectIR, extraName: (String, TypeIR)?, into writer: inout CodeWriter) {
        var parameters: [String] = []
        for property in object.properties where !isConst(property) {
            var parameter = "\(SwiftName.escaped(property.swiftName)): \(storedType(property))"
            if property.isOptional, property.defaultValue == nil || property.defaultValue == .null {
                parameter += " = nil"
            } else if let value = property.defaultValue, let literal = types.literal(value, property.type) {
                parameter += " = \(literal)"
            }
            parameters.append(parameter)
        }
        if let (name, type) = extraName { parameters.append("\(name): [String: \(types.swift(type))] = [:]") }
        writer.doc("Creates a value; properties with a default in the schema may be left out.")
        writer.block("public init(\(parameters.joined(separator: ", ")))") { body in
            for property in object.properties {
                let swiftName = SwiftName.escaped(property.swiftName)
                if isConst(property) { continue }
                if property.indirect {
                    body.line(
                        property.isOptional
                            ? "self.\(property.storageName) = Indirect.wrap(\(swiftName))"
                            : "self.\(property.storageName) = Indirect(\(swiftName))")
                } else {
                    body.line("self.\(swiftName) = \(swiftName)")
                }
            }
            if let (name, _) = extraName { body.line("self.\(name) = \(name)") }
        }
    }

    /// A property's coding key: a string literal, since every model decodes with the
    /// runtime's `PropertyKey` rather than a `CodingKeys` enum of its own.
    private func key(_ property: PropertyIR) -> String { SwiftName.stringLiteral(property.name) }

    /// The names of the object's properties, as a `Set<String>` literal.
    private func knownKeys(_ object: ObjectIR) -> String {
        "[\(object.properties.map(key).joined(separator: ", "))]"
    }

    private func renderDecoder(_ object: ObjectIR, extraName: String, into writer: inout CodeWriter) {
        writer.block("public init(from decoder: any Decoder) throws") { body in
            if object.schema != nil {
                body.line("try ModelCoding.check(decoder, Self.schemaCheck)")
            }
            if !object.properties.isEmpty {
                body.line("let container = try decoder.container(keyedBy: PropertyKey.self)")
            } else {
                // An object, even with no property: a number, a string, an array or null is refused.
                body.line("_ = try decoder.container(keyedBy: PropertyKey.self)")
            }
            for property in object.properties {
                let key = key(property)
                let wire = types.wire(property.type) ?? types.swift(property.type)
                let converted = { (expression: String) in types.fromWire(expression, property.type) }
                var expression: String
                if property.nullable && property.required {
                    expression = "try container.decode(\(wire)?.self, forKey: \(key))"
                    if types.wire(property.type) != nil { expression = "(\(expression)).map { \(converted("$0")) }" }
                } else if property.isOptional || property.defaultValue != nil {
                    // Absent is fine; `null` only when the schema allows it (nullable, or any value).
                    let decode = property.nullable || property.type == .any ? "decodeIfPresent" : "decodeIfPresentNotNull"
                    expression = "try container.\(decode)(\(wire).self, forKey: \(key))"
                    if types.wire(property.type) != nil { expression = "(\(expression)).map { \(converted("$0")) }" }
                    if !property.isOptional, let value = property.defaultValue, let literal = types.literal(value, property.type) {
                        expression = "\(expression) ?? \(literal)"
                    }
                } else {
                    expression = converted("try container.decode(\(wire).self, forKey: \(key))")
                }
                let constant = isConst(property) && !property.indirect
                let target =
                    constant
                    ? "let \(SwiftName.escaped(property.localName))"
                    : property.indirect ? "self.\(property.storageName)" : "self.\(SwiftName.escaped(property.swiftName))"
                if property.indirect {
                    expression = property.isOptional ? "Indirect.wrap(\(expression))" : "Indirect(\(expression))"
                }
                body.line("\(target) = \(expression)")
                if property.constraints.schema != nil {
                    body.block("if container.contains(\(key))") { inner in
                        inner.line(
                            "try Self.\(checkName(property)).validate(container.decode(JSONValue.self, forKey: \(key)), codingPath: container.codingPath(appending: \(key)))"
                        )
                    }
                }
                if types.hasChecks(property.type, property.constraints) {
                    let path = "container.codingPath(appending: \(key))"
                    let value = constant ? SwiftName.escaped(property.localName) : "self.\(SwiftName.escaped(property.swiftName))"
                    if property.isOptional {
                        body.block("if let value = \(value)") { inner in
                            types.checks("value", property.type, property.constraints, path: path, into: &inner)
                        }
                    } else {
                        types.checks(value, property.type, property.constraints, path: path, into: &body)
                    }
                }
            }
            switch object.additionalProperties {
            case .kept(let type, let constraints):
                let wire = types.wire(type) ?? types.swift(type)
                body.line("let extra = try decoder.container(keyedBy: AnyCodingKey.self)")
                body.line("var kept: [String: \(types.swift(type))] = [:]")
                let known = knownKeys(object)
                body.line("let known: Set<String> = \(known)")
                body.block("for key in extra.allKeys where !known.contains(key.stringValue)") { loop in
                    loop.line("let value = \(types.fromWire("try extra.decode(\(wire).self, forKey: key)", type))")
                    if constraints.schema != nil {
                        loop.line(
                            "try Self.extraSchemaCheck.validate(extra.decode(JSONValue.self, forKey: key), codingPath: extra.codingPath + [key])"
                        )
                    }
                    if types.hasChecks(type, constraints) {
                        types.checks("value", type, constraints, path: "extra.codingPath + [key]", into: &loop)
                    }
                    loop.line("kept[key.stringValue] = value")
                }
                body.line("self.\(extraName) = kept")
            case .rejected:
                body.line("let extra = try decoder.container(keyedBy: AnyCodingKey.self)")
                let known = knownKeys(object)
                body.line("let known: Set<String> = \(known)")
                body.block("if let key = extra.allKeys.first(where: { !known.contains($0.stringValue) })") { inner in
                    inner.line(
                        "throw SchemaViolation(codingPath: extra.codingPath + [key], keyword: \"additionalProperties\", message: \"the schema allows no undeclared property\")"
                    )
                }
            case .ignored:
                break
            }
        }
    }

    private func renderEncoder(_ object: ObjectIR, extraName: String, into writer: inout CodeWriter) {
        writer.block("public func encode(to encoder: any Encoder) throws") { body in
            if !object.properties.isEmpty {
                body.line("var container = encoder.container(keyedBy: PropertyKey.self)")
            } else {
                // `{}`, not nothing: an encoder given no container fails at the top level.
                body.line("_ = encoder.container(keyedBy: PropertyKey.self)")
            }
            for property in object.properties {
                let key = key(property)
                let value = "self.\(SwiftName.escaped(property.swiftName))"
                if property.nullable && property.required {
                    body.line(
                        "try container.encode(\(types.wire(property.type) == nil ? value : "\(value).map { \(types.toWire("$0", property.type)) }"), forKey: \(key))"
                    )
                } else if property.isOptional {
                    body.line(
                        "try container.encodeIfPresent(\(types.wire(property.type) == nil ? value : "\(value).map { \(types.toWire("$0", property.type)) }"), forKey: \(key))"
                    )
                } else {
                    body.line("try container.encode(\(types.toWire(value, property.type)), forKey: \(key))")
                }
            }
            if case .kept(let type, _) = object.additionalProperties {
                body.line("var extra = encoder.container(keyedBy: AnyCodingKey.self)")
                if !object.properties.isEmpty {
                    body.line("let known: Set<String> = \(knownKeys(object))")
                }
                let filter = object.properties.isEmpty ? "" : " where !known.contains(key)"
                body.block("for key in \(extraName).keys.sorted()\(filter)") { loop in
                    loop.line("try extra.encode(\(types.toWire("\(extraName)[key]!", type)), forKey: AnyCodingKey(key))")
                }
            }
        }
    }

    // MARK: Enums

    private func renderEnum(_ model: ModelIR, _ enumeration: EnumIR, into writer: inout CodeWriter) {
        let name = SwiftName.escaped(model.swiftName)
        let raw = enumeration.rawType == .string ? "String" : "Int"
        let literal = { (value: String) in enumeration.rawType == .string ? SwiftName.stringLiteral(value) : value }
        writer.block("public enum \(name): Codable, Hashable, Sendable, RawRepresentable, CustomStringConvertible") { body in
            for item in enumeration.cases {
                body.line("case \(SwiftName.escaped(item.swiftName))")
            }
            body.doc("A value this version of the SDK does not know, kept as received.")
            body.line("case unknown(\(raw))")
            body.line()
            body.doc("The values the schema declares.")
            body.line(
                "public static let allKnownCases: [\(name)] = [\(enumeration.cases.map { ".\(SwiftName.escaped($0.swiftName))" }.joined(separator: ", "))]"
            )
            body.line()
            body.block("public init(rawValue: \(raw))") { initializer in
                initializer.block("switch rawValue") { cases in
                    for item in enumeration.cases {
                        cases.line("case \(literal(item.rawValue)): self = .\(SwiftName.escaped(item.swiftName))")
                    }
                    cases.line("default: self = .unknown(rawValue)")
                }
            }
            body.line()
            body.block("public var rawValue: \(raw)") { getter in
                getter.block("switch self") { cases in
                    for item in enumeration.cases {
                        cases.line("case .\(SwiftName.escaped(item.swiftName)): return \(literal(item.rawValue))")
                    }
                    cases.line("case .unknown(let value): return value")
                }
            }
            body.line()
            body.line("public var description: String { \(enumeration.rawType == .string ? "rawValue" : "String(rawValue)") }")
            body.line()
            body.block("public init(from decoder: any Decoder) throws") { initializer in
                initializer.line("self.init(rawValue: try decoder.singleValueContainer().decode(\(raw).self))")
                initializer.line("if case .unknown = self { try ModelCoding.unknownValue(decoder, keyword: \"enum\") }")
            }
            body.line()
            body.block("public func encode(to encoder: any Encoder) throws") { encode in
                encode.line("var container = encoder.singleValueContainer()")
                encode.line("try container.encode(rawValue)")
            }
        }
    }

    // MARK: Unions

    private func renderUnion(_ model: ModelIR, _ union: UnionIR, into writer: inout CodeWriter) {
        let name = SwiftName.escaped(model.swiftName)
        let label = SwiftName.escaped(union.unknownTagLabel)
        writer.block("public indirect enum \(name): Codable, Hashable, Sendable") { body in
            for variant in union.variants {
                body.line("case \(SwiftName.escaped(variant.caseName))(\(types.swift(.model(variant.model))))")
            }
            body.doc("A variant this version of the SDK does not know: its discriminator and the value as received.")
            body.line("case unknown(\(label): String, value: JSONValue)")
            body.line()
            body.doc("The discriminator's value.")
            body.block("public var \(SwiftName.escaped(union.tagPropertyName)): String") { getter in
                getter.block("switch self") { cases in
                    for variant in union.variants {
                        cases.line("case .\(SwiftName.escaped(variant.caseName)): return \(SwiftName.stringLiteral(variant.tag))")
                    }
                    cases.line("case .unknown(let tag, _): return tag")
                }
            }
            body.line()
            body.block("public init(from decoder: any Decoder) throws") { initializer in
                initializer.line("let container = try decoder.container(keyedBy: AnyCodingKey.self)")
                initializer.line(
                    "let tag = try container.decode(String.self, forKey: AnyCodingKey(\(SwiftName.stringLiteral(union.discriminator))))")
                initializer.block("switch tag") { cases in
                    for variant in union.variants {
                        cases.line(
                            "case \(SwiftName.stringLiteral(variant.tag)): self = .\(SwiftName.escaped(variant.caseName))(try \(types.swift(.model(variant.model)))(from: decoder))"
                        )
                    }
                    cases.line("default:")
                    cases.indented { unknown in
                        unknown.line("try ModelCoding.unknownValue(decoder, keyword: \"oneOf\")")
                        unknown.line("self = .unknown(\(label): tag, value: try JSONValue(from: decoder))")
                    }
                }
            }
            body.line()
            body.block("public func encode(to encoder: any Encoder) throws") { encode in
                encode.block("switch self") { cases in
                    for variant in union.variants {
                        cases.line("case .\(SwiftName.escaped(variant.caseName))(let value): try value.encode(to: encoder)")
                    }
                    cases.line("case .unknown(_, let value): try value.encode(to: encoder)")
                }
            }
        }
    }

    // MARK: Aliases

    private func renderAlias(_ model: ModelIR, _ type: TypeIR, _ constraints: ConstraintsIR, into writer: inout CodeWriter) {
        let name = SwiftName.escaped(model.swiftName)
        let swiftType = types.swift(type)
        guard types.hasChecks(type, constraints) || constraints.schema != nil || types.wire(type) != nil || !model.nested.isEmpty else {
            writer.line("public typealias \(name) = \(swiftType)")
            return
        }
        writer.block("public struct \(name): Codable, Hashable, Sendable, RawRepresentable") { body in
            body.line("public var rawValue: \(swiftType)")
            if let schema = constraints.schema {
                body.line()
                body.doc("The keywords checked on the value's JSON.")
                body.line("private static let schemaCheck = \(types.schemaCheck(schema))")
            }
            body.line()
            body.doc("Wraps a value without checking it; decoding checks the schema's constraints.")
            body.line("public init(rawValue: \(swiftType)) { self.rawValue = rawValue }")
            body.line()
            body.block("public init(from decoder: any Decoder) throws") { initializer in
                let wire = types.wire(type) ?? swiftType
                if constraints.schema != nil { initializer.line("try ModelCoding.check(decoder, Self.schemaCheck)") }
                initializer.line("self.rawValue = \(types.fromWire("try decoder.singleValueContainer().decode(\(wire).self)", type))")
                types.checks("self.rawValue", type, constraints, path: "decoder.codingPath", into: &initializer)
            }
            body.line()
            body.block("public func encode(to encoder: any Encoder) throws") { encode in
                encode.line("var container = encoder.singleValueContainer()")
                encode.line("try container.encode(\(types.toWire("rawValue", type)))")
            }
            nestedModels(model, qualifiedName: model.swiftName, into: &body)
        }
    }

    // MARK: Choices

    /// `anyOf`, `oneOf` without a discriminator, or a list of types: a case per schema,
    /// decoded by trying each; `oneOf` fails when none or more than one matches.
    private func renderChoice(_ model: ModelIR, _ choice: ChoiceIR, into writer: inout CodeWriter) {
        let name = SwiftName.escaped(model.swiftName)
        writer.block("public indirect enum \(name): Codable, Hashable, Sendable") { body in
            for variant in choice.variants {
                if let type = variant.type {
                    body.line("case \(SwiftName.escaped(variant.caseName))(\(types.swift(type)))")
                } else {
                    body.line("case \(SwiftName.escaped(variant.caseName))")
                }
            }
            body.line()
            body.block("public init(from decoder: any Decoder) throws") { initializer in
                if choice.exactlyOne { initializer.line("var matches: [\(name)] = []") }
                for variant in choice.variants {
                    let caseName = SwiftName.escaped(variant.caseName)
                    let condition: String
                    let value: String
                    if let type = variant.type {
                        // Strictly: an enum's unknown value does not match a variant.
                        if case .model = type {
                            condition = "let value = try? ModelCoding.strictly({ try \(types.swift(type))(from: decoder) })"
                        } else if type.containsModel {
                            condition =
                                "let value = try? ModelCoding.strictly({ try decoder.singleValueContainer().decode(\(types.wire(type) ?? types.swift(type)).self) })"
                        } else {
                            condition =
                                "let value = try? decoder.singleValueContainer().decode(\(types.wire(type) ?? types.swift(type)).self)"
                        }
                        value = ".\(caseName)(\(types.fromWire("value", type)))"
                    } else {
                        condition = "(try? decoder.singleValueContainer().decodeNil()) == true"
                        value = ".\(caseName)"
                    }
                    initializer.block("if \(condition)") { inner in
                        if choice.exactlyOne {
                            inner.line("matches.append(\(value))")
                        } else {
                            inner.line("self = \(value)")
                            inner.line("return")
                        }
                    }
                }
                let keyword = SwiftName.stringLiteral(choice.keyword)
                let none = "the value matches none of the \(choice.variants.count) schemas"
                if choice.exactlyOne {
                    initializer.block("guard matches.count == 1 else") { guardBody in
                        guardBody.line(
                            "throw SchemaViolation(codingPath: decoder.codingPath, keyword: \(keyword), message: matches.isEmpty ? \"\(none)\" : \"the value matches \\(matches.count) of the schemas; exactly one must match\")"
                        )
                    }
                    initializer.line("self = matches[0]")
                } else {
                    initializer.line("throw SchemaViolation(codingPath: decoder.codingPath, keyword: \(keyword), message: \"\(none)\")")
                }
            }
            body.line()
            body.block("public func encode(to encoder: any Encoder) throws") { encode in
                encode.line("var container = encoder.singleValueContainer()")
                encode.block("switch self") { cases in
                    for variant in choice.variants {
                        let caseName = SwiftName.escaped(variant.caseName)
                        guard let type = variant.type else {
                            cases.line("case .\(caseName): try container.encodeNil()")
                            continue
                        }
                        cases.line("case .\(caseName)(let value): try container.encode(\(types.toWire("value", type)))")
                    }
                }
            }
            nestedModels(model, qualifiedName: model.swiftName, into: &body)
        }
    }
}
