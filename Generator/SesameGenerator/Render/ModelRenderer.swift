/// Renders models: structs with checked `Codable`, enums that keep unknown values,
/// discriminated unions, and named aliases.
struct ModelRenderer {
    let types: TypeRendering

    func render(_ model: ModelIR, qualifiedName: String, into writer: inout CodeWriter) {
        writer.doc(model.description)
        switch model.kind {
        case .object(let object): renderObject(model, object, qualifiedName: qualifiedName, into: &writer)
        case .enumeration(let enumeration): renderEnum(model, enumeration, into: &writer)
        case .union(let union): renderUnion(model, union, qualifiedName: qualifiedName, into: &writer)
        case .alias(let type, let constraints): renderAlias(model, type, constraints, qualifiedName: qualifiedName, into: &writer)
        case .choice(let choice): renderChoice(model, choice, qualifiedName: qualifiedName, into: &writer)
        }
    }

    func nestedModels(_ model: ModelIR, qualifiedName: String, into writer: inout CodeWriter) {
        for inner in model.nested {
            writer.line()
            render(inner, qualifiedName: "\(qualifiedName).\(inner.swiftName)", into: &writer)
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
            if !enumeration.closed {
                body.doc("A value this version of the SDK does not know, kept as received.")
                body.line("case unknown(\(raw))")
            }
            body.line()
            body.doc("The values the schema declares.")
            body.line(
                "public static let allKnownCases: [\(name)] = [\(enumeration.cases.map { ".\(SwiftName.escaped($0.swiftName))" }.joined(separator: ", "))]"
            )
            body.line()
            if enumeration.closed { body.doc("Nil for a value the schema does not declare (`models: { enums: closed }`).") }
            body.block("public init\(enumeration.closed ? "?" : "")(rawValue: \(raw))") { initializer in
                initializer.block("switch rawValue") { cases in
                    for item in enumeration.cases {
                        cases.line("case \(literal(item.rawValue)): self = .\(SwiftName.escaped(item.swiftName))")
                    }
                    cases.line(enumeration.closed ? "default: return nil" : "default: self = .unknown(rawValue)")
                }
            }
            body.line()
            body.block("public var rawValue: \(raw)") { getter in
                getter.block("switch self") { cases in
                    for item in enumeration.cases {
                        cases.line("case .\(SwiftName.escaped(item.swiftName)): return \(literal(item.rawValue))")
                    }
                    if !enumeration.closed { cases.line("case .unknown(let value): return value") }
                }
            }
            body.line()
            body.line("public var description: String { \(enumeration.rawType == .string ? "rawValue" : "String(rawValue)") }")
            body.line()
            body.block("public init(from decoder: any Decoder) throws") { initializer in
                guard enumeration.closed else {
                    initializer.line("self.init(rawValue: try decoder.singleValueContainer().decode(\(raw).self))")
                    initializer.line("if case .unknown = self { try ModelCoding.unknownValue(decoder, keyword: \"enum\") }")
                    return
                }
                // Closed: a value the schema does not list is refused, as JSON Schema's enum does.
                initializer.block("guard let value = Self(rawValue: try decoder.singleValueContainer().decode(\(raw).self)) else") {
                    refused in
                    refused.line(
                        "throw SchemaViolation(codingPath: decoder.codingPath, keyword: \"enum\", message: \"the value is not one the schema declares\")"
                    )
                }
                initializer.line("self = value")
            }
            body.line()
            body.block("public func encode(to encoder: any Encoder) throws") { encode in
                encode.line("var container = encoder.singleValueContainer()")
                encode.line("try container.encode(rawValue)")
            }
        }
    }

    // MARK: Unions

    /// Only a case whose model can hold the union is `indirect` (a box per value).
    private func renderUnion(_ model: ModelIR, _ union: UnionIR, qualifiedName: String, into writer: inout CodeWriter) {
        let name = SwiftName.escaped(model.swiftName)
        let label = SwiftName.escaped(union.unknownTagLabel)
        writer.block("public enum \(name): Codable, Hashable, Sendable") { body in
            for variant in union.variants {
                let prefix = types.indirectPrefix(.model(variant.model), in: qualifiedName)
                body.line("\(prefix)case \(SwiftName.escaped(variant.caseName))(\(types.swift(.model(variant.model))))")
            }
            if !union.closed {
                body.doc("A variant this version of the SDK does not know: its discriminator and the value as received.")
                body.line("case unknown(\(label): String, value: JSONValue)")
            }
            body.line()
            body.doc("The discriminator's value.")
            body.block("public var \(SwiftName.escaped(union.tagPropertyName)): String") { getter in
                getter.block("switch self") { cases in
                    for variant in union.variants {
                        cases.line("case .\(SwiftName.escaped(variant.caseName)): return \(SwiftName.stringLiteral(variant.tag))")
                    }
                    if !union.closed { cases.line("case .unknown(let tag, _): return tag") }
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
                        if union.closed {
                            // Closed: no variant has this tag, so none matches (JSON Schema's oneOf).
                            unknown.line(
                                "throw SchemaViolation(codingPath: decoder.codingPath, keyword: \"oneOf\", message: \"the value is not one the schema declares\")"
                            )
                            return
                        }
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
                    if !union.closed { cases.line("case .unknown(_, let value): try value.encode(to: encoder)") }
                }
            }
            // Inline members of the oneOf.
            nestedModels(model, qualifiedName: qualifiedName, into: &body)
        }
    }

    // MARK: Aliases

    private func renderAlias(
        _ model: ModelIR, _ type: TypeIR, _ constraints: ConstraintsIR, qualifiedName: String, into writer: inout CodeWriter
    ) {
        let name = SwiftName.escaped(model.swiftName)
        let swiftType = types.swift(type)
        guard types.wrapsAlias(model, type, constraints) else {
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
            body.doc("Wraps a value without checking it; decoding and encoding check the schema's constraints.")
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
                // What decoding checks, before anything is written (docs/format.md, "Checked on encode too").
                if constraints.schema != nil {
                    let value = types.toWire("self.rawValue", type)
                    encode.line("try ModelCoding.checkEncoding(\(value), Self.schemaCheck, codingPath: encoder.codingPath)")
                }
                types.checks("self.rawValue", type, constraints, path: "encoder.codingPath", into: &encode)
                encode.line("var container = encoder.singleValueContainer()")
                encode.line("try container.encode(\(types.toWire("rawValue", type)))")
            }
            nestedModels(model, qualifiedName: qualifiedName, into: &body)
        }
    }

}
