/// Choices: `anyOf`, `oneOf` without a discriminator, or a list of types.
extension ModelRenderer {
    /// `anyOf`, `oneOf` without a discriminator, or a list of types: a case per schema,
    /// decoded by trying each; `oneOf` fails when none or more than one matches.
    ///
    /// Only a case whose payload can hold the enum is `indirect` (a box per value). `oneOf`
    /// tries every variant (to refuse a value that matches two) but counts the matches and
    /// keeps the first; `anyOf` stops at the first. The variants are tried inside one
    /// `ModelCoding.strictly` when any needs it (only enums and unions read it).
    func renderChoice(_ model: ModelIR, _ choice: ChoiceIR, qualifiedName: String, into writer: inout CodeWriter) {
        let name = SwiftName.escaped(model.swiftName)
        writer.block("public enum \(name): Codable, Hashable, Sendable") { body in
            for variant in choice.variants {
                if let type = variant.type {
                    let prefix = types.indirectPrefix(type, in: qualifiedName)
                    body.line("\(prefix)case \(SwiftName.escaped(variant.caseName))(\(types.swift(type)))")
                } else {
                    body.line("case \(SwiftName.escaped(variant.caseName))")
                }
            }
            body.line()
            body.block("public init(from decoder: any Decoder) throws") { initializer in
                renderChoiceDecoding(choice, into: &initializer)
            }
            body.line()
            body.block("public func encode(to encoder: any Encoder) throws") { encode in
                encode.block("switch self") { cases in
                    for variant in choice.variants {
                        let caseName = SwiftName.escaped(variant.caseName)
                        guard let type = variant.type else {
                            cases.line("case .\(caseName): var container = encoder.singleValueContainer(); try container.encodeNil()")
                            continue
                        }
                        if encodesItself(type) {
                            cases.line("case .\(caseName)(let value): try value.encode(to: encoder)")
                        } else {
                            cases.line(
                                "case .\(caseName)(let value): var container = encoder.singleValueContainer(); try container.encode(\(types.toWire("value", type)))"
                            )
                        }
                    }
                }
            }
            nestedModels(model, qualifiedName: qualifiedName, into: &body)
        }
    }

    /// The body of a choice's `init(from:)`.
    private func renderChoiceDecoding(_ choice: ChoiceIR, into initializer: inout CodeWriter) {
        initializer.line("var match: Self?")
        if choice.exactlyOne { initializer.line("var matches = 0") }
        let strict = choice.variants.contains { $0.type?.containsModel == true }
        func tries(_ writer: inout CodeWriter) {
            for variant in choice.variants {
                let caseName = SwiftName.escaped(variant.caseName)
                let condition: String
                let value: String
                if let type = variant.type {
                    // Strictly: an enum's unknown value does not match a variant.
                    if case .model = type {
                        condition = "let value = try? \(types.swift(type))(from: decoder)"
                    } else {
                        condition = "let value = try? decoder.singleValueContainer().decode(\(types.wire(type) ?? types.swift(type)).self)"
                    }
                    value = "Self.\(caseName)(\(types.fromWire("value", type)))"
                } else {
                    condition = "(try? decoder.singleValueContainer().decodeNil()) == true"
                    value = "Self.\(caseName)"
                }
                if choice.exactlyOne {
                    writer.block("if \(condition)") { inner in
                        inner.line("matches += 1")
                        inner.line("if match == nil { match = \(value) }")
                    }
                } else {
                    writer.block("if match == nil, \(condition)") { inner in
                        inner.line("match = \(value)")
                    }
                }
            }
        }
        if strict {
            initializer.block("ModelCoding.strictly") { inner in tries(&inner) }
        } else {
            tries(&initializer)
        }
        let keyword = SwiftName.stringLiteral(choice.keyword)
        let none = "the value matches none of the \(choice.variants.count) schemas"
        if choice.exactlyOne {
            initializer.block("guard matches == 1, let match else") { guardBody in
                guardBody.line(
                    "throw SchemaViolation(codingPath: decoder.codingPath, keyword: \(keyword), message: matches == 0 ? \"\(none)\" : \"the value matches \\(matches) of the schemas; exactly one must match\")"
                )
            }
        } else {
            initializer.block("guard let match else") { guardBody in
                guardBody.line("throw SchemaViolation(codingPath: decoder.codingPath, keyword: \(keyword), message: \"\(none)\")")
            }
        }
        initializer.line("self = match")
    }

    /// Whether a variant's value encodes itself as the choice would (a generated object, enum,
    /// union or choice), so `value.encode(to:)` replaces a nested single-value encoder. An
    /// alias may name a `Date` the encoder's strategy formats, so it keeps the container.
    private func encodesItself(_ type: TypeIR) -> Bool {
        guard case .model(let reference) = type, let target = types.models[reference.swiftPath] else { return false }
        if case .alias = target.kind { return false }
        return true
    }
}
