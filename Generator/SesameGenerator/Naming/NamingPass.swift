/// The naming pass: decides the Swift identifiers of the SDK's declarations, stores them in
/// the IR, and reports every clash among them. Renderers only print the names they find in
/// the IR.
///
/// It owns the list of the SDK's own type names (`GeneratedTypeNamesIR`, `<SDK>Store`
/// included); the cases of the methods, the `AuthenticationInput` cases of later steps, the
/// operations, the error codes and the events; every parameter; the properties, enum cases
/// and union cases of every model, the storage of indirect properties, the property that
/// keeps an object's undeclared keys and the discriminator names of unions; and the Swift names that references to operations
/// carry (`OperationRef`).
///
/// The type names of models follow the rules of `NamingPass+TypeNames` (declared, pointed and
/// hoisted models) and `NestedTypeNames` (types nested in a model), made unique by
/// `UniqueNames`, in one register (`ModelTypeNames`) that the translators ask for each name
/// as they create each model, since references (`ModelRef.swiftPath`) carry the name at once
/// and models are found by Swift name while they translate. The store's tables are named by
/// `storeTableTypeName`, and its columns named; both are checked version by version by the
/// store translator.
struct NamingPass {
    private(set) var diagnostics: [Diagnostic] = []

    /// The Swift names of the types an SDK called `sdkName` declares besides its models.
    static func typeNames(sdkName: String, hasStore: Bool) -> GeneratedTypeNamesIR {
        GeneratedTypeNamesIR(
            module: sdkName, schema: "\(sdkName)Schema", error: "\(sdkName)Error", event: "\(sdkName)Event",
            store: hasStore ? SwiftName.upperCamel(sdkName) + "Store" : nil)
    }

    // MARK: auth.yaml

    /// Names each operation and its parameters. An operation whose Swift name an earlier one
    /// has is an error at its key, and is dropped.
    mutating func nameOperations(_ operations: inout [OperationIR]) {
        var seen: Set<String> = []
        var named: [OperationIR] = []
        for var operation in operations {
            operation.swiftName = SwiftName.lowerCamel(operation.name)
            guard seen.insert(operation.swiftName).inserted else {
                diagnostics.append(
                    .error("operation '\(operation.name)' has the same Swift name as another operation", at: operation.location))
                continue
            }
            nameParameters(&operation.parameters, of: "operation '\(operation.name)'")
            named.append(operation)
        }
        operations = named
    }

    /// Names each method's case (never a member the method enums declare:
    /// `description` → `descriptionMethod`), its parameters and its steps' needs. A method
    /// whose case an earlier one has is an error at its key, and is dropped.
    mutating func nameMethods(_ methods: inout [MethodIR]) {
        var seen: Set<String> = []
        var named: [MethodIR] = []
        for var method in methods {
            var swiftName = SwiftName.lowerCamel(method.name)
            if SwiftName.reservedMethodCases.contains(swiftName) { swiftName += "Method" }
            method.swiftName = swiftName
            guard seen.insert(swiftName).inserted else {
                diagnostics.append(.error("method '\(method.name)' has the same Swift name as another method", at: method.location))
                continue
            }
            nameParameters(&method.parameters, of: "method '\(method.name)'")
            for index in method.steps.indices {
                nameParameters(&method.steps[index].needs, of: "step '\(method.steps[index].name)' of '\(method.name)'")
            }
            named.append(method)
        }
        methods = named
    }

    /// Names the parameters of one declaration; two that give one Swift name (`a_b`, `aB`)
    /// are an error at the second.
    private mutating func nameParameters(_ parameters: inout [ParameterIR], of owner: String) {
        var seen: [String: String] = [:]
        for index in parameters.indices {
            let parameter = parameters[index]
            let swiftName = SwiftName.lowerCamel(parameter.name)
            parameters[index].swiftName = swiftName
            if let previous = seen[swiftName] {
                diagnostics.append(
                    .error(
                        "parameters '\(previous)' and '\(parameter.name)' of \(owner) would both be the Swift parameter \(swiftName)",
                        at: parameter.sourceLocation))
                continue
            }
            seen[swiftName] = parameter.name
        }
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

    // MARK: errors.yaml and events.yaml

    /// Names each error code's case of `<SDK>Error` (never a member it declares:
    /// `unknown` → `unknownError`). Two codes that give one case are an error at the second,
    /// which is dropped.
    mutating func nameErrors(_ errors: inout ErrorsIR) {
        var seen: [String: String] = [:]
        var named: [ErrorIR] = []
        for var error in errors.errors {
            var swiftName = SwiftName.lowerCamel(error.code)
            if SwiftName.reservedErrorCases.contains(swiftName) { swiftName += "Error" }
            error.swiftName = swiftName
            if let previous = seen[swiftName] {
                diagnostics.append(
                    .error("error codes '\(previous)' and '\(error.code)' would both be the Swift case \(swiftName)", at: error.location))
                continue
            }
            seen[swiftName] = error.code
            named.append(error)
        }
        errors.errors = named
    }

    /// Names each event's case of `<SDK>Event`: never a member it declares
    /// (`wireName` → `wireNameEvent`), and `_`, `__`, `_4`… appended while an earlier event has
    /// the name.
    mutating func nameEvents(_ events: inout EventsIR) {
        var used = UniqueNames(taken: SwiftName.reservedEventCases)
        for index in events.events.indices {
            var swiftName = SwiftName.lowerCamel(events.events[index].name)
            if used.contains(swiftName) { swiftName += "Event" }
            events.events[index].swiftName = used.claim(swiftName)
        }
    }

    // MARK: Models

    /// Names the members of every model and every nested one: properties, enum cases, union
    /// cases, and what models derive from several declarations.
    mutating func nameMembers(_ models: inout [ModelIR]) {
        for index in models.indices { nameMembers(&models[index]) }
    }

    private mutating func nameMembers(_ model: inout ModelIR) {
        switch model.kind {
        case .object(var object):
            // Never a member every type has (`description` → `descriptionValue`); `_`,
            // `__`, then a number appended while an earlier property has the name.
            // Nor the name of a model type the struct spells unqualified: a property `*/` is
            // `_2A_2F`, as a model `*/` is, and inside the struct it would hide that type.
            let types = Set(object.properties.flatMap { Self.outermostTypes(in: $0.type) })
            // Taken too for the storage of an indirect property (`_` + `_` would be a model `__`).
            var used = UniqueNames(taken: types)
            let names = Self.uniqueNames(
                object.properties.map(\.name), reserved: SwiftName.reservedMembers.union(types), used: &used)
            for index in object.properties.indices { object.properties[index].swiftName = names[index] }
            // An indirect property's storage: `_` and its name, never another property's.
            for index in object.properties.indices where object.properties[index].indirect {
                object.properties[index].storageName = used.claim("_" + object.properties[index].swiftName)
            }
            // The undeclared keys' property: `additionalProperties`, `_` appended while taken.
            object.additionalPropertiesName = used.claim("additionalProperties")
            // The local a `const` property's value is checked in while decoding: never one of
            // the decoder's own locals (`container` → `container_`), nor another member.
            var locals = UniqueNames(taken: used.used.union(SwiftName.reservedDecoderLocals))
            for index in object.properties.indices {
                let swiftName = object.properties[index].swiftName
                object.properties[index].localName =
                    SwiftName.reservedDecoderLocals.contains(swiftName) ? locals.claim(swiftName) : swiftName
            }
            model.kind = .object(object)
        case .enumeration(var enumeration):
            // Never a member every generated enum declares (`unknown` → `unknownValue`).
            var used = UniqueNames(taken: ["unknown"])
            let names = Self.uniqueNames(enumeration.cases.map(\.rawValue), reserved: SwiftName.reservedEnumCases, used: &used)
            for index in enumeration.cases.indices { enumeration.cases[index].swiftName = names[index] }
            model.kind = .enumeration(enumeration)
        case .union(var union):
            var used = UniqueNames(taken: ["unknown"])
            // A case never takes the name of a type the enum spells unqualified: a model `10_y`
            // is the type `_10Y` and would be the case `_10Y` too (so would `名前`, which has no
            // case), and inside the enum `_10Y(from: decoder)` would call the case.
            let types = Set(union.variants.map { Self.outermostType($0.model) })
            let names = Self.uniqueNames(
                union.variants.map(\.tag), reserved: SwiftName.reservedMembers.union(["unknown"]).union(types), used: &used)
            for index in union.variants.indices { union.variants[index].caseName = names[index] }
            // The label of the unknown case's discriminator must differ from `value`.
            let tagName = SwiftName.lowerCamel(union.discriminator)
            union.unknownTagLabel = tagName == "value" ? "valueTag" : tagName
            union.tagPropertyName = tagName + "Value"
            model.kind = .union(union)
        case .choice(var choice):
            var used = UniqueNames()
            let types = Set(
                choice.variants.compactMap { variant -> String? in
                    guard case .model(let reference)? = variant.type else { return nil }
                    return Self.outermostType(reference)
                })
            let names = Self.uniqueNames(choice.variants.map(\.hint), reserved: SwiftName.reservedMembers.union(types), used: &used)
            for index in choice.variants.indices { choice.variants[index].caseName = names[index] }
            model.kind = .choice(choice)
        case .alias:
            break
        }
        nameMembers(&model.nested)
    }

    /// The first component of a model's Swift path (`Order` of `Order.Line`): the name code
    /// inside another type spells unqualified.
    private static func outermostType(_ reference: ModelRef) -> String {
        String(reference.swiftPath.split(separator: ".").first ?? "")
    }

    /// The outermost names of the model types a type spells (`Order` of `[Order.Line]`).
    private static func outermostTypes(in type: TypeIR) -> [String] {
        switch type {
        case .model(let reference): return [outermostType(reference)]
        case .array(let element), .dictionary(let element): return outermostTypes(in: element)
        default: return []
        }
    }

    /// Swift names for wire names, in order: lower camel case, `Value` appended to a reserved
    /// one (`description` → `descriptionValue`), then `_`, `__`, `_4`… while an earlier name
    /// has it (see `UniqueNames`).
    private static func uniqueNames(_ wireNames: [String], reserved: Set<String>, used: inout UniqueNames) -> [String] {
        wireNames.map { wireName in
            var swiftName = SwiftName.lowerCamel(wireName)
            if reserved.contains(swiftName) { swiftName += "Value" }
            return used.claim(swiftName)
        }
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

    // MARK: References

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
}
