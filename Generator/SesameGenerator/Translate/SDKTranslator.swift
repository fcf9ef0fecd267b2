import Yams

/// Translates a schema folder's parsed files into the SDK's IR, collecting every
/// diagnostic of every file, in explicit passes:
///
/// 1. collect the symbols of every file (`SchemaSymbols`);
/// 2. translate the models files into the shared `ModelTable`;
/// 3. translate each other file against that table: auth.yaml, errors.yaml, events.yaml,
///    sdk.yaml, store.yaml (inline schemas hoisted through one `InlineSchemas`), each
///    file's declarations named by the naming pass (`NamingPass`) as soon as they are
///    translated, so that sdk.yaml is translated against the operations that keep their names;
/// 4. validate what spans files (`SchemaValidator`);
/// 5. once there is no error, name the models' members and the references to operations.
struct SDKTranslator {
    private let files: [ParsedFile]
    private let unreadable: [String: String]

    /// - Parameter unreadable: why a referenced file could not be read, by its path relative
    ///   to the schema folder.
    init(files: [ParsedFile], unreadable: [String: String] = [:]) {
        self.files = files
        self.unreadable = unreadable
    }

    func translate() -> (SDKIR?, [Diagnostic]) {
        var symbols = SchemaSymbols(files: files, unreadable: unreadable)
        var diagnostics = symbols.diagnostics
        let modelIR = symbols.models.translateAll()
        let table = symbols.models.table
        guard let sdkFile = symbols.roleFiles[.sdk] else {
            diagnostics.append(.error("the schema folder has no sdk.yaml (it names the SDK and its credential)", at: nil))
            return (nil, diagnostics + symbols.models.diagnostics)
        }
        var schemas = InlineSchemas(table: table)
        var auth = AuthTranslator(table: table)
        var (methods, operations) = auth.translate(symbols.roleFiles[.auth], schemas: &schemas)
        var naming = NamingPass()
        naming.nameOperations(&operations)
        naming.nameMethods(&methods)
        naming.nameInputCases(&methods)
        var errorsTranslator = ErrorsTranslator()
        var errors = errorsTranslator.translate(symbols.roleFiles[.errors])
        naming.nameErrors(&errors)
        diagnostics += errorsTranslator.diagnostics
        var eventsTranslator = EventsTranslator()
        var events = eventsTranslator.translate(symbols.roleFiles[.events], schemas: &schemas)
        naming.nameEvents(&events)
        diagnostics += eventsTranslator.diagnostics
        var reader = NodeReader(file: sdkFile.source.path)
        let sdk = SDKFileTranslator(table: table, declaredOperations: symbols.declaredOperations)
            .translate(sdkFile, operations: operations, reader: &reader)
        var store: StoreIR?
        if let storeFile = symbols.roleFiles[.store] {
            let (ir, storeDiagnostics) = StoreTranslator.translate(storeFile)
            store = ir
            diagnostics += storeDiagnostics
        }
        diagnostics += reader.diagnostics + auth.diagnostics + naming.diagnostics + symbols.models.diagnostics
        guard var sdk else { return (nil, diagnostics.sortedByLocation()) }
        diagnostics += SchemaValidator.checkTokenResponses(methods, credential: sdk.credential)
        if !sdk.declaresOpenID { diagnostics += SchemaValidator.checkOpenIDSteps(methods) }
        diagnostics += SchemaValidator.checkClaimsDetails(methods, credential: sdk.credential)
        if sdk.authorizationServerURL != nil {
            diagnostics += SchemaValidator.checkClientAuthentication(methods, credential: sdk.credential, lifecycle: sdk.lifecycle)
        }
        var models = modelIR + schemas.hoisted
        let typeNames = NamingPass.typeNames(sdkName: sdk.name, hasStore: store != nil)
        naming = NamingPass()
        naming.checkClashes(models, with: typeNames)
        diagnostics += naming.diagnostics
        guard !diagnostics.hasErrors else { return (nil, diagnostics.sortedByLocation()) }
        CycleChecker.storeObjectsIndirectly(&models)
        naming.nameMembers(&models)
        naming.nameReferences(&sdk.credential, &sdk.lifecycle, operations: operations)
        return (
            SDKIR(
                name: sdk.name, description: sdk.description, baseURL: sdk.baseURL, credential: sdk.credential,
                lifecycle: sdk.lifecycle, methods: methods, operations: operations, models: models.sorted { $0.swiftName < $1.swiftName },
                errors: errors, events: events, store: store, typeNames: typeNames,
                authorizationServerURL: sdk.authorizationServerURL, authorizationIssuer: sdk.authorizationIssuer, openID: sdk.openID,
                modelOptions: table.options),
            diagnostics.sortedByLocation()
        )
    }
}
