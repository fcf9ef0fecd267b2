/// Choices: `anyOf`, `oneOf` without a discriminator, or a list of types.
extension ModelRenderer {
    /// `anyOf`, `oneOf` without a discriminator, or a list of types: a case per schema,
    /// decoded by trying each; `oneOf` fails when none or more than one matches.
    func renderChoice(_ model: ModelIR, _ choice: ChoiceIR, into writer: inout CodeWriter) {
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
