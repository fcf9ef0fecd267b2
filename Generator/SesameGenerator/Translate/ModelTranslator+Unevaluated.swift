import Yams
@_spi(Generated) import SesameDescription

/// `unevaluatedProperties`, the way OpenAPI 3.1 documents close a composition (`allOf` of a
/// base and an extension, then `unevaluatedProperties: false`). On an object model, possibly
/// an `allOf` of objects and `$ref`s, the evaluated properties are the union of every
/// member's `properties`, so the keyword is the `additionalProperties` of the composed
/// struct: `false` refuses any other key on decode, a schema keeps the other keys in the
/// struct's extra dictionary, each checked against it. Where evaluation depends on which
/// branch matched (`anyOf`, `oneOf`, `if`, `dependentSchemas`) or on a pattern
/// (`patternProperties`), it is a JSON check (ModelTranslator+Evaluated) and the struct keeps
/// every undeclared key; on a schema that is no struct, a JSON check of the value.
extension ModelTranslator {
    /// Whether `object` or `allOf` translates the schema's `unevaluatedProperties` (else it is
    /// a JSON check, or the check of a choice): a schema that becomes a struct.
    func translatesUnevaluatedProperties(_ entries: [Entry]) -> Bool {
        if entries["enum"] != nil || isChoice(entries) || entries["oneOf"] != nil && entries["discriminator"] != nil { return false }
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
    /// members: when one evaluates keys by branch or by pattern, the keyword is a JSON check
    /// added to `schema`, and the struct keeps every undeclared key (as JSON values); so it is
    /// beside a `$ref` (whose properties are evaluated, but not merged into the struct).
    mutating func unevaluatedProperties(
        _ entry: Entry, in entries: [Entry], additional: AdditionalPropertiesIR, checks: [ModelCheck], schema: inout ModelCheck,
        qualifiedName: String, nested: inout [ModelIR], reader: inout NodeReader
    ) -> AdditionalPropertiesIR {
        guard additional == .ignored else { return additional }
        if entries["$ref"] != nil || checks.contains(where: Self.evaluatesByBranch) {
            // The keys a branch, a pattern or a `$ref` beside the properties (a check of the
            // JSON, not a merge) evaluates are known on the JSON only.
            guard let check = unevaluatedPropertiesCheck(entry, in: entries, reader: &reader) else { return additional }
            schema.allOf.append(check)
            return .kept(.any, ConstraintsIR())
        }
        if case .scalar = entry.value, let flag = entry.value.bool {
            return flag ? .kept(.any, ConstraintsIR()) : .rejected
        }
        let resolved = inlineType(
            entry.value, qualifiedName: qualifiedName, hint: NamingPass.additionalPropertyTypeHint, nested: &nested, reader: &reader)
        return .kept(resolved.type, resolved.constraints)
    }

    /// The JSON check of `unevaluatedProperties` (`entry`) in `entries`; nil (and an error at
    /// the keyword) when the evaluated keys cannot be known at generation time.
    mutating func unevaluatedPropertiesCheck(_ entry: Entry, in entries: [Entry], reader: inout NodeReader) -> ModelCheck? {
        unevaluatedCheck(entry, in: entries, kind: .properties, keyword: "unevaluatedProperties", reader: &reader)
    }

    /// The JSON check of `keyword` (`unevaluatedProperties` or `unevaluatedItems`, `entry`) in
    /// `entries`; nil (and an error at the keyword) when what is evaluated cannot be known at
    /// generation time.
    private mutating func unevaluatedCheck(
        _ entry: Entry, in entries: [Entry], kind: Evaluated.Kind, keyword: String, reader: inout NodeReader
    ) -> ModelCheck? {
        let unevaluated = schemaCheck(entry.value, reader: &reader)
        do {
            let evaluated = try evaluated(entries, kind: kind, skipping: keyword, file: reader.file)
            let check = try Self.unevaluatedCheck(evaluated, kind: kind, unevaluated: unevaluated)
            return check.isEmpty ? nil : check
        } catch let limit as EvaluationLimit {
            reportEvaluationLimit(limit, keyword: keyword, at: entry.keyNode, reader: &reader)
        } catch {
            reader.error("\(keyword): \(error)", at: entry.keyNode)
        }
        return nil
    }

    /// A choice (`anyOf`, or `oneOf` without a discriminator) beside `unevaluatedProperties`,
    /// `unevaluatedItems` or `allOf`, or a discriminated union beside `allOf`: the choice
    /// becomes the nested enum `Value`, and the model a struct wrapping it (`rawValue`) whose
    /// decoding first checks the keywords on the JSON (`unevaluated*` seeing the properties or
    /// items of the branches that matched), as its encoding does. Nil when none is there.
    mutating func checkedChoice(
        _ entries: [Entry], qualifiedName: String, nested: inout [ModelIR], reader: inout NodeReader, isUnion: Bool = false
    )
        -> ModelIR.Kind?
    {
        // A union's own check of unevaluated keys stays refused, by the union.
        let keywords = isUnion ? ["allOf"] : ["unevaluatedProperties", "unevaluatedItems", "allOf"]
        guard !isTypeList(entries), entries.contains(where: { keywords.contains($0.key) }) else { return nil }
        var check = ModelCheck()
        if let entry = entries["allOf"] {
            check.allOf += choiceAllOfChecks(entry, beside: entries["oneOf"] != nil ? "oneOf" : "anyOf", reader: &reader)
        }
        if !isUnion, let entry = entries["unevaluatedProperties"],
            let part = unevaluatedPropertiesCheck(entry, in: entries, reader: &reader)
        {
            check.allOf.append(part)
        }
        if !isUnion, let entry = entries["unevaluatedItems"], let part = unevaluatedItemsCheck(entry, in: entries, reader: &reader) {
            check.allOf.append(part)
        }
        let choice = entries.filter { !keywords.contains($0.key) }
        let swiftName = uniqueNestedName("Value", in: nested, owner: qualifiedName)
        let path = qualifiedName.isEmpty ? swiftName : "\(qualifiedName).\(swiftName)"
        var inner = NodeReader(file: reader.file, ignoresUnknown: reader.ignoresUnknown)  // the outer schema reported its keys already
        var model = namedModel(
            name: swiftName, swiftName: swiftName, qualifiedName: path, node: .mapping(Node.Mapping(choice.map { ($0.keyNode, $0.value) })),
            reader: &inner)
        model.description = nil
        for diagnostic in inner.diagnostics where !reader.diagnostics.contains(diagnostic) { reader.append(diagnostic) }
        nested.append(model)
        var constraints = ConstraintsIR()
        constraints.schema = check.allOf.count == 1 ? check.allOf[0] : check.isEmpty ? nil : check
        return .alias(.model(ModelRef(declaredName: nil, swiftPath: path)), constraints)
    }

    /// The checks of an `allOf` beside a choice: each member checks the value the choice
    /// decoded, on decode and on encode. A member that declares keys (`properties`, a `$ref`)
    /// is an error: the choice's members would not keep the keys it declares, so a value
    /// would decode and then fail its own check on encode.
    private mutating func choiceAllOfChecks(_ entry: Entry, beside key: String, reader: inout NodeReader) -> [ModelCheck] {
        var checks: [ModelCheck] = []
        for member in reader.sequence(entry.value, "allOf") ?? [] {
            let declaringKeys: [String?] = ["properties", "$ref", "patternProperties", "additionalProperties"]
            if case .mapping(let mapping) = member, let declaring = mapping.first(where: { declaringKeys.contains($0.key.string) }) {
                let what = declaring.key.string == "$ref" ? "a $ref" : "'\(declaring.key.string ?? "")'"
                reader.error(
                    "an allOf beside \(key) only checks the value, and \(what) in it declares keys the \(key)'s schemas would not keep; put it in each of the \(key) schemas instead (allOf: [{ $ref: ... }, { ... }] in each)",
                    at: declaring.key)
                continue
            }
            checks.append(schemaCheck(member, reader: &reader))
        }
        return checks
    }

    /// Whether `check` (or one of its `allOf` members) evaluates keys by branch or by pattern.
    private static func evaluatesByBranch(_ check: ModelCheck) -> Bool {
        var work = [check]
        while let next = work.popLast() {
            if !next.anyOf.isEmpty || !next.oneOf.isEmpty || next.ifSchema != nil || !next.patternProperties.isEmpty { return true }
            work += next.allOf
        }
        return false
    }
}

/// `unevaluatedItems`: the items that no `prefixItems`, `items` or `contains` of the schema,
/// of its `allOf` members and `$ref`s, or of the `anyOf`/`oneOf` branch or `if`/`then`/`else`
/// that matched evaluated must match its schema (`false`: there must be none). It becomes a
/// JSON check (ModelTranslator+Evaluated): `prefixItems` of `true` as long as the longest
/// evaluated tuple, then `items` for the rest (`anyOf` of each `contains` and the keyword's
/// schema), under an `if` per branch whose annotations count only when it matches.
extension ModelTranslator {
    /// Whether `unevaluatedItems` is the array's `items`: `type: array` with no other keyword
    /// that evaluates items, so the Swift element type is its schema (`[String]`).
    func unevaluatedItemsAreItems(_ entries: [Entry]) -> Bool {
        guard entries["unevaluatedItems"] != nil, entries["type"]?.value.string == "array" else { return false }
        let evaluating = ["items", "prefixItems", "contains", "allOf", "anyOf", "oneOf", "if", "$ref", "$dynamicRef"]
        return !entries.contains { evaluating.contains($0.key) }
    }

    /// The JSON check of `unevaluatedItems` (`entry`) in `entries`; nil (and an error at the
    /// keyword) when the evaluated items cannot be known at generation time.
    mutating func unevaluatedItemsCheck(_ entry: Entry, in entries: [Entry], reader: inout NodeReader) -> ModelCheck? {
        unevaluatedCheck(entry, in: entries, kind: .items, keyword: "unevaluatedItems", reader: &reader)
    }

    /// The error at `unevaluatedItems` or `unevaluatedProperties` whose evaluated items or keys
    /// cannot be known at generation time, with what to write instead.
    func reportEvaluationLimit(_ limit: EvaluationLimit, keyword: String, at node: Node, reader: inout NodeReader) {
        let what = keyword == "unevaluatedItems" ? "items" : "keys"
        let instead =
            keyword == "unevaluatedItems"
            ? "write prefixItems and items beside it instead" : "list the properties and write additionalProperties instead"
        let reason: String
        switch limit {
        case .dynamicReference:
            reason = "a $dynamicRef decides which \(what) are evaluated"
        case .cycle(let name):
            reason = "its allOf and $ref schemas come back to '\(name)', so the evaluated \(what) have no end"
        case .depth:
            reason = "its allOf, $ref, anyOf, oneOf and if schemas nest deeper than \(Self.maximumEvaluationDepth)"
        case .branches:
            reason =
                "its anyOf, oneOf, if and dependentSchemas branches would need more than \(Self.maximumEvaluationChecks) checks (one per combination of branches that evaluate \(what))"
        }
        reader.error("\(keyword) is not supported here: \(reason); \(instead)", at: node)
    }
}
