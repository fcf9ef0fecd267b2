/// The naming pass's register of model type names: every Swift type a model gets is decided
/// here, by the rules of `NamingPass+TypeNames`, and made unique here, in one of two scopes.
///
/// - The top level: declared models (`SwiftName.typeName` of the key; two keys that give one
///   type are an error the caller reports), models of a JSON pointer or of a referenced
///   document's schema (numbered while a model has the name), and the types hoisted from the
///   inline schemas of auth.yaml and events.yaml (`_` appended for a body, a response or a
///   payload, numbered for the types a parameter needs, while any top-level model has the
///   name).
/// - The types nested in a model (`NestedTypeNames`): numbered, never a keyword or a type the
///   generated code uses, and never a declared model's name, which the nested type would
///   shadow inside its owner.
///
/// One value goes through the whole translation: the models files' translator fills it with
/// the declared models, the model table carries it, and the translator of the inline schemas
/// (`InlineSchemas`) adds the hoisted types to it. The translators ask for each name as they
/// create the model, because references (`ModelRef.swiftPath`) carry it at once and models
/// are looked up by Swift name while they translate.
struct ModelTypeNames {
    /// What a top-level model's type is named after.
    enum Hoisting {
        /// The body of an operation.
        case body
        /// The response of an operation.
        case response
        /// The payload of an event.
        case payload

        var role: String {
            switch self {
            case .body: return "Body"
            case .response: return "Response"
            case .payload: return "Payload"
            }
        }
    }

    /// The declared name of each model of the models files by its Swift type: declared
    /// models, and the schemas a JSON pointer or a referenced document names.
    private(set) var declaredNames: [String: String] = [:]
    /// The names a model of the models files is declared under (a document's schema is
    /// declared under its Swift type, which no declared key may have).
    private var keys: Set<String> = []
    /// The types hoisted from inline schemas so far.
    private var hoisted: Set<String> = []
    private var nested = NestedTypeNames()

    /// Whether a model of the models files has the Swift type `name`.
    func isDeclared(_ name: String) -> Bool { declaredNames[name] != nil }

    // MARK: Top level

    /// Names the model declared under `key` in a models file: its Swift type, or the key of
    /// the model that has that type already (an error the caller reports at the key; nothing
    /// is taken then).
    mutating func declare(_ key: String) -> Result<String, Clash> {
        let swiftName = NamingPass.declaredModelName(key)
        if let previous = declaredNames[swiftName] { return .failure(Clash(swiftName: swiftName, previous: previous)) }
        declaredNames[swiftName] = key
        keys.insert(key)
        return .success(swiftName)
    }

    /// Names the `$defs` entry `key` of `owner` whose Swift type another declaration would
    /// have too (see `NamingPass.definitionName`), declared under its Swift type.
    mutating func declareDefinition(_ key: String, owner: String) -> String {
        let swiftName = NamingPass.definitionName(key, owner: owner, isTaken: { declaredNames[$0] != nil || keys.contains($0) })
        declaredNames[swiftName] = swiftName
        keys.insert(swiftName)
        return swiftName
    }

    /// Names the model of the schema a JSON pointer into a models file names (`key` is the
    /// pointer without its leading `/`, `tokens` its decoded tokens).
    mutating func declarePointed(_ key: String, tokens: [String]) -> String {
        let swiftName = NamingPass.pointedModelName(tokens, isTaken: { declaredNames[$0] != nil })
        declaredNames[swiftName] = key
        keys.insert(key)
        return swiftName
    }

    /// Names the model of a referenced document's schema, declared under its Swift type (see
    /// `NamingPass.documentModelName`).
    mutating func declareDocumentSchema(pointer tokens: [String], title: String?, stem: String) -> String {
        let swiftName = NamingPass.documentModelName(
            pointer: tokens, title: title, stem: stem, isTaken: { declaredNames[$0] != nil || keys.contains($0) })
        declaredNames[swiftName] = swiftName
        keys.insert(swiftName)
        return swiftName
    }

    /// The Swift type of the model hoisted from the inline schema of `key`'s body, response or
    /// payload (`signIn` → `SignInBody`), `_` appended while a top-level model has it. The
    /// name is taken when the model is made (`nestedName(_:in:owner:)` with no owner); an
    /// inline schema that needs no type of its own takes none.
    func hoistedName(_ key: String, _ hoisting: Hoisting) -> String {
        NamingPass.uniqueHoistedName(NamingPass.hoistedTypeName(key, role: hoisting.role)) {
            declaredNames[$0] != nil || hoisted.contains($0)
        }
    }

    // MARK: Nested types

    /// Names a type nested in `owner`, whose nested types so far are `nested`, from `hint`
    /// (see `NestedTypeNames`). With no owner the type is hoisted to the top level: numbered
    /// while a top-level model has the name, and taken from then on.
    mutating func nestedName(_ hint: String, in nested: [ModelIR], owner: String) -> String {
        let declared = declaredNames
        guard owner.isEmpty else {
            return self.nested.claim(hint, in: nested, owner: owner, isDeclared: { declared[$0] != nil })
        }
        let name: String
        do {
            // The copy goes before the set grows below: kept alive, it would make the insertion
            // copy the whole set (quadratic over hoisted types).
            let taken = hoisted
            name = self.nested.claim(hint, in: nested, owner: owner, isDeclared: { declared[$0] != nil || taken.contains($0) })
        }
        hoisted.insert(name)
        return name
    }

    /// Forgets the nested type names of `owner`: its translation starts (a model tried twice
    /// names its types the same way both times), or, with no owner, an inline schema of
    /// another file's declaration starts (the top-level types it takes stay taken).
    mutating func startNestedScope(owner: String) {
        nested.reset(owner: owner)
    }

    /// Two models declared under keys that give one Swift type.
    struct Clash: Error {
        var swiftName: String
        /// The key of the model declared first.
        var previous: String
    }
}
