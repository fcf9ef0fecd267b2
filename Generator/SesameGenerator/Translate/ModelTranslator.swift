import Foundation
import Yams

/// Translates JSON Schema (draft 2020-12 keywords) into model IR: named models from the
/// models files, and inline schemas from anywhere (properties, parameters, responses,
/// event payloads). Every problem is a diagnostic at the node that caused it.
struct ModelTranslator {
    typealias Declaration = ModelReferences.Declaration

    /// Keywords that apply to one type and that the JSON check holds (see ModelTranslator+Keywords).
    static let checkedByType: [String: Set<String>] = [
        "number": ["multipleOf"], "integer": ["multipleOf"],
        "array": ["uniqueItems", "prefixItems", "contains", "minContains", "maxContains", "unevaluatedItems"],
        "object": [
            "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "propertyNames", "patternProperties",
            "unevaluatedProperties",
        ],
    ]
    static let stringKeywords: Set<String> = ["minLength", "maxLength", "pattern", "format"]
    static let numberKeywords: Set<String> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
    static let arrayKeywords: Set<String> = ["items", "minItems", "maxItems"]
    static let objectKeywords: Set<String> = ["properties", "required", "additionalProperties"]

    /// The reference-resolution pass: the declared models, and what each `$ref` names.
    private(set) var references: ModelReferences
    var declarations: [String: Declaration] { references.declarations }
    /// Declared names by Swift type name, so that lookups by type stay constant-time.
    var namesBySwiftName: [String: String] { references.typeNames.declaredNames }
    private var readers: [String: NodeReader] = [:]
    /// `ignoresUnknown(in:)` by file path, asked once per file: it looks through the root's
    /// keys, and a file may declare a hundred thousand models.
    private var lenientFiles: [String: Bool] = [:]
    var translated: [String: ModelIR] = [:]
    /// The models being translated: the chain of models that need one another (see `translate`).
    var inProgress: Set<String> = []
    /// The untranslated models the current try needed, in the order it needed them.
    var missing: [String] = []
    /// How many properties `allOf` may copy from the models it names, over all models. Each
    /// model of an `allOf` chain holds the properties of every model below it, so a chain of
    /// 1,000 links with one property each (84 KB of YAML) would make 500,500 properties and
    /// 114 MB of Swift. Past the limit, each `allOf` member is an error at its `$ref`.
    static let maximumMergedProperties = 100_000
    /// The properties `allOf` copied so far (see `maximumMergedProperties`).
    var mergedProperties = 0

    private(set) var extraDiagnostics: [Diagnostic] = []
    /// sdk.yaml's `models` options: closed enums, formats as annotations.
    let options: ModelOptions

    /// Collects the top-level models of every models file (see `ModelReferences`).
    init(modelFiles: [ParsedFile], documents: SchemaDocuments, options: ModelOptions = ModelOptions()) {
        var readers: [String: NodeReader] = [:]
        references = ModelReferences(modelFiles: modelFiles, documents: documents, readers: &readers)
        self.readers = readers
        self.options = options
    }

    /// An inline-schema translator over a complete table: every declared model is
    /// translated already, so it only resolves references and reports into the caller's reader.
    init(table: ModelTable) {
        references = ModelReferences(table: table)
        translated = table.models
        options = table.options
    }

    /// Resolves a `$ref` to a declared model name (see `ModelReferences.resolve`).
    mutating func resolveReference(_ node: Node, reader: inout NodeReader) -> String? {
        references.resolve(node, reader: &reader)
    }

    /// The declared models, translated: call after `translateAll()`.
    var table: ModelTable {
        ModelTable(
            declarations: declarations, typeNames: references.typeNames, models: translated, documents: references.documents,
            options: options)
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
        let hint = Suggestion.hint(for: name, among: Array(declarations.keys)) ?? ""
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
    /// memory, never call-stack depth (300 `allOf` links would overflow a recursive walk's
    /// stack).
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
        let path = declaration.file.source.path
        let lenient = lenientFiles[path] ?? ignoresUnknown(in: declaration.file)
        lenientFiles[path] = lenient
        var reader = NodeReader(file: path, ignoresUnknown: lenient)
        var model = namedModel(
            name: name, swiftName: declaration.swiftName, qualifiedName: declaration.swiftName,
            node: declaration.node, reader: &reader)
        // A declared model is found by its name: point at the key, not at its schema.
        model.location = reader.location(of: declaration.keyNode)
        return (model, reader.diagnostics)
    }

    /// Whether the schemas of `file` are read as JSON Schema reads them, an unknown keyword
    /// ignored and an unknown format an annotation: a referenced document (or one in the
    /// schema folder), which the team does not own, or any file with `models: { unknown:
    /// ignore }`.
    func ignoresUnknown(in file: ParsedFile) -> Bool {
        options.unknown == .ignore || references.documents.isDocument(file.source.path) || OpenAPIDocument.isDocument(file.root)
    }

    // MARK: Named models

    /// A model from a schema that gets a type of its own.
    mutating func namedModel(name: String, swiftName: String, qualifiedName: String, node: Node, reader: inout NodeReader) -> ModelIR {
        let location = reader.location(of: node)
        var nested: [ModelIR] = []
        startNestedScope(owner: qualifiedName)
        if let flag = Self.booleanSchema(node) {
            let constraints = Self.booleanResolved(flag).constraints
            return ModelIR(name: name, swiftName: swiftName, description: nil, kind: .alias(.any, constraints), location: location)
        }
        guard let entries = reader.mapping(node, "the schema of '\(name)'", grammar: Grammar.schema)?.entries else {
            return ModelIR(name: name, swiftName: swiftName, description: nil, kind: .alias(.any, ConstraintsIR()), location: location)
        }
        let description = documentation(entries, reader: &reader)
        reportUnsupported(entries, reader: &reader)
        let kind: ModelIR.Kind
        if isChoice(entries) {
            kind =
                checkedChoice(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader)
                ?? .choice(choice(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader))
        } else if entries["oneOf"] != nil && entries["discriminator"] != nil {
            kind =
                checkedChoice(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader, isUnion: true)
                ?? .union(union(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader))
        } else if let allOf = entries["allOf"], case .sequence(let members) = allOf.value, !isObjectAllOf(Array(members)) {
            // `allOf` of members that are not all objects: JSONValue, checked by the whole schema.
            var constraints = ConstraintsIR()
            constraints.schema = schemaCheck(node, reportingUnsupported: false, reader: &reader)
            kind = .alias(.any, constraints)
        } else if entries["allOf"] != nil {
            let object = allOf(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader)
            kind = .object(keepingKeysNamedByChecks(object, at: location, node: node, reader: &reader))
        } else if let enumEntry = entries["enum"], !isSwiftEnum(enumEntry, entries: entries) {
            // An enum of mixed, non-scalar or no values: JSONValue, checked against the list.
            var constraints = ConstraintsIR()
            constraints.schema = schemaCheck(node, reportingUnsupported: false, reader: &reader)
            kind = .alias(.any, constraints)
        } else if let enumEntry = entries["enum"] {
            kind = .enumeration(enumeration(enumEntry, entries: entries, reader: &reader))
        } else if isObject(entries) {
            let object = object(entries, qualifiedName: qualifiedName, nested: &nested, reader: &reader)
            kind = .object(keepingKeysNamedByChecks(object, at: location, node: node, reader: &reader))
        } else {
            var scratch: [ModelIR] = []
            let resolved = schemaType(
                entries, node: node, qualifiedName: qualifiedName, hint: NamingPass.aliasTypeHint, nested: &scratch, reader: &reader)
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

    func documentation(_ entries: [Entry], reader: inout NodeReader) -> String? {
        let title = entries["title"].flatMap { reader.string($0.value, "title") }
        let description = entries["description"].flatMap { reader.string($0.value, "description") }
        let text: String?
        switch (title, description) {
        case (let title?, let description?): text = "\(title)\n\n\(description)"
        case (let title?, nil): text = title
        case (nil, let description): text = description
        }
        // A format that is an annotation (`models: { formats: annotate }`) is said here only,
        // the schema's own or its items'.
        guard options.formats == .annotate else { return text }
        let annotated = { (node: Node?) -> StringFormat? in
            guard case .mapping(let mapping)? = node, let format = mapping["format"]?.string.flatMap(StringFormat.init(rawValue:)),
                !options.asserts(format)
            else { return nil }
            return format
        }
        let note: String
        if let format = entries["format"]?.value.string.flatMap(StringFormat.init(rawValue:)), !options.asserts(format) {
            note = "Format: \(format.rawValue) (an annotation: not checked)."
        } else if let format = annotated(entries["items"]?.value) {
            note = "Format of each item: \(format.rawValue) (an annotation: not checked)."
        } else {
            return text
        }
        return text.map { "\($0)\n\n\(note)" } ?? note
    }

    /// The name of a nested type of `owner` (with no owner, a type hoisted to the top
    /// level), decided by the naming pass (`ModelTypeNames.nestedName`).
    mutating func uniqueNestedName(_ hint: String, in nested: [ModelIR], owner: String) -> String {
        references.typeNames.nestedName(hint, in: nested, owner: owner)
    }

    /// Forgets the nested type names of `owner` (see `ModelTypeNames.startNestedScope`).
    mutating func startNestedScope(owner: String) {
        references.typeNames.startNestedScope(owner: owner)
    }

    /// The Swift type of the model hoisted from the inline schema of `key`'s body, response
    /// or payload, decided by the naming pass (`ModelTypeNames.hoistedName`).
    func hoistedName(_ key: String, _ hoisting: ModelTypeNames.Hoisting) -> String {
        references.typeNames.hoistedName(key, hoisting)
    }
}

extension SourceLocation {
    func withFile(_ file: String) -> String { "\(file):\(line):\(column)" }
}
