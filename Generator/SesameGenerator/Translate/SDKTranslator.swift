import Yams

/// Translates a schema folder's parsed files into the SDK's IR, collecting every
/// diagnostic of every file.
struct SDKTranslator {
    private var models: ModelTranslator
    private var diagnostics: [Diagnostic] = []
    private let files: [ParsedFile]
    private var declaredOperations: Set<String> = []

    init(files: [ParsedFile]) {
        self.files = files
        self.models = ModelTranslator(modelFiles: files.filter { $0.source.role == .models })
    }

    mutating func translate() -> (SDKIR?, [Diagnostic]) {
        let modelIR = models.translateAll()
        var roleFiles: [SchemaSource.Role: ParsedFile] = [:]
        for file in files where file.source.role != .models {
            if let previous = roleFiles[file.source.role] {
                diagnostics.append(.error("a schema has one \(file.source.role.rawValue) file; this one repeats \(previous.source.path)",
                                          at: SourceLocation(file: file.source.path, line: 1, column: 1)))
                continue
            }
            roleFiles[file.source.role] = file
        }
        guard let sdkFile = roleFiles[.sdk] else {
            diagnostics.append(.error("the schema folder has no sdk.yaml (it names the SDK and its credential)", at: nil))
            return (nil, diagnostics + models.diagnostics)
        }
        var auth = AuthTranslator(models: models)
        let (methods, operations) = auth.translate(roleFiles[.auth])
        let errors = translateErrors(roleFiles[.errors])
        let events = translateEvents(roleFiles[.events], auth: &auth)
        var reader = NodeReader(file: sdkFile.source.path)
        declaredOperations = auth.declaredOperations
        models = auth.models
        let sdk = translateSDK(sdkFile, operations: operations, reader: &reader)
        var store: StoreIR?
        if let storeFile = roleFiles[.store] {
            let (ir, storeDiagnostics) = StoreTranslator.translate(storeFile)
            store = ir
            diagnostics += storeDiagnostics
        }
        diagnostics += reader.diagnostics + auth.diagnostics + models.diagnostics
        if let sdk {
            for method in methods {
                guard let last = method.steps.last, let response = last.response, !sdk.credential.tokenModel.isEmpty else { continue }
                if response != sdk.credential.tokenModel {
                    diagnostics.append(.error("the last step of '\(method.name)' must return the token model '\(sdk.credential.tokenModel)', not '\(response)'", at: last.location))
                }
            }
            let generated = ["\(sdk.name)Schema", "\(sdk.name)Error", "\(sdk.name)Event", sdk.name]
            for model in modelIR + auth.hoisted where generated.contains(model.swiftName) {
                diagnostics.append(.error("model '\(model.name)' would be the Swift type \(model.swiftName), which the SDK itself declares; rename it", at: model.location))
            }
        }
        guard let sdk, !diagnostics.hasErrors else { return (nil, diagnostics.sortedByLocation()) }
        let allModels = (modelIR + auth.hoisted).sorted { $0.swiftName < $1.swiftName }
        return (SDKIR(name: sdk.name, description: sdk.description, baseURL: sdk.baseURL, credential: sdk.credential,
                      lifecycle: sdk.lifecycle, methods: methods, operations: operations, models: allModels,
                      errors: errors, events: events, store: store), diagnostics.sortedByLocation())
    }

    // MARK: sdk.yaml

    private struct SDKPart {
        var name: String
        var description: String?
        var baseURL: String
        var credential: CredentialIR
        var lifecycle: LifecycleIR
    }

    private mutating func translateSDK(_ file: ParsedFile, operations: [OperationIR], reader: inout NodeReader) -> SDKPart? {
        guard let root = file.root,
              let entries = reader.mapping(root, "sdk.yaml", allowed: ["sdk", "description", "server", "credential", "lifecycle"])
        else {
            if file.root == nil { reader.append(.error("sdk.yaml is empty", at: SourceLocation(file: file.source.path, line: 1, column: 1))) }
            return nil
        }
        var name = "SDK"
        if let entry = entries["sdk"], let text = reader.string(entry.value, "sdk") {
            if Identifier.isValid(text) { name = text } else {
                reader.error("sdk '\(text)' must be a Swift module name: letters, digits and _, not starting with a digit", at: entry.value)
            }
        } else if entries["sdk"] == nil {
            reader.error("sdk.yaml must name the SDK (sdk: MySDK)", at: root)
        }
        let description = entries["description"].flatMap { reader.string($0.value, "description") }
        var baseURL = "https://localhost"
        if let server = entries["server"], let serverEntries = reader.mapping(server.value, "server", allowed: ["baseURL"]),
           let urlEntry = serverEntries["baseURL"], let url = reader.string(urlEntry.value, "baseURL") {
            if let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme), parsed.host != nil {
                baseURL = url
            } else {
                reader.error("baseURL must be an absolute http or https URL", at: urlEntry.value)
            }
        } else {
            reader.error("sdk.yaml must declare server: { baseURL: https://… }", at: entries["server"]?.keyNode ?? root)
        }
        guard let credentialEntry = entries["credential"] else {
            reader.error("sdk.yaml must declare the credential", at: root)
            return nil
        }
        let credential = translateCredential(credentialEntry.value, operations: operations, reader: &reader)
        var lifecycle = LifecycleIR()
        if let entry = entries["lifecycle"], let items = reader.mapping(entry.value, "lifecycle", allowed: ["signOut", "detachIdentity", "destroyAccount"]) {
            for item in items {
                guard let operation = reader.string(item.value, item.key) else { continue }
                guard operations.contains(where: { $0.name == operation }) else {
                    if !declaredOperations.contains(operation) {
                        reader.error("unknown operation '\(operation)' for \(item.key)", at: item.value)
                    }
                    continue
                }
                switch item.key {
                case "signOut": lifecycle.signOut = operation
                case "detachIdentity": lifecycle.detachIdentity = operation
                default: lifecycle.destroyAccount = operation
                }
            }
        }
        guard let credential else { return nil }
        return SDKPart(name: name, description: description, baseURL: baseURL, credential: credential, lifecycle: lifecycle)
    }

    private mutating func translateCredential(_ node: Node, operations: [OperationIR], reader: inout NodeReader) -> CredentialIR? {
        guard let entries = reader.mapping(node, "credential", allowed: ["token", "apply", "refresh", "rejected", "details", "userID"]) else { return nil }
        var tokenModel = "", accessToken = "access_token"
        var refreshToken: String?, expiresIn: String?
        if let token = entries["token"], let tokenEntries = reader.mapping(token.value, "credential.token", allowed: ["model", "accessToken", "refreshToken", "expiresIn"]) {
            if let model = tokenEntries["model"], let name = reader.string(model.value, "model") {
                if models.declarations[name] != nil {
                    tokenModel = name
                    let fields = objectFields(name)
                    if tokenEntries["accessToken"] == nil, !fields.contains(accessToken) {
                        reader.error("the token model '\(name)' has no property '\(accessToken)'; name the access token's property (accessToken: …)", at: token.keyNode)
                    }
                    for key in ["accessToken", "refreshToken", "expiresIn"] {
                        guard let entry = tokenEntries[key], let field = reader.string(entry.value, key) else { continue }
                        if !fields.contains(field) {
                            reader.error("the token model '\(name)' has no property '\(field)'", at: entry.value)
                        }
                        switch key {
                        case "accessToken": accessToken = field
                        case "refreshToken": refreshToken = field
                        default: expiresIn = field
                        }
                    }
                } else {
                    models.reportUnknownModel(name, at: model.value, reader: &reader)
                }
            } else {
                reader.error("credential.token must name its model", at: token.value)
            }
        } else {
            reader.error("credential must declare token: { model, accessToken, refreshToken, expiresIn }", at: node)
        }
        var header = "Authorization"
        var format = TemplateIR.interpolation([.text("Bearer "), .variable(["accessToken"])])
        if let apply = entries["apply"], let applyEntries = reader.mapping(apply.value, "credential.apply", allowed: ["header", "format"]) {
            if let entry = applyEntries["header"], let text = reader.string(entry.value, "header") { header = text }
            if let entry = applyEntries["format"], let template = reader.template(entry.value, "format") {
                format = template
                checkVariables(template, allowed: ["accessToken"], at: entry.value, reader: &reader)
                if !TemplateIR.variables(of: template).contains(["accessToken"]) {
                    reader.error("the credential format must hold {accessToken}", at: entry.value)
                }
            }
        }
        var refresh: RefreshIR?
        if let entry = entries["refresh"] {
            refresh = translateRefresh(entry.value, reader: &reader)
        }
        var rejection = RejectionIR(status: 401, wwwAuthenticateError: nil, bodyCode: nil)
        if let entry = entries["rejected"], let items = reader.mapping(entry.value, "credential.rejected", allowed: ["status", "wwwAuthenticate", "body"]) {
            if let status = items["status"], let value = reader.int(status.value, "status") {
                if (400...499).contains(value) { rejection.status = value } else {
                    reader.error("the rejection status must be a client error (400–499), found \(value)", at: status.value)
                }
            }
            if let www = items["wwwAuthenticate"], let wwwEntries = reader.mapping(www.value, "wwwAuthenticate", allowed: ["error"]),
               let error = wwwEntries["error"] {
                rejection.wwwAuthenticateError = reader.string(error.value, "error")
            }
            if let body = items["body"], let bodyEntries = reader.mapping(body.value, "body", allowed: ["code"]), let code = bodyEntries["code"] {
                rejection.bodyCode = reader.string(code.value, "code")
            }
            if rejection.wwwAuthenticateError == nil && rejection.bodyCode == nil {
                reader.error("credential.rejected must say how to recognise the auth server's rejection: wwwAuthenticate.error, body.code or both; a bare status would refresh on any 401", at: entry.value)
            }
        } else {
            reader.error("credential must declare rejected: { status, wwwAuthenticate: { error } } so that only the auth server's own rejection triggers a refresh", at: node)
        }
        var details = ""
        var userID = ""
        if let entry = entries["details"], let name = reader.string(entry.value, "details") {
            if let operation = operations.first(where: { $0.name == name }) {
                details = name
                if let idEntry = entries["userID"], let field = reader.string(idEntry.value, "userID") {
                    userID = field
                    if case .model(let swiftName)? = operation.response,
                       let declaration = models.namesBySwiftName[swiftName].flatMap({ models.declarations[$0] }),
                       !objectFields(declaration.name).contains(field) {
                        reader.error("the details model '\(declaration.name)' has no property '\(field)'", at: idEntry.value)
                    }
                } else {
                    reader.error("credential must name the details' user id property (userID: uid)", at: entry.keyNode)
                }
                // `.any` is what an unknown model resolves to: that error is reported already.
                switch operation.response {
                case .model?, .any?: break
                default: reader.error("the details operation '\(name)' must return a model", at: entry.value)
                }
            } else if !declaredOperations.contains(name) {
                reader.error("unknown operation '\(name)'", at: entry.value)
            }
        } else {
            reader.error("credential must name the operation that returns the user's details (details: me)", at: node)
        }
        return CredentialIR(tokenModel: tokenModel, accessTokenField: accessToken, refreshTokenField: refreshToken, expiresInField: expiresIn,
                            header: header, format: format, refresh: refresh, rejection: rejection, detailsOperation: details,
                            userIDField: userID, location: reader.location(of: node))
    }

    private mutating func translateRefresh(_ node: Node, reader: inout NodeReader) -> RefreshIR? {
        guard let entries = reader.mapping(node, "credential.refresh",
                                           allowed: ["request", "encoding", "clientAuthentication", "fields", "leeway", "window"]) else { return nil }
        guard let requestEntry = entries["request"], let request = reader.requestLine(requestEntry.value, "the refresh request") else {
            if entries["request"] == nil { reader.error("credential.refresh needs a request", at: node) }
            return nil
        }
        let fields = entries["fields"].map { reader.templateFields($0.value, "the refresh fields") } ?? []
        for field in fields {
            checkVariables(field.value, allowed: ["refreshToken", "accessToken"], at: field.location, reader: &reader)
        }
        let leeway = entries["leeway"].flatMap { reader.duration($0.value, "leeway") } ?? DurationIR(milliseconds: 60_000)
        var maxRefreshes = 5
        var window = DurationIR(milliseconds: 30_000)
        if let entry = entries["window"], let items = reader.mapping(entry.value, "window", allowed: ["maxRefreshes", "per"]) {
            if let max = items["maxRefreshes"], let value = reader.int(max.value, "maxRefreshes") {
                if value < 1 { reader.error("maxRefreshes must be at least 1", at: max.value) } else { maxRefreshes = value }
            }
            if let per = items["per"], let value = reader.duration(per.value, "per") { window = value }
        }
        return RefreshIR(request: request, encoding: reader.encoding(entries["encoding"], "the refresh request"),
                         clientAuthentication: reader.clientAuthentication(entries["clientAuthentication"]),
                         fields: fields, leeway: leeway, maxRefreshes: maxRefreshes, window: window)
    }

    private mutating func objectFields(_ model: String) -> Set<String> {
        models.propertyNames(of: model)
    }

    private func checkVariables(_ template: TemplateIR, allowed: Set<String>, at node: Node, reader: inout NodeReader) {
        checkVariables(template, allowed: allowed, at: reader.location(of: node), reader: &reader)
    }

    private func checkVariables(_ template: TemplateIR, allowed: Set<String>, at location: SourceLocation, reader: inout NodeReader) {
        for path in TemplateIR.variables(of: template) where path.count != 1 || !allowed.contains(path[0]) {
            reader.append(.error("unknown placeholder '{\(path.joined(separator: "."))}'; here you may use \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", "))", at: location))
        }
    }

    // MARK: errors.yaml

    private mutating func translateErrors(_ file: ParsedFile?) -> ErrorsIR {
        var result = ErrorsIR(codeField: "error", messageField: "error_description", errors: [])
        guard let file, let root = file.root else { return result }
        var reader = NodeReader(file: file.source.path)
        defer { diagnostics += reader.diagnostics }
        guard let entries = reader.mapping(root, "errors.yaml", allowed: ["envelope", "errors"]) else { return result }
        if let envelope = entries["envelope"], let items = reader.mapping(envelope.value, "envelope", allowed: ["code", "message"]) {
            if let code = items["code"], let field = reader.string(code.value, "code") { result.codeField = field }
            result.messageField = items["message"].flatMap { reader.string($0.value, "message") }
        }
        var swiftNames: [String: String] = [:]
        for entry in entries["errors"].flatMap({ reader.mapping($0.value, "errors") }) ?? [] {
            guard let items = reader.mapping(entry.value, "error '\(entry.key)'", allowed: ["status", "category", "description"]) else { continue }
            var status = 400
            if let value = items["status"].flatMap({ reader.int($0.value, "status") }) {
                if (400...599).contains(value) { status = value } else { reader.error("status must be an HTTP error status (400–599)", at: items["status"]!.value) }
            } else if items["status"] == nil {
                reader.error("error '\(entry.key)' needs a status", at: entry.keyNode)
            }
            var category = ErrorCategoryIR.client
            if let categoryEntry = items["category"], let text = reader.string(categoryEntry.value, "category") {
                if let value = ErrorCategoryIR(rawValue: text) { category = value } else {
                    reader.error("category must be one of \(ErrorCategoryIR.allCases.map(\.rawValue).joined(separator: ", ")), found '\(text)'", at: categoryEntry.value)
                }
            } else if items["category"] == nil {
                reader.error("error '\(entry.key)' needs a category", at: entry.keyNode)
            }
            var swiftName = SwiftName.lowerCamel(entry.key)
            if SwiftName.reservedErrorCases.contains(swiftName) { swiftName += "Error" }
            if let previous = swiftNames[swiftName] {
                reader.error("error codes '\(previous)' and '\(entry.key)' would both be the Swift case \(swiftName)", at: entry.keyNode)
                continue
            }
            swiftNames[swiftName] = entry.key
            result.errors.append(ErrorIR(code: entry.key, swiftName: swiftName, status: status, category: category,
                                         description: items["description"].flatMap { reader.string($0.value, "description") },
                                         location: reader.location(of: entry.keyNode)))
        }
        return result
    }

    // MARK: events.yaml

    private mutating func translateEvents(_ file: ParsedFile?, auth: inout AuthTranslator) -> EventsIR {
        var result = EventsIR(stream: nil, events: [])
        guard let file, let root = file.root else { return result }
        var reader = NodeReader(file: file.source.path)
        defer { diagnostics += reader.diagnostics }
        guard let entries = reader.mapping(root, "events.yaml", allowed: ["stream", "events"]) else { return result }
        if let stream = entries["stream"] { result.stream = reader.requestLine(stream.value, "the event stream") }
        var wireNames: [String: Node] = [:]
        var swiftNames = SwiftName.reservedEventCases
        for entry in entries["events"].flatMap({ reader.mapping($0.value, "events") }) ?? [] {
            guard reader.identifier(entry, "event") else { continue }
            guard let items = reader.mapping(entry.value, "event '\(entry.key)'", allowed: ["description", "wireName", "payload", "effect"]) else { continue }
            let wireName = items["wireName"].flatMap { reader.string($0.value, "wireName") } ?? entry.key
            if let previous = wireNames[wireName] {
                reader.error("wire name '\(wireName)' is already used by the event at line \(reader.location(of: previous).line)", at: items["wireName"]?.value ?? entry.keyNode)
                continue
            }
            wireNames[wireName] = items["wireName"]?.value ?? entry.keyNode
            var swiftName = SwiftName.lowerCamel(entry.key)
            if swiftNames.contains(swiftName) { swiftName += "Event" }
            while !swiftNames.insert(swiftName).inserted { swiftName += "_" }
            var payload: TypeIR?
            if let payloadEntry = items["payload"] {
                payload = auth.hoistedType(payloadEntry.value, name: SwiftName.upperCamel(entry.key) + "Payload", reader: &reader)
            }
            var effect: EventEffectIR?
            if let effectEntry = items["effect"], let text = reader.string(effectEntry.value, "effect") {
                effect = EventEffectIR(rawValue: text)
                if effect == nil { reader.error("effect must be 'invalidate', found '\(text)'", at: effectEntry.value) }
            }
            result.events.append(EventIR(name: entry.key, swiftName: swiftName, wireName: wireName,
                                         description: items["description"].flatMap { reader.string($0.value, "description") },
                                         payload: payload, effect: effect, location: reader.location(of: entry.keyNode)))
        }
        return result
    }
}

extension TemplateIR {
    static func variables(of template: TemplateIR) -> [[String]] {
        switch template {
        case .literal: return []
        case .variable(let path): return [path]
        case .interpolation(let parts):
            return parts.compactMap { if case .variable(let path) = $0 { return path } else { return nil } }
        }
    }
}

import Foundation
