import Yams

/// Translates a schema folder's parsed files into the SDK's IR, collecting every
/// diagnostic of every file, in explicit passes:
///
/// 1. collect the symbols of every file (`SchemaSymbols`);
/// 2. translate the models files into the shared `ModelTable`;
/// 3. translate each other file against that table: auth.yaml, errors.yaml, events.yaml,
///    sdk.yaml, store.yaml (inline schemas hoisted through one `InlineSchemas`);
/// 4. validate what spans files (`SchemaValidator`).
///
/// Swift names are then decided by the naming pass, on the IR this returns.
struct SDKTranslator {
    private let files: [ParsedFile]

    init(files: [ParsedFile]) {
        self.files = files
    }

    func translate() -> (SDKIR?, [Diagnostic]) {
        var symbols = SchemaSymbols(files: files)
        var diagnostics = symbols.diagnostics
        let modelIR = symbols.models.translateAll()
        let table = symbols.models.table
        guard let sdkFile = symbols.roleFiles[.sdk] else {
            diagnostics.append(.error("the schema folder has no sdk.yaml (it names the SDK and its credential)", at: nil))
            return (nil, diagnostics + symbols.models.diagnostics)
        }
        var schemas = InlineSchemas(table: table)
        var auth = AuthTranslator(table: table)
        let (methods, operations) = auth.translate(symbols.roleFiles[.auth], schemas: &schemas)
        var errorsTranslator = ErrorsTranslator()
        let errors = errorsTranslator.translate(symbols.roleFiles[.errors])
        diagnostics += errorsTranslator.diagnostics
        var eventsTranslator = EventsTranslator()
        let events = eventsTranslator.translate(symbols.roleFiles[.events], schemas: &schemas)
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
        diagnostics += reader.diagnostics + auth.diagnostics + symbols.models.diagnostics
        if let sdk {
            diagnostics += SchemaValidator.checkTokenResponses(methods, credential: sdk.credential)
            let generated = ["\(sdk.name)Schema", "\(sdk.name)Error", "\(sdk.name)Event", sdk.name]
            for model in modelIR + schemas.hoisted where generated.contains(model.swiftName) {
                diagnostics.append(.error("model '\(model.name)' would be the Swift type \(model.swiftName), which the SDK itself declares; rename it", at: model.location))
            }
        }
        guard let sdk, !diagnostics.hasErrors else { return (nil, diagnostics.sortedByLocation()) }
        let allModels = (modelIR + schemas.hoisted).sorted { $0.swiftName < $1.swiftName }
        return (SDKIR(name: sdk.name, description: sdk.description, baseURL: sdk.baseURL, credential: sdk.credential,
                      lifecycle: sdk.lifecycle, methods: methods, operations: operations, models: allModels,
                      errors: errors, events: events, store: store), diagnostics.sortedByLocation())
    }
}
