/// The naming pass: decides the Swift identifiers that depend on more than one
/// declaration, stores them in the IR, and reports every clash among them. Renderers only
/// print the names they find in the IR.
///
/// It owns the list of the SDK's own type names (`GeneratedTypeNamesIR`, `<SDK>Store`
/// included), the `AuthenticationInput` cases of later steps, the property that keeps an
/// object's undeclared keys, and the discriminator names of unions. Each name of a single
/// declaration (a model, property, case or column) is derived by `SwiftName` where it is
/// translated, with its own clash check there.
struct NamingPass {
    private(set) var diagnostics: [Diagnostic] = []

    /// The Swift names of the types an SDK called `sdkName` declares besides its models.
    static func typeNames(sdkName: String, hasStore: Bool) -> GeneratedTypeNamesIR {
        GeneratedTypeNamesIR(
            module: sdkName, schema: "\(sdkName)Schema", error: "\(sdkName)Error", event: "\(sdkName)Event",
            store: hasStore ? SwiftName.upperCamel(sdkName) + "Store" : nil)
    }

    /// Names each later step of a multi-step method as an `AuthenticationInput` case, after
    /// the method and the step; two pairs that give one name (`a_b` + `c`, `a` + `b_c`) are
    /// an error at the second step.
    mutating func nameInputCases(_ methods: inout [MethodIR]) {
        var seen: [String: (method: String, step: String)] = [:]
        for methodIndex in methods.indices where methods[methodIndex].isMultiStep {
            let method = methods[methodIndex]
            for stepIndex in method.steps.indices.dropFirst() {
                let step = method.steps[stepIndex]
                let name = SwiftName.inputCase(method: method.name, step: step.name)
                methods[methodIndex].steps[stepIndex].inputCaseName = name
                if let previous = seen[name] {
                    diagnostics.append(
                        .error(
                            "step '\(step.name)' of '\(method.name)' and step '\(previous.step)' of '\(previous.method)' would both be the Swift case AuthenticationInput.\(name)",
                            at: step.location))
                    continue
                }
                seen[name] = (method.name, step.name)
            }
        }
    }

    /// Names the members that models derive from several declarations, in every model and
    /// every nested one.
    mutating func nameMembers(_ models: inout [ModelIR]) {
        for index in models.indices { nameMembers(&models[index]) }
    }

    private mutating func nameMembers(_ model: inout ModelIR) {
        switch model.kind {
        case .object(var object):
            object.additionalPropertiesName =
                object.properties.contains { $0.swiftName == "additionalProperties" }
                ? "additionalProperties_" : "additionalProperties"
            model.kind = .object(object)
        case .union(var union):
            // The label of the unknown case's discriminator must differ from `value`.
            let tagName = SwiftName.lowerCamel(union.discriminator)
            union.unknownTagLabel = tagName == "value" ? "valueTag" : tagName
            union.tagPropertyName = tagName + "Value"
            model.kind = .union(union)
        case .enumeration, .alias:
            break
        }
        nameMembers(&model.nested)
    }

    /// Gives each reference to an operation (the credential's details, the lifecycle's
    /// operations) the Swift name of the operation it names. The translator of sdk.yaml makes
    /// references only to operations it found, so one that names none is a bug of the generator.
    func nameReferences(_ credential: inout CredentialIR, _ lifecycle: inout LifecycleIR, operations: [OperationIR]) {
        func resolve(_ reference: inout OperationRef?) {
            guard let name = reference?.name else { return }
            guard let operation = operations.first(where: { $0.name == name }) else {
                preconditionFailure("a reference to the operation '\(name)', which the IR does not hold")
            }
            reference?.swiftName = operation.swiftName
        }
        resolve(&credential.detailsOperation)
        resolve(&lifecycle.signOut)
        resolve(&lifecycle.detachIdentity)
        resolve(&lifecycle.destroyAccount)
    }

    /// A model that would be one of the SDK's own types is an error at the model.
    mutating func checkClashes(_ models: [ModelIR], with names: GeneratedTypeNamesIR) {
        let generated = Set(names.all)
        for model in models where generated.contains(model.swiftName) {
            diagnostics.append(
                .error(
                    "model '\(model.name)' would be the Swift type \(model.swiftName), which the SDK itself declares; rename it",
                    at: model.location))
        }
    }
}
