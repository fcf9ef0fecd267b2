import Yams
@_spi(Generated) import SesameDescription

/// `unevaluatedProperties`, the way OpenAPI 3.1 documents close a composition (`allOf` of a
/// base and an extension, then `unevaluatedProperties: false`). On an object model, possibly
/// an `allOf` of objects and `$ref`s, the evaluated properties are the union of every
/// member's `properties`, so the keyword is the `additionalProperties` of the composed
/// struct: `false` refuses any other key on decode, a schema keeps the other keys in the
/// struct's extra dictionary, each checked against it. Where evaluation depends on which
/// branch matched (`anyOf`, `oneOf`, `if`, `dependentSchemas`, `patternProperties`), it is an
/// error at the keyword that says what to write instead.
extension ModelTranslator {
    /// Whether `object` or `allOf` translates the schema's `unevaluatedProperties` (else
    /// `reportUnsupported` refuses it): a schema that becomes a struct.
    func translatesUnevaluatedProperties(_ entries: [Entry]) -> Bool {
        if entries["enum"] != nil || isChoice(entries) || entries["oneOf"] != nil { return false }
        if let allOf = entries["allOf"] {
            guard case .sequence(let members) = allOf.value else { return false }
            return isObjectAllOf(Array(members))
        }
        return isObject(entries)
    }

    /// The `additionalProperties` of an object, possibly composed, given its
    /// `unevaluatedProperties` entry: the keys no member evaluated are those outside the
    /// merged properties, unless a member's `additionalProperties` already evaluates every key
    /// (then the keyword changes nothing). `checks` are the JSON checks of the object and its
    /// members: one that evaluates keys by branch makes the keyword an error, and so does a
    /// `$ref` in `entries` (the schema beside the keyword).
    mutating func unevaluatedProperties(
        _ entry: Entry, in entries: [Entry], additional: AdditionalPropertiesIR, checks: [ModelCheck], qualifiedName: String,
        nested: inout [ModelIR], reader: inout NodeReader
    ) -> AdditionalPropertiesIR {
        if entries["$ref"] != nil {
            // The referenced model's properties are evaluated too, but `$ref` beside keywords
            // is a check of the JSON here, not a merge of its properties.
            reader.error(
                "unevaluatedProperties beside $ref is not supported; write the reference as allOf: [{ $ref: ... }] beside the properties",
                at: entry.keyNode)
            return additional
        }
        if let keyword = checks.lazy.compactMap(Self.branchKeyword).first {
            reader.error(
                "unevaluatedProperties beside \(keyword) is not supported: which keys are evaluated depends on the branch that matched; list every property in 'properties' (or in each allOf member) and write additionalProperties in each branch instead",
                at: entry.keyNode)
            return additional
        }
        guard additional == .ignored else { return additional }
        if case .scalar = entry.value, let flag = entry.value.bool {
            return flag ? .kept(.any, ConstraintsIR()) : .rejected
        }
        let resolved = inlineType(
            entry.value, qualifiedName: qualifiedName, hint: "AdditionalProperty", nested: &nested, reader: &reader)
        return .kept(resolved.type, resolved.constraints)
    }

    /// The keyword of `check` (or of one of its `allOf` members) whose evaluated keys depend
    /// on the branch that matched, if any.
    private static func branchKeyword(_ check: ModelCheck) -> String? {
        var work = [check]
        while let next = work.popLast() {
            if !next.anyOf.isEmpty { return "anyOf" }
            if !next.oneOf.isEmpty { return "oneOf" }
            if next.ifSchema != nil { return "if (or dependentSchemas)" }
            if !next.patternProperties.isEmpty { return "patternProperties" }
            work += next.allOf
        }
        return nil
    }
}
