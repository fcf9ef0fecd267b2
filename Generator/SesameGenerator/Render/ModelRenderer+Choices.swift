@_spi(Generated) import SesameDescription

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
    ///
    /// When the value's shape can spare a decode, the keys of the value are read once
    /// (`keys`: a keyed container, nil when the value is not an object) and a variant that
    /// cannot match is skipped without being decoded (``Shape``). A skipped variant is one
    /// whose decoding would have failed, so what matches, and the error when none or two do,
    /// stay as they were; only the thrown and discarded `DecodingError` is spared.
    private func renderChoiceDecoding(_ choice: ChoiceIR, into initializer: inout CodeWriter) {
        initializer.line("var match: Self?")
        if choice.exactlyOne { initializer.line("var matches = 0") }
        // What the members that refused the value said: a value none matches is reported
        // where the member that got furthest into it failed (`ChoiceFailures`).
        initializer.line("var failures = ChoiceFailures()")
        let strict = choice.variants.contains { $0.type?.containsModel == true }
        let shapes = choice.variants.map { shape(of: $0) }
        // `anyOf` stops at the first match: its first variant is tried as it is, so that a
        // value it takes costs no more than before; the keys are read (once) only when it
        // did not match.
        let first = choice.exactlyOne ? 0 : 1
        let readsKeys = first < shapes.count && sparesADecode(Array(shapes[first...]))
        func tries(_ writer: inout CodeWriter) {
            for (index, variant) in choice.variants.enumerated() {
                if readsKeys, index == first {
                    let keys = "try? decoder.container(keyedBy: PropertyKey.self)"
                    writer.line(choice.exactlyOne ? "let keys = \(keys)" : "let keys = match == nil ? (\(keys)) : nil")
                }
                let caseName = SwiftName.escaped(variant.caseName)
                var conditions: [String] = []
                if readsKeys, index >= first {
                    switch shapes[index] {
                    case .object(let required):
                        conditions +=
                            required.isEmpty
                            ? ["keys != nil"] : ["let keys"] + required.map { "keys.contains(\(SwiftName.stringLiteral($0)))" }
                    case .notObject: conditions.append("keys == nil")
                    case .any: break
                    }
                }
                let value: String
                if let type = variant.type {
                    // Strictly: an enum's unknown value does not match a variant.
                    if case .model = type {
                        conditions.append("let value = failures.attempt({ try \(types.swift(type))(from: decoder) })")
                    } else {
                        conditions.append(
                            "let value = failures.attempt({ try decoder.singleValueContainer().decode(\(types.wire(type) ?? types.swift(type)).self) })"
                        )
                    }
                    value = "Self.\(caseName)(\(types.fromWire("value", type)))"
                } else {
                    conditions.append("(try? decoder.singleValueContainer().decodeNil()) == true")
                    value = "Self.\(caseName)"
                }
                if choice.exactlyOne {
                    writer.block("if \(conditions.joined(separator: ", "))") { inner in
                        inner.line("matches += 1")
                        inner.line("if match == nil { match = \(value) }")
                    }
                } else {
                    writer.block("if \((["match == nil"] + conditions).joined(separator: ", "))") { inner in
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
        let count = choice.variants.count
        if choice.exactlyOne {
            initializer.block("guard matches == 1, let match else") { guardBody in
                guardBody.line(
                    "throw failures.violation(codingPath: decoder.codingPath, keyword: \(keyword), matches: matches, of: \(count))")
            }
        } else {
            initializer.block("guard let match else") { guardBody in
                guardBody.line("throw failures.violation(codingPath: decoder.codingPath, keyword: \(keyword), matches: 0, of: \(count))")
            }
        }
        initializer.line("self = match")
    }

    /// What a variant needs of the value's shape, known without decoding it.
    private enum Shape {
        /// A generated object or discriminated union: its decoding opens a keyed container
        /// first, so it fails on anything but an object, and on an object that lacks one of
        /// these JSON names (decoded with `decode(_:forKey:)`, or `required` in its check).
        case object(required: [String])
        /// A string, number, boolean, array or enum of strings or integers: never an object.
        case notObject
        /// Anything else (null, any value, a dictionary, an alias, a choice): always tried.
        case any
    }

    private func shape(of variant: ChoiceVariantIR) -> Shape {
        switch variant.type {
        case .string?, .integer?, .number?, .boolean?, .array?: return .notObject
        case .model(let reference)?:
            switch types.models[reference.swiftPath]?.kind {
            case .object(let object)?:
                var names = object.properties.filter { $0.required && ($0.nullable || $0.defaultValue == nil) }.map(\.name)
                for name in object.schema?.required ?? [] where !names.contains(name) { names.append(name) }
                return .object(required: names)
            case .union(let union)?: return .object(required: [union.discriminator])
            case .enumeration?: return .notObject
            default: return .any
            }
        default: return .any
        }
    }

    /// Whether reading the value's keys can spare a variant's decode whatever the value:
    /// a variant with a required name, or both object and non-object variants.
    private func sparesADecode(_ shapes: [Shape]) -> Bool {
        var objects = false
        var others = false
        for shape in shapes {
            switch shape {
            case .object(let required):
                if !required.isEmpty { return true }
                objects = true
            case .notObject: others = true
            case .any: break
            }
        }
        return objects && others
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
