import Yams

/// The models files once translated: every declared model by name and by Swift type name.
/// It is what the other files (auth.yaml, events.yaml, sdk.yaml) are translated against,
/// passed in as a value; nothing translated later changes it.
struct ModelTable {
    let declarations: [String: ModelTranslator.Declaration]
    /// The type names the naming pass gave the models so far (`ModelTypeNames`), which the
    /// inline schemas of the other files go on from.
    let typeNames: ModelTypeNames
    /// Declared names by Swift type name, so that lookups by type stay constant-time.
    var namesBySwiftName: [String: String] { typeNames.declaredNames }
    /// Every declared model, translated, by declared name.
    let models: [String: ModelIR]
    /// The resources of the models files and referenced documents, for `$ref` from other files.
    let documents: SchemaDocuments
    /// sdk.yaml's `models` options, which inline schemas follow too.
    let options: ModelOptions

    /// Whether a models file declares `name`.
    func declares(_ name: String) -> Bool { declarations[name] != nil }

    /// The declared model whose Swift type is `swiftName`.
    func model(swiftName: String) -> ModelIR? {
        namesBySwiftName[swiftName].flatMap { models[$0] }
    }

    /// A reference to the declared model `name`, or nil when no models file declares it.
    func reference(to name: String) -> ModelRef? { declarations[name]?.reference }

    /// The JSON names of an object model's properties (with those `allOf` merges in).
    func propertyNames(of name: String) -> Set<String> {
        guard let model = models[name], case .object(let object) = model.kind else { return [] }
        return Set(object.properties.map(\.name))
    }

    /// Reports a model name that no file declares, with the closest declared name.
    func reportUnknownModel(_ name: String, at node: Node, reader: inout NodeReader) {
        let hint = Suggestion.hint(for: name, among: Array(declarations.keys)) ?? ""
        reader.error("unknown model '\(name)'\(hint)", at: node)
    }

    /// Whether a type can be a path or query parameter: a string, number, boolean or enum,
    /// or an alias of one. Follows a chain of aliases of any length in a loop, and stops on
    /// one that comes back to itself (the cycle check reports it). `hoisted` are the models
    /// inline schemas made so far (an inline `enum` of a parameter is one of them).
    func isSimple(_ type: TypeIR, hoisted: [ModelIR] = []) -> Bool {
        var current = type
        var seen: Set<String> = []
        while true {
            switch current {
            case .string, .integer, .number, .boolean: return true
            case .model(let reference):
                guard seen.insert(reference.swiftPath).inserted else { return false }
                let model = model(swiftName: reference.swiftPath) ?? hoisted.first { $0.swiftName == reference.swiftPath }
                switch model?.kind {
                case .enumeration?: return true
                case .alias(let aliased, _)?: current = aliased
                default: return false
                }
            default: return false
            }
        }
    }
}
