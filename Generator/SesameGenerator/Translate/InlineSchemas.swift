import Yams

/// The inline schemas of auth.yaml and events.yaml (parameters, bodies, responses,
/// payloads), translated against the shared model table. One that needs a type of its own
/// (an inline object or enum) becomes a top-level model: hoisted, under a name the naming
/// pass gives it (`ModelTypeNames`), which no declared or earlier hoisted model has.
///
/// The orchestrating `SDKTranslator` owns one value and passes it, `inout`, to each file's
/// translator in turn, so hoisted names stay unique across files.
struct InlineSchemas {
    let table: ModelTable
    /// Translates inline schemas; its table is complete, so it never translates a declared
    /// model again and its own diagnostics stay empty.
    private var translator: ModelTranslator
    /// The hoisted models, in the order they were made.
    private(set) var hoisted: [ModelIR] = []

    init(table: ModelTable) {
        self.table = table
        translator = ModelTranslator(table: table)
    }

    /// The type of an inline schema; one that needs a type of its own becomes a top-level
    /// model named after `key` and its role (`ModelTypeNames.hoistedName`).
    mutating func hoistedType(_ node: Node, for key: String, _ hoisting: ModelTypeNames.Hoisting, reader: inout NodeReader) -> TypeIR {
        let swiftName = translator.hoistedName(key, hoisting)
        let resolved = inlineType(node, hint: swiftName, reader: &reader)
        if resolved.nullable { reader.error("a nullable schema is not supported here", at: node) }
        return resolved.type
    }

    /// The resolved type of an inline schema, hoisting the types it needs under `hint`
    /// (numbered while a top-level model has it).
    mutating func inlineType(_ node: Node, hint: String, reader: inout NodeReader) -> ModelTranslator.Resolved {
        var nested: [ModelIR] = []
        translator.startNestedScope(owner: "")
        let resolved = translator.inlineType(node, qualifiedName: "", hint: hint, nested: &nested, reader: &reader)
        hoisted += nested
        return resolved
    }
}
