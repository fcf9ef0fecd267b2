/// The names of the types nested in each model (its inline objects, enums and choices), made
/// unique with `UniqueNames` in its `numbered` style (`Item`, `Item2`, `Item3`…): never a
/// keyword or a type the generated code uses (`Type` → `TypeModel`), and never a declared
/// model's name, which inside the struct the nested type would shadow.
///
/// Part of the naming pass's register of model type names (`ModelTypeNames`), which the model
/// translator asks for a name as it creates the type, since references to the type
/// (`ModelRef.swiftPath`) carry it. Near linear over a model's
/// nested types: the names of `nested` are kept per owner, updated with what was appended
/// since the last call, and the numbers go on from where the last name of the same hint
/// stopped (3,000 inline objects all named `A` once took 3,000³ steps).
struct NestedTypeNames {
    private struct Scope {
        /// How many types of the owner's list `names` holds.
        var count = 0
        var names = UniqueNames(style: .numbered)
    }

    private var scopes: [String: Scope] = [:]

    /// The name of a type nested in `owner` whose list of nested types is `nested`, from
    /// `hint`; `isDeclared` tells a declared model's Swift name.
    mutating func claim(_ hint: String, in nested: [ModelIR], owner: String, isDeclared: (String) -> Bool) -> String {
        let base = SwiftName.isReservedTypeName(hint) ? hint + "Model" : hint
        var scope = scopes[owner] ?? Scope()
        // Fewer types than the scope has seen: another list of the same owner; start again.
        if scope.count > nested.count { scope = Scope() }
        for model in nested[scope.count...] { scope.names.reserve(model.swiftName) }
        scope.count = nested.count
        let name = scope.names.claim(base, isTakenElsewhere: isDeclared)
        scopes[owner] = scope
        return name
    }

    /// Forgets the nested type names of `owner`: its translation starts (a model tried twice
    /// names its types the same way both times), or a new list of types begins.
    mutating func reset(owner: String) {
        scopes[owner] = nil
    }
}
