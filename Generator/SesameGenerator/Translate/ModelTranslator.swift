import SesameDescription
import Yams

/// Translates JSON Schema (draft 2020-12 keywords) into model IR: named models from the
/// models files, and inline schemas from anywhere (properties, parameters, responses,
/// event payloads). Every problem is a diagnostic at the node that caused it.
struct ModelTranslator {
    /// A model declared at the top level of a models file.
    struct Declaration {
        var name: String
        var swiftName: String
        var node: Node
        var keyNode: Node
        var file: ParsedFile
        /// The JSON pointer of the schema in its file (`/User`, `/$defs/Address`).
        var pointer: String = ""

        /// A reference to the declared model.
        var reference: ModelRef { ModelRef(declaredName: name, swiftPath: swiftName) }
    }

    /// Keywords that apply to one type and that the JSON check holds (see ModelTranslator+Keywords).
    static let checkedByType: [String: Set<String>] = [
        "number": ["multipleOf"], "integer": ["multipleOf"],
        "array": ["uniqueItems", "prefixItems", "contains", "minContains", "maxContains"],
        "object": ["minProperties", "maxProperties", "dependentRequired", "propertyNames", "patternProperties"],
    ]
    static let stringKeywords: Set<String> = ["minLength", "maxLength", "pattern", "format"]
    static let numberKeywords: Set<String> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
    static let arrayKeywords: Set<String> = ["items", "minItems", "maxItems"]
    static let objectKeywords: Set<String> = ["properties", "required", "additionalProperties"]

    private(set) var declarations: [String: Declaration] = [:]
    /// Declared names by Swift type name, so that lookups by type stay constant-time.
    private(set) var namesBySwiftName: [String: String] = [:]
    private var readers: [String: NodeReader] = [:]
    /// Declared names by `file#pointer`, `file#anchor` and `$id`, for `$ref`.
    private var pointers: [String: String] = [:]
    private var identifiers: [String: String] = [:]
    private var files: [String: ParsedFile] = [:]
    /// Over a complete table (inline schemas of auth.yaml, events.yaml): a pointer may not
    /// make a model of the schema it points to, as the models are all translated already.
    private var declaresNoModel = false
    private var translated: [String: ModelIR] = [:]
    /// The models being translated: the chain of models that need one another (see `translate`).
    private var inProgress: Set<String> = []
    /// The untranslated models the current try needed, in the order it needed them.
    private var missing: [String] = []
    /// How many properties `allOf` may copy from the models it names, over all models. Each
    /// model of an `allOf` chain holds the properties of every model below it, so a chain of
    /// 1,000 links with one property each (84 KB of YAML) made 500,500 properties and 114 MB
    /// of Swift (issue 29). Past the limit, each `allOf` member is an error at its `$ref`.
    static let maximumMergedProperties = 100_000
    /// The properties `allOf` copied so far (see `maximumMergedProperties`).
    private var mergedProperties = 0

    /// What `uniqueNestedName` knows of the nested types of each owner being translated.
    private var nestedScopes: [String: NestedScope] = [:]
    private struct NestedScope {
        /// How many types of the owner's list `names` holds.
        var count = 0
        var names: Set<String> = []
        /// The next number to try, by name.
        var numbers: [String: Int] = [:]
    }
    private(set) var extraDiagnostics: [Diagnostic] = []

    /// Collects the top-level models of every models file; a name declared twice, or two
    /// names that give the same Swift type, are errors.
    init(modelFiles: [ParsedFile]) {
        var swiftNames: [String: Declaration] = [:]
        for file in modelFiles {
            var reader = NodeReader(file: file.source.path)
            defer { readers[file.source.path] = reader }
            guard let root = file.root, !root.isNullScalar else { continue }
            guard let entries = reader.mapping(root, "a models file") else { continue }
            files[file.source.path] = file
            for (entry, pointer) in Self.declaredSchemas(entries, reader: &reader) {
                let swiftName = SwiftName.typeName(entry.key)
                let declaration = Declaration(
                    name: entry.key, swiftName: swiftName, node: entry.value, keyNode: entry.keyNode, file: file, pointer: pointer)
                if let previous = declarations[entry.key] {
                    reader.error(
                        "model '\(entry.key)' is already declared at \(reader.location(of: previous.keyNode).withFile(previous.file.source.path))",
                        at: entry.keyNode)
                    continue
                }
                if let previous = swiftNames[swiftName] {
                    reader.error(
                        "model '\(entry.key)' and model '\(previous.name)' would both be the Swift type \(swiftName)", at: entry.keyNode)
                    continue
                }
                declarations[entry.key] = declaration
                swiftNames[swiftName] = declaration
                namesBySwiftName[swiftName] = entry.key
                pointers[file.source.path + "#" + pointer] = entry.key
                if case .mapping(let mapping) = entry.value {
                    for (key, value) in mapping where key.string?.first == "$" {
                        if key.string == "$anchor", let anchor = value.string { pointers[file.source.path + "#" + anchor] = entry.key }
                        if key.string == "$id", let id = value.string { identifiers[id] = entry.key }
                    }
                }
            }
        }
    }

    /// The models of a models file: its top-level keys, the entries of a top-level `$defs`,
    /// and of the `$defs` inside those, each with its JSON pointer.
    static func declaredSchemas(_ entries: [Entry], reader: inout NodeReader, prefix: String = "") -> [(Entry, String)] {
        var result: [(Entry, String)] = []
        for entry in entries {
            let pointer = prefix + "/" + Self.escapePointer(entry.key)
            if entry.key == "$defs" {
                if let definitions = reader.mapping(entry.value, "$defs") {
                    result += declaredSchemas(definitions, reader: &reader, prefix: pointer)
                }
                continue
            }
            if entry.key == "$comment" && prefix.isEmpty { continue }
            result.append((entry, pointer))
            guard case .mapping(let mapping) = entry.value else { continue }
            for (key, definitions) in mapping where key.string == "$defs" {
                if case .mapping = definitions, let inner = reader.mapping(definitions, "$defs") {
                    result += declaredSchemas(inner, reader: &reader, prefix: pointer + "/$defs")
                }
            }
        }
        return result
    }

    static func escapePointer(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// An inline-schema translator over a complete table: every declared model is
    /// translated already, so it only resolves references and reports into the caller's reader.
    init(table: ModelTable) {
        declarations = table.declarations
        namesBySwiftName = table.namesBySwiftName
        translated = table.models
        // The names `$ref` may use besides a model's: its pointer, `$anchor` and `$id`.
        declaresNoModel = true
        for declaration in table.declarations.values {
            let path = declaration.file.source.path
            files[path] = declaration.file
            pointers["\(path)#\(declaration.pointer)"] = declaration.name
            guard case .mapping(let mapping) = declaration.node else { continue }
            if let anchor = mapping["$anchor"]?.string { pointers["\(path)#\(anchor)"] = declaration.name }
            if let id = mapping["$id"]?.string { identifiers[id] = declaration.name }
        }
    }

    /// The declared models, translated: call after `translateAll()`.
    var table: ModelTable {
        ModelTable(declarations: declarations, namesBySwiftName: namesBySwiftName, models: translated)
    }

    /// Every diagnostic found so far, in all files.
    var diagnostics: [Diagnostic] {
        readers.keys.sorted().flatMap { readers[$0]!.diagnostics } + extraDiagnostics
    }

    /// Translates every declared model, in name order, then checks for cycles.
    mutating func translateAll() -> [ModelIR] {
        // References to JSON pointers declare models while others translate: until none is left.
        var done: Set<String> = []
        while case let pending = declarations.keys.filter({ !done.contains($0) }).sorted(), !pending.isEmpty {
            for name in pending {
                done.insert(name)
                translate(name)
            }
        }
        var models = declarations.keys.sorted().compactMap { translated[$0] }
        CycleChecker.check(&models, diagnostics: &extraDiagnostics)
        return models
    }

    /// Reports a model name that no file declares, with the closest declared name.
    func reportUnknownModel(_ name: String, at node: Node, reader: inout NodeReader) {
        let hint = Suggestion.closest(to: name, in: Array(declarations.keys)).map { "; did you mean '\($0)'?" } ?? ""
        reader.error("unknown model '\(name)'\(hint)", at: node)
    }

    /// The declared model whose Swift type is `swiftName`, translated.
    mutating func model(swiftName: String) -> ModelIR? {
        guard let name = namesBySwiftName[swiftName] else { return nil }
        return model(named: name)
    }

    /// A declared model that the one being translated needs (an `allOf` member, a `oneOf`
    /// variant, the enum of a `default` or `const`): its IR once translated. Nil while it is
    /// being translated (a cycle), and nil when it is not translated yet: then it is noted in
    /// `missing`, and `translate` translates it and tries the model that needs it again.
    mutating func model(named name: String) -> ModelIR? {
        if let done = translated[name] { return done }
        if declarations[name] != nil, !inProgress.contains(name) { missing.append(name) }
        return nil
    }

    /// Translates a declared model after every model it needs, with a stack of its own: a
    /// chain of references (`allOf`, `oneOf`, a `default` through `$ref`) of any length costs
    /// memory, never call-stack depth (issue 29: 300 `allOf` links overflowed the stack).
    ///
    /// A model is tried once; a try that finds needed models untranslated is thrown away
    /// (what it found depends on them), they are translated first, one at a time, and the
    /// model is tried again, which then finds them all. `inProgress` holds the models on the
    /// stack, which is the chain of models that need one another: a model that needs one of
    /// them is in a cycle and finds nil, as it would have through recursion.
    private mutating func translate(_ root: String) {
        guard translated[root] == nil, declarations[root] != nil else { return }
        var stack: [(name: String, waiting: [String])] = [(root, [])]
        inProgress.insert(root)
        while var frame = stack.popLast() {
            if let next = frame.waiting.popLast() {
                stack.append(frame)
                if translated[next] == nil, declarations[next] != nil, inProgress.insert(next).inserted {
                    stack.append((next, []))
                }
                continue
            }
            missing = []
            let merged = mergedProperties
            let (model, diagnostics) = attempt(frame.name)
            var seen: Set<String> = []
            let needed = missing.filter { translated[$0] == nil && !inProgress.contains($0) && seen.insert($0).inserted }
            missing = []
            if needed.isEmpty {
                translated[frame.name] = model
                extraDiagnostics += diagnostics
                inProgress.remove(frame.name)
            } else {
                mergedProperties = merged  // the try is thrown away, and what it copied
                frame.waiting = needed.reversed()
                stack.append(frame)
            }
        }
    }

    /// One try at translating a declared model, with a reader of its own.
    private mutating func attempt(_ name: String) -> (ModelIR, [Diagnostic]) {
        let declaration = declarations[name]!
        var reader = NodeReader(file: declaration.file.source.path)
        var model = namedModel(
            name: name, swiftName: declaration.swiftName, qualifiedName: declaration.swiftName,
            node: declaration.node, reader: &reader)
        // A declared model is found by its name: point at the key, not at its schema.
        model.location = reader.location(of: declaration.keyNode)
        return (model, reader.diagnostics)
    }

    // MARK: Named models

    /// A model from a schema that gets a type of its own.
    mutating func namedModel(name: String, swiftName: String, qualifiedName: String, node: Node, reader: inout NodeReader) -> ModelIR {
        let location = reader.location(of: node)
        var nested: [ModelIR] = []
        startNestedScope(owner: qualifiedName)
        guard let entries = reader.mapping(node, "the schema of '\(name)'", grammar: Grammar.schema)?.entries else {
            return ModelIR(name: name, swiftName: swiftName, description: nil, kind: .alias(.any, ConstraintsIR()), location: location)
        }
        let description = documentation(entries, reader: &reader)
        reportUnsupported(entries, reader: &reader)
        let kind: ModelIR.Kind
        if isChoice(entries) {
            kind = .choice(choice(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader))
        } else if entries["oneOf"] != nil && entries["discriminator"] != nil {
            kind = .union(union(entries, reader: &reader))
        } else if entries["allOf"] != nil {
            kind = .object(allOf(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader))
        } else if let enumEntry = entries["enum"] {
            kind = .enumeration(enumeration(enumEntry, entries: entries, reader: &reader))
        } else if isObject(entries) {
            kind = .object(object(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader))
        } else {
            var scratch: [ModelIR] = []
            let resolved = schemaType(entries, node: node, qualifiedName: qualifiedName, hint: "Value", nested: &scratch, reader: &reader)
            nested += scratch
            var constraints = resolved.constraints
            if let value = resolved.defaultValue, let entry = entries["default"], let broken = Self.violation(of: value, constraints) {
                reader.error("default breaks its own schema (\(broken))", at: entry.value)
            }
            if let value = constraints.const, let entry = entries["const"],
                !checkLiteral(value, resolved.type, nested: nested, what: "const", at: entry.value, reader: &reader)
            {
                constraints.const = nil
            }
            kind = .alias(resolved.type, constraints)
        }
        return ModelIR(name: name, swiftName: swiftName, description: description, kind: kind, nested: nested, location: location)
    }

    func isObject(_ entries: [Entry]) -> Bool {
        if let type = entries["type"], case .scalar(let scalar) = type.value { return scalar.string == "object" }
        return entries["properties"] != nil || entries["additionalProperties"] != nil
    }

    private func documentation(_ entries: [Entry], reader: inout NodeReader) -> String? {
        let title = entries["title"].flatMap { reader.string($0.value, "title") }
        let description = entries["description"].flatMap { reader.string($0.value, "description") }
        switch (title, description) {
        case (let title?, let description?): return "\(title)\n\n\(description)"
        case (let title?, nil): return title
        case (nil, let description): return description
        }
    }

    // MARK: Objects

    mutating func object(_ entries: [Entry], qualifiedName: String, nested: inout [ModelIR], reader: inout NodeReader) -> ObjectIR {
        checkApplicable(entries, allowed: Self.objectKeywords, typeName: "object", reader: &reader)
        var schema = checkedKeywords(entries, reader: &reader) ?? ModelCheck()
        var required: [String: Node] = [:]
        if let requiredEntry = entries["required"], let names = reader.strings(requiredEntry.value, "required") {
            for (name, node) in names { required[name] = node }
        }
        var properties: [PropertyIR] = []
        if let propertiesEntry = entries["properties"], let propertyEntries = reader.mapping(propertiesEntry.value, "properties") {
            for entry in propertyEntries {
                let hint = SwiftName.upperCamel(entry.key)
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
            if let close = Suggestion.closest(to: name, in: Array(declared)) {
                reader.warning(
                    "required property '\(name)' has no property schema, so it must be present with any value; did you mean '\(close)'?",
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
                reader.error("patternProperties beside an additionalProperties schema is not supported", at: entry.keyNode)
            } else {
                let resolved = inlineType(
                    entry.value, qualifiedName: qualifiedName, hint: "AdditionalProperty", nested: &nested, reader: &reader)
                additional = .kept(resolved.type, resolved.constraints)
            }
        }
        return ObjectIR(properties: properties, additionalProperties: additional, schema: schema.isEmpty ? nil : schema)
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
        let others = entries.filter { !["allOf", "description", "title", "deprecated", "examples"].contains($0.key) }
        for other in others {
            reader.error("'\(other.key)' beside allOf is not supported; move it into one of the allOf schemas", at: other.keyNode)
        }
        guard let members = reader.sequence(entries["allOf"]!.value, "allOf") else {
            return ObjectIR(properties: [], additionalProperties: .ignored)
        }
        var properties: [PropertyIR] = []
        var additional = AdditionalPropertiesIR.ignored
        for member in members {
            var part: ObjectIR?
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
                    part = object(memberEntries, qualifiedName: qualifiedName, nested: &nested, reader: &reader)
                }
            }
            guard let part else { continue }
            for property in part.properties {
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
            if part.additionalProperties != .ignored { additional = part.additionalProperties }
        }
        return ObjectIR(properties: properties, additionalProperties: additional)
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
        for other in entries where !["enum", "type", "description", "title", "default", "deprecated", "examples"].contains(other.key) {
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
        return EnumIR(rawType: rawType, cases: cases)
    }

    mutating func union(_ entries: [Entry], reader: inout NodeReader) -> UnionIR {
        for other in entries where !["oneOf", "discriminator", "description", "title", "deprecated", "examples"].contains(other.key) {
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
            guard let memberEntries = reader.mapping(member, "a oneOf schema", grammar: Grammar.schema)?.entries,
                let ref = memberEntries["$ref"]
            else {
                reader.error("each oneOf schema must be a $ref to an object model", at: member)
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
        return UnionIR(discriminator: propertyName, variants: variants)
    }

    // MARK: Inline schemas

    struct Resolved {
        var type: TypeIR
        var constraints: ConstraintsIR
        var nullable: Bool
        var defaultValue: LiteralIR?
        var description: String?
    }

    /// The type of an inline schema. Inline objects, enums and unions become nested
    /// models of `qualifiedName`, named `hint`.
    mutating func inlineType(
        _ node: Node, qualifiedName: String, hint: String, nested: inout [ModelIR], reader: inout NodeReader
    ) -> Resolved {
        // `response: Note` and `body: NewNote`: a bare model name.
        if case .scalar(let scalar) = node {
            if let model = declarations[scalar.string] {
                return Resolved(type: .model(model.reference), constraints: ConstraintsIR(), nullable: false)
            }
            reportUnknownModel(scalar.string, at: node, reader: &reader)
            return Resolved(type: .any, constraints: ConstraintsIR(), nullable: false)
        }
        guard let entries = reader.mapping(node, "a schema", grammar: Grammar.schema)?.entries else {
            return Resolved(type: .any, constraints: ConstraintsIR(), nullable: false)
        }
        let description = documentation(entries, reader: &reader)
        reportUnsupported(entries, reader: &reader)
        // `oneOf: [{ $ref: X }, { type: null }]`: an optional X.
        if let member = nullableMember(entries) {
            var resolved = inlineType(member, qualifiedName: qualifiedName, hint: hint, nested: &nested, reader: &reader)
            resolved.nullable = true
            resolved.description = description ?? resolved.description
            return resolved
        }
        let needsType =
            entries["enum"] != nil || (entries["oneOf"] != nil && entries["discriminator"] != nil) || entries["allOf"] != nil
            || isChoice(entries)
            || (isObject(entries) && entries["properties"] != nil)
        if needsType {
            let swiftName = uniqueNestedName(hint, in: nested, owner: qualifiedName)
            let path = qualifiedName.isEmpty ? swiftName : "\(qualifiedName).\(swiftName)"
            let model = namedModel(name: swiftName, swiftName: swiftName, qualifiedName: path, node: node, reader: &reader)
            nested.append(model)
            let reference = ModelRef(declaredName: nil, swiftPath: path)
            var defaultValue = entries["default"].flatMap { literal($0.value, reader: &reader) }
            if let value = defaultValue, let entry = entries["default"],
                !checkLiteral(value, .model(reference), nested: nested, what: "default", at: entry.value, reader: &reader)
            {
                defaultValue = nil
            }
            return Resolved(
                type: .model(reference), constraints: ConstraintsIR(), nullable: nullable(entries),
                defaultValue: defaultValue, description: description)
        }
        var resolved = schemaType(entries, node: node, qualifiedName: qualifiedName, hint: hint, nested: &nested, reader: &reader)
        resolved.description = description
        if let value = resolved.defaultValue, let entry = entries["default"],
            !checkLiteral(value, resolved.type, nested: nested, what: "default", at: entry.value, reader: &reader)
        {
            resolved.defaultValue = nil
        }
        if let value = resolved.defaultValue, let entry = entries["default"], let broken = Self.violation(of: value, resolved.constraints) {
            reader.error("default breaks its own schema (\(broken)); every value that leaves it out would fail to decode", at: entry.value)
            resolved.defaultValue = nil
        }
        if let value = resolved.constraints.const, let entry = entries["const"] {
            switch resolved.type {
            case .string(nil), .integer, .number, .boolean, .any:
                if !checkLiteral(value, resolved.type, nested: nested, what: "const", at: entry.value, reader: &reader) {
                    resolved.constraints.const = nil
                }
            default:
                reader.error("const is supported on plain strings, numbers, booleans and schemas without a type", at: entry.keyNode)
                resolved.constraints.const = nil
            }
        }
        return resolved
    }

    /// Checks a `default` or `const` against its type; reports and returns false when it
    /// does not fit or Sesame cannot write it in Swift.
    mutating func checkLiteral(
        _ value: LiteralIR, _ type: TypeIR, nested: [ModelIR], what: String, at node: Node,
        reader: inout NodeReader
    ) -> Bool {
        if case .null = value { return true }
        switch (value, type) {
        case (_, .string(let format?)) where !format.isCheckedString:
            reader.error("\(what) is not supported on a \(format.rawValue) string", at: node)
            return false
        case (.array(let items), .array(let element)):
            return items.allSatisfy { checkLiteral($0, element, nested: nested, what: what, at: node, reader: &reader) }
        case (_, .model(let reference)):
            let path = reference.swiftPath
            let last = String(path.split(separator: ".").last ?? "")
            let target =
                path.contains(".") || nested.contains(where: { $0.swiftName == path })
                ? findNested(path, in: nested) : model(swiftName: last)
            guard let target, case .enumeration(let enumeration) = target.kind else {
                reader.error("\(what) is supported on strings, numbers, booleans, enums and arrays of them", at: node)
                return false
            }
            let raw: String?
            switch value {
            case .string(let text): raw = text
            case .integer(let number): raw = String(number)
            default: raw = nil
            }
            guard let raw, enumeration.cases.contains(where: { $0.rawValue == raw }) else {
                let values = enumeration.cases.map(\.rawValue).joined(separator: ", ")
                reader.error("\(what) must be one of the enum's values (\(values))", at: node)
                return false
            }
            return true
        default:
            if LiteralCheck.fits(value, type, declarations: declarations) { return true }
            reader.error("\(what) does not match the type \(type.schemaName)", at: node)
            return false
        }
    }

    func findNested(_ path: String, in nested: [ModelIR]) -> ModelIR? {
        var components = path.split(separator: ".").map(String.init)
        var pool = nested
        var found: ModelIR?
        // The path may start with owners that are not in `nested`: skip to the first that is.
        while let first = components.first, !pool.contains(where: { $0.swiftName == first }) { components.removeFirst() }
        for component in components {
            guard let match = pool.first(where: { $0.swiftName == component }) else { return nil }
            found = match
            pool = match.nested
        }
        return found
    }

    /// The name of a nested type: never a keyword or a type the generated code uses, and
    /// never a top-level model's name, which inside the struct the nested type would shadow.
    ///
    /// Near linear over a model's nested types: the names of `nested` are kept in a set per
    /// owner, updated with what was appended since the last call, and the numbers tried go on
    /// from where the last name of the same hint stopped. Before, each call scanned `nested`
    /// once per number tried: 3,000 inline objects all named `A` took 3,000³ steps.
    mutating func uniqueNestedName(_ hint: String, in nested: [ModelIR], owner: String) -> String {
        let base = SwiftName.isReservedTypeName(hint) ? hint + "Model" : hint
        var scope = nestedScopes[owner] ?? NestedScope()
        // Fewer types than the set has seen: another list of the same owner; start again.
        if scope.count > nested.count { scope = NestedScope() }
        for model in nested[scope.count...] { scope.names.insert(model.swiftName) }
        scope.count = nested.count
        var name = base
        if scope.names.contains(base) || namesBySwiftName[base] != nil {
            var counter = scope.numbers[base] ?? 2
            repeat {
                name = "\(base)\(counter)"
                counter += 1
            } while scope.names.contains(name) || namesBySwiftName[name] != nil
            scope.numbers[base] = counter
        }
        scope.names.insert(name)
        nestedScopes[owner] = scope
        return name
    }

    /// Forgets the nested type names of `owner`: its translation starts (a model tried twice
    /// names its types the same way both times), or a new list of types begins.
    mutating func startNestedScope(owner: String) {
        nestedScopes[owner] = nil
    }

    private func nullable(_ entries: [Entry]) -> Bool {
        if let type = entries["type"], case .sequence(let items) = type.value {
            return items.contains { $0.isNullScalar || $0.string == "null" }
        }
        return false
    }

    /// The type of a schema that needs no type of its own: scalars, arrays, refs, `{}`.
    mutating func schemaType(
        _ entries: [Entry], node: Node, qualifiedName: String, hint: String, nested: inout [ModelIR],
        reader: inout NodeReader
    ) -> Resolved {
        var constraints = ConstraintsIR()
        let defaultValue = entries["default"].flatMap { literal($0.value, reader: &reader) }
        if let ref = entries["$ref"] {
            for other in entries where !Self.besideReference.contains(other.key) {
                reader.error("'\(other.key)' beside $ref is not supported; declare it in the referenced model", at: other.keyNode)
            }
            guard let name = resolveReference(ref.value, reader: &reader), let declaration = declarations[name] else {
                return Resolved(type: .any, constraints: constraints, nullable: false, defaultValue: defaultValue)
            }
            return Resolved(type: .model(declaration.reference), constraints: constraints, nullable: false, defaultValue: defaultValue)
        }
        var typeName: String?
        var isNullable = false
        if let typeEntry = entries["type"] {
            switch typeEntry.value {
            case .scalar(let scalar):
                typeName = scalar.string
            case .sequence(let items):
                let names = items.compactMap { $0.isNullScalar ? "null" : reader.string($0, "a type") }
                isNullable = names.contains("null")
                let others = names.filter { $0 != "null" }
                if others.count == 1 {
                    typeName = others[0]
                } else {
                    reader.error("a type list may hold one type and \"null\"; use oneOf for a choice of types", at: typeEntry.value)
                }
            default:
                reader.error("type must be a string or a list", at: typeEntry.value)
            }
        } else if entries["items"] != nil {
            typeName = "array"
        } else if entries["additionalProperties"] != nil {
            typeName = "object"
        }
        let type: TypeIR
        switch typeName {
        case "string"?:
            checkApplicable(entries, allowed: Self.stringKeywords, typeName: "string", reader: &reader)
            var format: StringFormat?
            if let formatEntry = entries["format"], let text = reader.string(formatEntry.value, "format") {
                format = StringFormat(rawValue: text)
                if format == nil { reportUnknownFormat(text, at: formatEntry.value, reader: &reader) }
            }
            constraints.minLength = entries["minLength"].flatMap { nonNegative($0, reader: &reader) }
            constraints.maxLength = entries["maxLength"].flatMap { nonNegative($0, reader: &reader) }
            constraints.pattern = pattern(entries, reader: &reader)
            type = .string(format)
        case "integer"?, "number"?:
            checkApplicable(entries, allowed: Self.numberKeywords, typeName: typeName!, reader: &reader)
            constraints.minimum = entries["minimum"].flatMap { reader.number($0.value, "minimum") }
            constraints.maximum = entries["maximum"].flatMap { reader.number($0.value, "maximum") }
            constraints.exclusiveMinimum = entries["exclusiveMinimum"].flatMap { reader.number($0.value, "exclusiveMinimum") }
            constraints.exclusiveMaximum = entries["exclusiveMaximum"].flatMap { reader.number($0.value, "exclusiveMaximum") }
            type = typeName == "integer" ? .integer : .number
        case "boolean"?:
            checkApplicable(entries, allowed: [], typeName: "boolean", reader: &reader)
            type = .boolean
        case "array"?:
            checkApplicable(entries, allowed: Self.arrayKeywords, typeName: "array", reader: &reader)
            constraints.minItems = entries["minItems"].flatMap { nonNegative($0, reader: &reader) }
            constraints.maxItems = entries["maxItems"].flatMap { nonNegative($0, reader: &reader) }
            if entries["prefixItems"] != nil {
                // A tuple: its items differ in type, so the Swift array holds JSON values and
                // the JSON check types them (prefixItems, then items for the rest).
                type = .array(.any)
                if let items = entries["items"] {
                    var check = constraints.schema ?? ModelCheck()
                    check.items = schemaCheck(items.value, reader: &reader)
                    constraints.schema = check
                }
            } else if let items = entries["items"], case .scalar(let scalar) = items.value, scalar.style == .plain,
                let allowed = items.value.bool
            {
                // `items: true` is any item; `items: false` allows none (an empty array).
                type = .array(.any)
                if !allowed {
                    var check = constraints.schema ?? ModelCheck()
                    check.items = .never
                    constraints.schema = check
                }
            } else if let items = entries["items"] {
                let item = inlineType(items.value, qualifiedName: qualifiedName, hint: hint + "Item", nested: &nested, reader: &reader)
                if !item.constraints.isEmpty { constraints.items = Box(item.constraints) }
                type = .array(item.nullable ? .any : item.type)
                if item.nullable { reader.error("nullable array items are not supported", at: items.value) }
            } else {
                type = .array(.any)
            }
        case "object"?:
            checkApplicable(entries, allowed: Self.objectKeywords, typeName: "object", reader: &reader)
            if let entry = entries["required"], let names = reader.strings(entry.value, "required") {
                var check = constraints.schema ?? ModelCheck()
                check.required = names.map(\.0)
                constraints.schema = check
            }
            if let additional = entries["additionalProperties"], case .mapping = additional.value {
                let value = inlineType(
                    additional.value, qualifiedName: qualifiedName, hint: hint + "Value", nested: &nested, reader: &reader)
                type = .dictionary(value.type)
            } else {
                type = .dictionary(.any)
            }
        case "null"?:
            reader.error("a schema of type null alone is not supported", at: entries["type"]!.value)
            type = .any
        case let other?:
            reader.error("unknown type '\(other)'; expected string, integer, number, boolean, array or object", at: entries["type"]!.value)
            type = .any
        case nil:
            for entry in entries where Self.stringKeywords.union(Self.numberKeywords).union(Self.arrayKeywords).contains(entry.key) {
                reader.error("'\(entry.key)' needs a type", at: entry.keyNode)
            }
            // `required` and the JSON-checked keywords apply to the values of their type only,
            // as JSON Schema says: `{ required: [a] }` accepts 42 and refuses `{}`.
            if let entry = entries["required"], let names = reader.strings(entry.value, "required") {
                constraints.schema = ModelCheck(required: names.map(\.0))
            }
            type = .any
        }
        if let constEntry = entries["const"] {
            constraints.const = literal(constEntry.value, reader: &reader)
        }
        if let more = checkedKeywords(entries, reader: &reader) {
            var check = constraints.schema ?? ModelCheck()
            check.merge(more)
            constraints.schema = check
        }
        if case .array = type, let items = constraints.items?.value.schema {
            // The items' JSON checks run with the array's.
            var check = constraints.schema ?? ModelCheck()
            check.items = items
            constraints.schema = check
            var itemConstraints = constraints.items!.value
            itemConstraints.schema = nil
            constraints.items = itemConstraints.isEmpty ? nil : Box(itemConstraints)
        }
        return Resolved(type: type, constraints: constraints, nullable: isNullable, defaultValue: defaultValue)
    }

    /// The keywords that apply to one type only, and those of each type (computed once).
    private static let typedKeywords = stringKeywords.union(numberKeywords).union(arrayKeywords).union(objectKeywords)
        .union(checkedByType.values.joined())
    private static let applicable: [String: Set<String>] = [
        "string": stringKeywords, "integer": numberKeywords.union(["multipleOf"]), "number": numberKeywords.union(["multipleOf"]),
        "boolean": [], "array": arrayKeywords.union(checkedByType["array"]!), "object": objectKeywords.union(checkedByType["object"]!),
    ]

    private func checkApplicable(_ entries: [Entry], allowed: Set<String>, typeName: String, reader: inout NodeReader) {
        let allowed = Self.applicable[typeName] ?? allowed
        for entry in entries where Self.typedKeywords.contains(entry.key) && !allowed.contains(entry.key) {
            reader.error("'\(entry.key)' does not apply to \(typeName)", at: entry.keyNode)
        }
    }

    private func nonNegative(_ entry: Entry, reader: inout NodeReader) -> Int? {
        count(entry, reader: &reader)
    }

    // MARK: References and literals

    /// Resolves a `$ref` to a declared model name: a bare `Name`, `#/Name`, `file.yaml#/Name`,
    /// a JSON pointer inside a models file (`#/$defs/Name`, `#/User/properties/address`), an
    /// `#anchor` (`$anchor`) or a schema's `$id`. Remote references are refused.
    mutating func resolveReference(_ node: Node, reader: inout NodeReader) -> String? {
        guard let text = reader.string(node, "$ref") else { return nil }
        if let name = identifiers[text] { return name }
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let file = parts.count == 2 ? parts[0] : ""
        var name = parts.count == 2 ? parts[1] : parts[0]
        let remote = parts[0].contains("://") || parts[0].lowercased().hasPrefix("urn:") || file.contains(":") || file.hasPrefix("//")
        if remote || (!file.isEmpty && !file.hasSuffix(".yaml") && !file.hasSuffix(".yml")) {
            reader.error(
                "$ref '\(text)' is a remote reference, which Sesame does not support; declare the model in a models file", at: node)
            return nil
        }
        let path: String? =
            file.isEmpty
            ? (files[reader.file] != nil ? reader.file : nil)
            : files.values.first(where: { $0.source.relativePath == file })?.source.path
        if let path, parts.count == 2, let found = pointers["\(path)#\(name)"] { return found }
        if path == nil, file.isEmpty, parts.count == 2, !name.isEmpty {
            // From a file that declares no models (auth.yaml): `#/$defs/Name` or `#anchor`
            // in whichever models file declares it, as `#/Name` names a model of any file.
            let found = Set(pointers.filter { $0.key.hasSuffix("#" + name) }.values)
            if found.count == 1 { return found.first }
        }
        if parts.count == 2 && !name.hasPrefix("/") && !name.isEmpty {
            reader.error("$ref '\(text)' names no $anchor", at: node)
            return nil
        }
        if name.hasPrefix("/") { name.removeFirst() }
        if name.contains("/") {
            guard let path else {
                reader.error("$ref '\(text)' points into no models file; outside one, name a model ('#/Name' or '#/$defs/Name')", at: node)
                return nil
            }
            return pointedModel(text, pointer: "/" + name, file: path, at: node, reader: &reader)
        }
        guard let declaration = declarations[name] else {
            let hint = Suggestion.closest(to: name, in: Array(declarations.keys)).map { "; did you mean '#/\($0)'?" } ?? ""
            reader.error("unknown model '\(name)' in $ref '\(text)'\(hint)", at: node)
            return nil
        }
        if !file.isEmpty, declaration.file.source.relativePath != file {
            reader.error("model '\(name)' is declared in \(declaration.file.source.relativePath), not in \(file)", at: node)
            return nil
        }
        return name
    }

    /// A JSON pointer to a schema inside a models file that is not a model of its own
    /// (`#/User/properties/address`): the schema becomes a model named after the pointer.
    private mutating func pointedModel(
        _ text: String, pointer: String, file path: String, at node: Node, reader: inout NodeReader
    )
        -> String?
    {
        guard let parsed = files[path], var current = parsed.root else { return nil }
        if declaresNoModel {
            reader.error("$ref '\(text)' must name a model ('#/Name' or '#/$defs/Name') outside the models files", at: node)
            return nil
        }
        let tokens = pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            ($0.removingPercentEncoding ?? String($0)).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        var keyNode = node
        // Start from the declared model the pointer goes through (`/User`, `/$defs/Address`)
        // rather than scanning the file's top-level keys once per pointer.
        var start = 0
        for length in [2, 1] where start == 0 && tokens.count > length {
            let prefix = tokens[..<length].map { "/" + Self.escapePointer($0) }.joined()
            if let name = pointers["\(path)#\(prefix)"], let declaration = declarations[name] {
                current = declaration.node
                keyNode = declaration.keyNode
                start = length
            }
        }
        for token in tokens[start...] {
            switch current {
            case .mapping(let mapping):
                guard let index = mapping.firstIndex(where: { $0.key.string == token }) else {
                    reader.error("$ref '\(text)' points to nothing: no '\(token)' in its file", at: node)
                    return nil
                }
                keyNode = mapping[index].key
                current = mapping[index].value
            case .sequence(let items):
                guard let index = Int(token), items.indices.contains(index) else {
                    reader.error("$ref '\(text)' points to nothing: no item \(token) in its file", at: node)
                    return nil
                }
                current = items[index]
            default:
                reader.error("$ref '\(text)' points to nothing in its file", at: node)
                return nil
            }
        }
        guard case .mapping = current else {
            reader.error("$ref '\(text)' must point to a schema (a mapping)", at: node)
            return nil
        }
        var swiftName = SwiftName.typeName(tokens.joined(separator: " "))
        var counter = 2
        while namesBySwiftName[swiftName] != nil {
            swiftName = SwiftName.typeName(tokens.joined(separator: " ")) + String(counter)
            counter += 1
        }
        let name = String(pointer.dropFirst())
        declarations[name] = Declaration(name: name, swiftName: swiftName, node: current, keyNode: keyNode, file: parsed, pointer: pointer)
        namesBySwiftName[swiftName] = name
        pointers["\(path)#\(pointer)"] = name
        return name
    }

    /// A YAML value as a literal.
    func literal(_ node: Node, reader: inout NodeReader) -> LiteralIR? {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain {
                if node.isNullScalar { return .null }
                if let value = node.bool, ["true", "false"].contains(scalar.string) { return .bool(value) }
                if let value = node.int { return .integer(value) }
                // JSON has no infinity or NaN: `.inf` and `1e999` stay text, as Swift could not spell them.
                if let value = node.float, value.isFinite, scalar.string.contains(".") || scalar.string.lowercased().contains("e") {
                    return .number(value)
                }
            }
            return .string(scalar.string)
        case .sequence(let items):
            var values: [LiteralIR] = []
            for item in items {
                guard let value = literal(item, reader: &reader) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .mapping(let mapping):
            var values: [String: LiteralIR] = [:]
            for index in mapping.indices {
                let (key, value) = mapping[index]
                guard let keyText = key.string, let literal = literal(value, reader: &reader) else { return nil }
                values[keyText] = literal
            }
            return .object(values)
        case .alias:
            reader.error("YAML aliases are not supported", at: node)
            return nil
        }
    }
}

extension SourceLocation {
    func withFile(_ file: String) -> String { "\(file):\(line):\(column)" }
}

import Foundation
