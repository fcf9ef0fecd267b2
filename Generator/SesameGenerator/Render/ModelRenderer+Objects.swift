@_spi(Generated) import SesameDescription

/// Objects: a struct with its stored properties, its initialiser, and a `Codable`
/// conformance that checks what it decodes.
extension ModelRenderer {
    private func storedType(_ property: PropertyIR) -> String {
        let base = types.swift(property.type)
        return property.isOptional ? optionalType(base) : base
    }

    private func optionalType(_ base: String) -> String { "\(base)?" }

    func renderObject(_ model: ModelIR, _ object: ObjectIR, qualifiedName: String, into writer: inout CodeWriter) {
        let name = SwiftName.escaped(model.swiftName)
        let keepsExtra: TypeIR? = { if case .kept(let type, _) = object.additionalProperties { return type } else { return nil } }()
        let extraName = object.additionalPropertiesName
        let secrets = object.properties.filter { types.holdsSecret($0.type) }
        let conformances = secrets.isEmpty ? "Codable, Hashable, Sendable" : "Codable, Hashable, Sendable, CustomReflectable"
        writer.block("public struct \(name): \(conformances)") { body in
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
                switch object.keptForChecks {
                case .all?:
                    body.doc(
                        "Properties the schema does not declare, kept as received: its checks count them (`minProperties`) or tell them apart (under `not`, `oneOf`, `if`)."
                    )
                case .matching?:
                    body.doc(
                        "Properties the schema does not declare and its `patternProperties` match, kept as received.")
                case nil:
                    body.doc("Properties the schema does not declare, kept as received.")
                }
                body.line("public var \(extraName): [String: \(types.swift(extra))]")
            }
            renderSchemaChecks(object, into: &body)
            body.line()
            renderInitializer(object, extraName: keepsExtra.map { (extraName, $0) }, into: &body)
            body.line()
            renderDecoder(object, extraName: extraName, into: &body)
            body.line()
            renderEncoder(object, extraName: extraName, into: &body)
            if !secrets.isEmpty { renderRedactingMirror(object, extraName: keepsExtra == nil ? nil : extraName, into: &body) }
            nestedModels(model, qualifiedName: qualifiedName, into: &body)
        }
    }

    /// The mirror of an object with a `format: password` property: every property as it is
    /// but the secrets, so that `print`, `String(describing:)`, `dump` and a log line of the
    /// model never show them.
    private func renderRedactingMirror(_ object: ObjectIR, extraName: String?, into body: inout CodeWriter) {
        body.line()
        body.doc("The model's properties, with each `format: password` one shown as `<redacted>`.")
        body.block("public var customMirror: Mirror") { mirror in
            var children = object.properties.map { property in
                let value = types.holdsSecret(property.type) ? "\"<redacted>\"" : SwiftName.escaped(property.swiftName)
                return "\(SwiftName.stringLiteral(property.swiftName)): \(value)"
            }
            if let extraName { children.append("\(SwiftName.stringLiteral(extraName)): \(SwiftName.escaped(extraName))") }
            mirror.line("Mirror(self, children: [\(children.joined(separator: ", "))], displayStyle: .struct)")
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
            writer.line("private static let schemaCheck = \(types.schemaCheck(schema, on: object))")
            if !object.properties.isEmpty {
                writer.doc("The declared properties, counted against `minProperties` when the check asks only which are present.")
                writer.line("private static let schemaCheckKeys: [PropertyKey] = \(knownKeys(object))")
            }
        }
        for property in object.properties {
            guard let schema = property.constraints.schema else { continue }
            writer.line("private static let \(checkName(property)) = \(types.schemaCheck(schema))")
        }
        if case .kept(_, let constraints) = object.additionalProperties, let schema = constraints.schema {
            writer.line("private static let extraSchemaCheck = \(types.schemaCheck(schema))")
        }
        if case .matching(let patterns)? = object.keptForChecks {
            // A key is kept when it matches a pattern, as a string the check's `pattern` matches.
            let check = ModelCheck(anyOf: patterns.map { ModelCheck(pattern: $0) })
            writer.doc("The undeclared keys `\(object.additionalPropertiesName)` keeps: those a `patternProperties` pattern matches.")
            writer.line("private static let keptKeysCheck = \(types.schemaCheck(check))")
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
            switch (object.schema != nil, object.properties.isEmpty) {
            case (true, false):
                // One container for the check and the properties (ModelCoding.checkedContainer).
                body.line("let container = try ModelCoding.checkedContainer(decoder, Self.schemaCheck, declared: Self.schemaCheckKeys)")
            case (false, false):
                body.line("let container = try decoder.container(keyedBy: PropertyKey.self)")
            case (let checked, true):
                if checked { body.line("try ModelCoding.check(decoder, Self.schemaCheck)") }
                // An object, even with no property: a number, a string, an array or null is refused.
                body.line("_ = try decoder.container(keyedBy: PropertyKey.self)")
            }
            for property in object.properties {
                let key = key(property)
                let wire = types.wire(property.type) ?? types.swift(property.type)
                let converted = { (expression: String) in types.fromWire(expression, property.type) }
                var expression: String
                if property.namedByChecks {
                    // Kept as received, `null` too (`decodeIfPresent` reads `null` as absent).
                    expression = "try container.contains(\(key)) ? container.decode(JSONValue.self, forKey: \(key)) : nil"
                } else if property.nullable && property.required {
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
                var matching = ""
                if case .matching? = object.keptForChecks { matching = " && Self.keptKeysCheck.matches(.string(key.stringValue))" }
                body.block("for key in extra.allKeys where !known.contains(key.stringValue)\(matching)") { loop in
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
            renderEncodeChecks(object, extraName: extraName, into: &body)
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
    /// The checks `init(from:)` runs, run by `encode(to:)` before it writes anything
    /// (docs/format.md, "Checked on encode too"): a property's keywords on its Swift value, and
    /// the keywords only the JSON shows (the object's and a property's `SchemaCheck`) on the
    /// JSON the value encodes to. A violation is the ``SchemaViolation`` decoding throws.
    /// The object's own check on encode, told by the properties in hand when it asks only
    /// which are present (`ModelCoding.checkEncoding(_:_:declared:complete:codingPath:isPresent:)`).
    private func renderPresenceCheck(_ object: ObjectIR, extraName: String, into body: inout CodeWriter) {
        let keepsExtra: Bool = { if case .kept = object.additionalProperties { return true } else { return false } }()
        let complete = keepsExtra ? "\(extraName).isEmpty" : "true"
        body.line(
            "try ModelCoding.checkEncoding(self, Self.schemaCheck, declared: Self.schemaCheckKeys, complete: \(complete), codingPath: encoder.codingPath) { name in"
        )
        body.indented { closure in
            closure.block("switch name") { cases in
                var always: [String] = []
                var optional: [(String, String)] = []
                for property in object.properties {
                    if property.isOptional && !(property.nullable && property.required) {
                        optional.append((key(property), "self.\(SwiftName.escaped(property.swiftName)) != nil"))
                    } else {
                        always.append(key(property))
                    }
                }
                if !always.isEmpty { cases.line("case \(always.joined(separator: ", ")): return true") }
                for (name, test) in optional { cases.line("case \(name): return \(test)") }
                cases.line("default: return false")
            }
        }
        body.line("}")
    }

    private func renderEncodeChecks(_ object: ObjectIR, extraName: String, into body: inout CodeWriter) {
        if object.schema != nil {
            if object.properties.isEmpty {
                body.line("try ModelCoding.checkEncoding(self, Self.schemaCheck, codingPath: encoder.codingPath)")
            } else {
                renderPresenceCheck(object, extraName: extraName, into: &body)
            }
        }
        for property in object.properties where !isConst(property) {
            let key = key(property)
            let value = "self.\(SwiftName.escaped(property.swiftName))"
            let path = "encoder.codingPath + [PropertyKey(\(key))]"
            if property.constraints.schema != nil {
                // Checked when the key is written: always when required and nullable (null), else when non-nil.
                let check = "Self.\(checkName(property))"
                if property.isOptional && !(property.nullable && property.required) {
                    body.block("if let value = \(value)") { inner in
                        inner.line("try ModelCoding.checkEncoding(\(types.toWire("value", property.type)), \(check), codingPath: \(path))")
                    }
                } else if property.isOptional {
                    let wire = types.wire(property.type) == nil ? value : "\(value).map { \(types.toWire("$0", property.type)) }"
                    body.line("try ModelCoding.checkEncoding(\(wire), \(check), codingPath: \(path))")
                } else {
                    body.line("try ModelCoding.checkEncoding(\(types.toWire(value, property.type)), \(check), codingPath: \(path))")
                }
            }
            if types.hasChecks(property.type, property.constraints) {
                if property.isOptional {
                    body.block("if let value = \(value)") { inner in
                        types.checks("value", property.type, property.constraints, path: path, into: &inner)
                    }
                } else {
                    types.checks(value, property.type, property.constraints, path: path, into: &body)
                }
            }
        }
        if case .kept(let type, let constraints) = object.additionalProperties,
            constraints.schema != nil || types.hasChecks(type, constraints)
        {
            let filter = object.properties.isEmpty ? "" : " where !\(knownKeys(object)).contains(key)"
            body.block("for (key, value) in \(extraName)\(filter)") { loop in
                let path = "encoder.codingPath + [AnyCodingKey(key)]"
                if constraints.schema != nil {
                    loop.line("try ModelCoding.checkEncoding(\(types.toWire("value", type)), Self.extraSchemaCheck, codingPath: \(path))")
                }
                if types.hasChecks(type, constraints) {
                    types.checks("value", type, constraints, path: path, into: &loop)
                }
            }
        }
    }
}
