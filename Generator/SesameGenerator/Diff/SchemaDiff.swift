/// Compares two validated schemas and reports every change that matters to apps built
/// against the old one: source breaks (app code stops compiling), wire breaks (shipped
/// apps stop understanding the back-end) and compatible additions.
@_spi(Generated) import SesameDescription

public enum SchemaDiff {
    public static func compare(old: SDKIR, new: SDKIR) -> [SchemaChange] {
        var differ = Differ(old: old, new: new)
        differ.run()
        return differ.changes.sorted { lhs, rhs in
            switch (lhs.location, rhs.location) {
            case (let l?, let r?) where l != r: return l < r
            case (nil, _?): return true
            case (_?, nil): return false
            default: return (lhs.kind, lhs.message) < (rhs.kind, rhs.message)
            }
        }
    }
}

private struct Differ {
    let old: SDKIR
    let new: SDKIR
    var changes: [SchemaChange] = []
    /// Models (qualified Swift names) that travel in responses, in requests.
    let responseModels: Set<String>
    let requestModels: Set<String>
    let oldModels: [String: ModelIR]
    let newModels: [String: ModelIR]

    init(old: SDKIR, new: SDKIR) {
        self.old = old
        self.new = new
        oldModels = Differ.table(old.models)
        newModels = Differ.table(new.models)
        let (responses, requests) = Differ.usage(of: old, models: oldModels)
        responseModels = responses
        requestModels = requests
    }

    mutating func add(_ kind: String, _ grade: SchemaChange.Grade, _ message: String, at location: SourceLocation?) {
        changes.append(SchemaChange(kind: kind, grade: grade, message: message, location: location))
    }

    mutating func run() {
        compareSDK()
        compareMethods()
        compareOperations()
        compareModels()
        compareErrors()
        compareEvents()
        compareStores()
    }

    // MARK: Stores

    /// A store version that shipped is frozen: a database at that version exists on
    /// devices, and the migrations from it were written for its exact schema.
    mutating func compareStores() {
        let newSections = Dictionary(uniqueKeysWithValues: (new.store?.sections ?? []).map { ($0.kind, $0) })
        for section in old.store?.sections ?? [] {
            let kind = section.kind.rawValue
            guard let updated = newSections[section.kind] else {
                add(
                    "store.section-removed", section.kind == .persistence ? .breaking : .warning,
                    "the \(kind) store was removed; databases on devices keep its data", at: section.location)
                continue
            }
            let newVersions = Dictionary(uniqueKeysWithValues: updated.versions.map { ($0.number, $0) })
            for version in section.versions {
                guard let changed = newVersions[version.number] else {
                    add(
                        "store.version-removed", .breaking,
                        "\(kind) v\(version.number) was removed; a database on a device may be at that version", at: version.location)
                    continue
                }
                if StoreSnapshots.json(of: version) != StoreSnapshots.json(of: changed) {
                    add(
                        "store.version-changed", section.kind == .persistence || section.policy == .migrate ? .breaking : .warning,
                        "\(kind) v\(version.number) changed after release; declare v\((updated.versions.last?.number ?? version.number) + 1) instead",
                        at: changed.location)
                }
            }
            let oldNumbers = Set(section.versions.map(\.number))
            for version in updated.versions where !oldNumbers.contains(version.number) {
                add("store.version-added", .compatible, "\(kind) v\(version.number) was added with its migration", at: version.location)
            }
        }
        let oldKinds = Set((old.store?.sections ?? []).map(\.kind))
        for section in new.store?.sections ?? [] where !oldKinds.contains(section.kind) {
            add("store.section-added", .compatible, "the \(section.kind.rawValue) store was added", at: section.location)
        }
    }

    // MARK: SDK and credential

    mutating func compareSDK() {
        if old.name != new.name {
            add("sdk.renamed", .breaking, "the SDK module was renamed from \(old.name) to \(new.name)", at: new.credential.location)
        }
        if old.baseURL != new.baseURL {
            add(
                "server.base-url-changed", .warning,
                "the base URL changed from \(old.baseURL) to \(new.baseURL); shipped apps still call the old one",
                at: new.credential.location)
        }
        if old.authorizationServerURL != new.authorizationServerURL {
            let before = old.authorizationServerURL ?? "the API's (\(old.baseURL))"
            let after = new.authorizationServerURL ?? "the API's (\(new.baseURL))"
            add(
                "server.authorization-url-changed", .warning,
                "the authorization server moved from \(before) to \(after); shipped apps still send their token requests to the old one",
                at: new.credential.location)
        }
        if old.authorizationIssuer != new.authorizationIssuer {
            let before = old.authorizationIssuer.map { "'\($0.issuer)'\($0.sentInResponses ? " (sent in responses)" : "")" } ?? "none"
            let after = new.authorizationIssuer.map { "'\($0.issuer)'\($0.sentInResponses ? " (sent in responses)" : "")" } ?? "none"
            add(
                "server.issuer-changed", .warning,
                "the authorization server's issuer changed from \(before) to \(after); shipped apps still check browser sign-ins against the old one",
                at: new.credential.location)
        }
        compareLifecycle()
        let o = old.credential
        let n = new.credential
        let oldRefresh = o.refresh?.value
        let newRefresh = n.refresh?.value
        if let before = oldRefresh?.request.server, let after = newRefresh?.request.server,
            old.baseURL(of: before) != new.baseURL(of: after)
        {
            add(
                "credential.refresh-server-changed", .warning,
                "the refresh request moved to another server; shipped apps still refresh at \(old.baseURL(of: before))",
                at: n.refresh?.requestLocation ?? n.location)
        }
        let rules: [(String, Bool, String)] = [
            (
                "credential.header-changed", o.header != n.header || o.format != n.format,
                "the credential is applied differently (header or format)"
            ),
            (
                "credential.token-fields-changed",
                o.accessTokenField != n.accessTokenField || o.refreshTokenField != n.refreshTokenField
                    || o.expiresInField != n.expiresInField,
                "the token response's fields changed"
            ),
            ("credential.rejection-changed", o.rejection != n.rejection, "the auth server's rejection is recognised differently"),
            (
                "credential.refresh-request-changed",
                oldRefresh?.request.method != newRefresh?.request.method || oldRefresh?.request.path != newRefresh?.request.path
                    || oldRefresh?.request.encoding != newRefresh?.request.encoding
                    || oldRefresh?.request.clientAuthentication != newRefresh?.request.clientAuthentication
                    || oldRefresh?.fields != newRefresh?.fields,
                "the refresh request changed (method, path, encoding, client authentication or fields)"
            ),
        ]
        for (kind, changed, message) in rules where changed {
            add(kind, .breaking, "\(message): shipped apps still use the old rule", at: n.location)
        }
        if let oldRefresh, let newRefresh,
            oldRefresh.leeway != newRefresh.leeway || oldRefresh.maxRefreshes != newRefresh.maxRefreshes
                || oldRefresh.window != newRefresh.window
        {
            add("credential.refresh-limits-changed", .warning, "the refresh leeway or window changed", at: n.location)
        }
    }

    /// `lifecycle.revoke`: adding it is compatible (new apps also revoke at sign-out);
    /// removing or changing it is worth a look, since shipped apps keep sending the old one.
    mutating func compareLifecycle() {
        let before = old.lifecycle.revocation
        let after = new.lifecycle.revocation
        switch (before, after) {
        case (nil, let added?):
            add("lifecycle.revocation-added", .compatible, "sign-out now revokes the token (lifecycle.revoke)", at: added.location)
        case (let removed?, nil):
            add(
                "lifecycle.revocation-removed", .warning, "lifecycle.revoke was removed; shipped apps still send it at sign-out",
                at: removed.location)
        case (let removed?, let added?)
        where removed.value.request.method != added.value.request.method || removed.value.request.path != added.value.request.path
            || old.baseURL(of: removed.value.request.server) != new.baseURL(of: added.value.request.server)
            || removed.value.request.encoding != added.value.request.encoding
            || removed.value.request.clientAuthentication != added.value.request.clientAuthentication
            || removed.value.fields != added.value.fields:
            add(
                "lifecycle.revocation-changed", .warning,
                "the revocation request changed; shipped apps still send the old one at sign-out", at: added.location)
        default:
            break
        }
    }

    // MARK: Methods

    mutating func compareMethods() {
        let newByName = Dictionary(uniqueKeysWithValues: new.methods.map { ($0.name, $0) })
        for method in old.methods {
            guard let updated = newByName[method.name] else {
                add("method.removed", .breaking, "authentication method '\(method.name)' was removed", at: method.location)
                continue
            }
            if method.isMultiStep != updated.isMultiStep {
                add(
                    "method.kind-changed", .breaking, "method '\(method.name)' changed between single-step and multi-step",
                    at: updated.location)
            }
            compareParameters(method.parameters, updated.parameters, owner: "method '\(method.name)'", fallback: updated.location)
            for (index, step) in method.steps.enumerated() where index < updated.steps.count {
                let newStep = updated.steps[index]
                if step.name != newStep.name {
                    add(
                        "step.renamed", .breaking,
                        "step \(index + 1) of '\(method.name)' was renamed from '\(step.name)' to '\(newStep.name)'", at: newStep.location)
                }
                if step.request.method != newStep.request.method || step.request.path != newStep.request.path
                    || step.encoding != newStep.encoding || step.clientAuthentication != newStep.clientAuthentication
                {
                    add(
                        "step.request-changed", .breaking,
                        "step '\(newStep.name)' of '\(method.name)' changed its request, encoding or client authentication",
                        at: newStep.request.location)
                }
                if step.browser?.request.path != newStep.browser?.request.path
                    || step.browser?.redirectURI != newStep.browser?.redirectURI
                {
                    add(
                        "step.browser-changed", .breaking,
                        "step '\(newStep.name)' of '\(method.name)' changed its browser part (added, removed, another authorization endpoint or redirect URI)",
                        at: newStep.browser?.location ?? newStep.location)
                }
                if step.device?.request.path != newStep.device?.request.path {
                    add(
                        "step.device-changed", .breaking,
                        "step '\(newStep.name)' of '\(method.name)' changed its device part (added, removed, or another device authorization endpoint)",
                        at: newStep.device?.location ?? newStep.location)
                }
                if old.baseURL(of: step.request.server) != new.baseURL(of: newStep.request.server) {
                    add(
                        "step.server-changed", .warning,
                        "step '\(newStep.name)' of '\(method.name)' now goes to \(new.baseURL(of: newStep.request.server)); shipped apps still send it to \(old.baseURL(of: step.request.server))",
                        at: newStep.request.location)
                }
                compareParameters(
                    step.needs, newStep.needs, owner: "step '\(newStep.name)' of '\(method.name)'", fallback: newStep.location)
            }
            if method.steps.count != updated.steps.count {
                add(
                    "method.steps-changed", .breaking,
                    "method '\(method.name)' now has \(updated.steps.count) steps instead of \(method.steps.count)", at: updated.location)
            }
        }
        let oldNames = Set(old.methods.map(\.name))
        for method in new.methods where !oldNames.contains(method.name) {
            add("method.added", .compatible, "authentication method '\(method.name)' was added", at: method.location)
        }
    }

    // MARK: Operations

    mutating func compareOperations() {
        let newByName = Dictionary(uniqueKeysWithValues: new.operations.map { ($0.name, $0) })
        for operation in old.operations {
            guard let updated = newByName[operation.name] else {
                add("operation.removed", .breaking, "operation '\(operation.name)' was removed", at: operation.location)
                continue
            }
            if operation.request.method != updated.request.method || operation.request.path != updated.request.path {
                add(
                    "operation.request-changed", .breaking,
                    "operation '\(operation.name)' moved from \(operation.request.method.rawValue) \(operation.request.path) to \(updated.request.method.rawValue) \(updated.request.path); shipped apps call the old one",
                    at: updated.request.location)
            }
            if old.baseURL(of: operation.request.server) != new.baseURL(of: updated.request.server) {
                add(
                    "operation.server-changed", .warning,
                    "operation '\(operation.name)' now goes to \(new.baseURL(of: updated.request.server)); shipped apps still call \(old.baseURL(of: operation.request.server))",
                    at: updated.request.location)
            }
            if operation.encoding != updated.encoding {
                add(
                    "operation.encoding-changed", .breaking, "operation '\(operation.name)' changed its body encoding", at: updated.location
                )
            }
            if operation.authenticated != updated.authenticated {
                add(
                    "operation.authentication-changed", updated.authenticated ? .breaking : .compatible,
                    "operation '\(operation.name)' \(updated.authenticated ? "now needs" : "no longer needs") a signed-in user",
                    at: updated.location)
            }
            if operation.freshAuthentication != updated.freshAuthentication {
                add(
                    "operation.fresh-authentication-changed", .warning,
                    "operation '\(operation.name)' changed its fresh-authentication window", at: updated.location)
            }
            if operation.body != updated.body {
                add("operation.body-changed", .breaking, "operation '\(operation.name)' changed its body type", at: updated.location)
            }
            if operation.response != updated.response {
                add(
                    "operation.response-changed", .breaking, "operation '\(operation.name)' changed its response type", at: updated.location
                )
            }
            compareParameters(operation.parameters, updated.parameters, owner: "operation '\(operation.name)'", fallback: updated.location)
        }
        let oldNames = Set(old.operations.map(\.name))
        for operation in new.operations where !oldNames.contains(operation.name) {
            add("operation.added", .compatible, "operation '\(operation.name)' was added", at: operation.location)
        }
    }

    mutating func compareParameters(_ before: [ParameterIR], _ after: [ParameterIR], owner: String, fallback: SourceLocation) {
        let afterByName = Dictionary(uniqueKeysWithValues: after.map { ($0.name, $0) })
        for parameter in before {
            guard let updated = afterByName[parameter.name] else {
                add("parameter.removed", .breaking, "parameter '\(parameter.name)' of \(owner) was removed", at: fallback)
                continue
            }
            if parameter.type != updated.type {
                add(
                    "parameter.type-changed", .breaking, "parameter '\(parameter.name)' of \(owner) changed type",
                    at: updated.sourceLocation)
            }
            if !parameter.required && updated.required {
                add(
                    "parameter.now-required", .breaking, "parameter '\(parameter.name)' of \(owner) became required",
                    at: updated.sourceLocation)
            }
            if parameter.location != updated.location {
                add(
                    "parameter.moved", .breaking,
                    "parameter '\(parameter.name)' of \(owner) moved from \(parameter.location.rawValue) to \(updated.location.rawValue)",
                    at: updated.sourceLocation)
            }
            if parameter.constraints != updated.constraints {
                add(
                    "parameter.constraints-changed", .warning, "parameter '\(parameter.name)' of \(owner) changed its constraints",
                    at: updated.sourceLocation)
            }
        }
        let names = Set(before.map(\.name))
        for parameter in after where !names.contains(parameter.name) {
            if parameter.required {
                add(
                    "parameter.added-required", .breaking, "\(owner) has a new required parameter '\(parameter.name)'",
                    at: parameter.sourceLocation)
            } else {
                add(
                    "parameter.added", .compatible, "\(owner) has a new optional parameter '\(parameter.name)'",
                    at: parameter.sourceLocation)
            }
        }
    }

    // MARK: Models

    static func table(_ models: [ModelIR]) -> [String: ModelIR] {
        var table: [String: ModelIR] = [:]
        func add(_ model: ModelIR, prefix: String) {
            let path = prefix.isEmpty ? model.swiftName : "\(prefix).\(model.swiftName)"
            table[path] = model
            for inner in model.nested { add(inner, prefix: path) }
        }
        for model in models { add(model, prefix: "") }
        return table
    }

    /// The models reachable from responses (operation and step responses, event payloads)
    /// and from requests (bodies and parameters).
    static func usage(of sdk: SDKIR, models: [String: ModelIR]) -> (responses: Set<String>, requests: Set<String>) {
        func referenced(_ type: TypeIR?) -> [String] {
            switch type {
            case .model(let model)?: return [model.swiftPath]
            case .array(let element)?, .dictionary(let element)?: return referenced(element)
            default: return []
            }
        }
        func close(_ roots: [String]) -> Set<String> {
            var seen: Set<String> = []
            var queue = roots
            while let name = queue.popLast() {
                guard seen.insert(name).inserted, let model = models[name] else { continue }
                switch model.kind {
                case .object(let object):
                    for property in object.properties { queue += referenced(property.type) }
                    if case .kept(let type, _) = object.additionalProperties { queue += referenced(type) }
                case .union(let union): queue += union.variants.map(\.model.swiftPath)
                case .choice(let choice): queue += choice.variants.flatMap { referenced($0.type) }
                case .alias(let type, _): queue += referenced(type)
                case .enumeration: break
                }
                for inner in model.nested { queue.append("\(name).\(inner.swiftName)") }
            }
            return seen
        }
        let stepModels = sdk.methods.flatMap(\.steps).compactMap(\.response?.swiftPath)
        let responseRoots =
            sdk.operations.flatMap { referenced($0.response) } + sdk.events.events.flatMap { referenced($0.payload) } + stepModels
        let requestRoots =
            sdk.operations.flatMap { referenced($0.body) + $0.parameters.flatMap { referenced($0.type) } }
            + sdk.methods.flatMap {
                $0.parameters.flatMap { referenced($0.type) } + $0.steps.flatMap { $0.needs.flatMap { referenced($0.type) } }
            }
        return (close(responseRoots), close(requestRoots))
    }

    mutating func compareModels() {
        for path in oldModels.keys.sorted() {
            let model = oldModels[path]!
            guard let updated = newModels[path] else {
                add("model.removed", .breaking, "model '\(path)' was removed", at: model.location)
                continue
            }
            switch (model.kind, updated.kind) {
            case (.object(let before), .object(let after)):
                compareObject(path, before, after, location: updated.location)
            case (.enumeration(let before), .enumeration(let after)):
                compareEnum(path, before, after, location: updated.location)
            case (.union(let before), .union(let after)):
                let tags = Set(after.variants.map(\.tag))
                for variant in before.variants where !tags.contains(variant.tag) {
                    add("union.variant-removed", .breaking, "variant '\(variant.tag)' of '\(path)' was removed", at: updated.location)
                }
                let oldTags = Set(before.variants.map(\.tag))
                for variant in after.variants where !oldTags.contains(variant.tag) {
                    add(
                        "union.variant-added", .compatible,
                        "variant '\(variant.tag)' of '\(path)' was added; older SDKs decode it as .unknown", at: variant.location)
                }
            case (.choice(let before), .choice(let after)):
                if before.variants.map(\.type) != after.variants.map(\.type) || before.exactlyOne != after.exactlyOne {
                    add("model.type-changed", .breaking, "model '\(path)' changed its schemas", at: updated.location)
                }
            case (.alias(let before, let beforeConstraints), .alias(let after, let afterConstraints)):
                if before != after {
                    add("model.type-changed", .breaking, "model '\(path)' changed type", at: updated.location)
                } else if beforeConstraints != afterConstraints {
                    add("model.constraints-changed", .warning, "model '\(path)' changed its constraints", at: updated.location)
                }
            default:
                add(
                    "model.kind-changed", .breaking, "model '\(path)' changed from \(kindName(model.kind)) to \(kindName(updated.kind))",
                    at: updated.location)
            }
        }
        for path in newModels.keys.sorted() where oldModels[path] == nil {
            add("model.added", .compatible, "model '\(path)' was added", at: newModels[path]!.location)
        }
    }

    func kindName(_ kind: ModelIR.Kind) -> String {
        switch kind {
        case .object: return "an object"
        case .enumeration: return "an enum"
        case .union: return "a oneOf"
        case .choice(let choice): return "an \(choice.keyword == "type" ? "enum of types" : choice.keyword)"
        case .alias: return "a plain type"
        }
    }

    mutating func compareObject(_ path: String, _ before: ObjectIR, _ after: ObjectIR, location: SourceLocation) {
        let inResponses = responseModels.contains(path)
        let inRequests = requestModels.contains(path)
        let afterByName = Dictionary(uniqueKeysWithValues: after.properties.map { ($0.name, $0) })
        for property in before.properties {
            guard let updated = afterByName[property.name] else {
                let wire = inResponses ? "; shipped apps that read it stop decoding" : ""
                add("property.removed", .breaking, "property '\(property.name)' of '\(path)' was removed\(wire)", at: location)
                continue
            }
            if property.type != updated.type {
                add("property.type-changed", .breaking, "property '\(property.name)' of '\(path)' changed type", at: updated.location)
            }
            if property.isOptional && !updated.isOptional {
                let wire = inRequests ? " (shipped apps may not send it)" : ""
                add(
                    "property.now-required", .breaking, "property '\(property.name)' of '\(path)' became required\(wire)",
                    at: updated.location)
            } else if !property.isOptional && updated.isOptional {
                let wire = inResponses ? " (shipped apps fail to decode a response without it)" : ""
                add(
                    "property.now-optional", .breaking, "property '\(property.name)' of '\(path)' became optional\(wire)",
                    at: updated.location)
            }
            if property.constraints != updated.constraints {
                add(
                    "property.constraints-changed", .warning, "property '\(property.name)' of '\(path)' changed its constraints",
                    at: updated.location)
            }
        }
        let names = Set(before.properties.map(\.name))
        for property in after.properties where !names.contains(property.name) {
            if property.isOptional {
                add("property.added", .compatible, "property '\(property.name)' was added to '\(path)'", at: property.location)
            } else {
                let wire = inRequests ? "; shipped apps do not send it" : ""
                add(
                    "property.added-required", .breaking, "required property '\(property.name)' was added to '\(path)'\(wire)",
                    at: property.location)
            }
        }
        if before.additionalProperties != after.additionalProperties {
            add(
                "model.additional-properties-changed", after.additionalProperties == .rejected ? .breaking : .warning,
                "'\(path)' changed what it does with undeclared properties", at: location)
        }
    }

    mutating func compareEnum(_ path: String, _ before: EnumIR, _ after: EnumIR, location: SourceLocation) {
        let values = Set(after.cases.map(\.rawValue))
        for item in before.cases where !values.contains(item.rawValue) {
            add("enum.value-removed", .breaking, "value '\(item.rawValue)' of enum '\(path)' was removed", at: location)
        }
        let oldValues = Set(before.cases.map(\.rawValue))
        for item in after.cases where !oldValues.contains(item.rawValue) {
            // Generated enums keep unknown values, so shipped apps decode the new one.
            add(
                "enum.value-added", .compatible, "value '\(item.rawValue)' was added to enum '\(path)'; older SDKs decode it as .unknown",
                at: item.location)
        }
        if before.rawType != after.rawType {
            add("enum.type-changed", .breaking, "enum '\(path)' changed its raw type", at: location)
        }
    }

    // MARK: Errors and events

    mutating func compareErrors() {
        if old.errors.codeField != new.errors.codeField || old.errors.messageField != new.errors.messageField {
            add(
                "errors.envelope-changed", .breaking, "error bodies keep their code or message elsewhere",
                at: new.errors.errors.first?.location)
        }
        let newByCode = Dictionary(uniqueKeysWithValues: new.errors.errors.map { ($0.code, $0) })
        for error in old.errors.errors {
            guard let updated = newByCode[error.code] else {
                add("error.removed", .breaking, "error code '\(error.code)' was removed", at: error.location)
                continue
            }
            if error.category != updated.category {
                add(
                    "error.category-changed", .warning,
                    "error '\(error.code)' changed category from \(error.category.rawValue) to \(updated.category.rawValue)",
                    at: updated.location)
            }
        }
        let codes = Set(old.errors.errors.map(\.code))
        for error in new.errors.errors where !codes.contains(error.code) {
            add("error.added", .compatible, "error code '\(error.code)' was added; older SDKs report it as .unknown", at: error.location)
        }
    }

    mutating func compareEvents() {
        if old.events.stream?.path != new.events.stream?.path || old.events.stream?.method != new.events.stream?.method {
            add("events.stream-changed", .breaking, "the event stream moved", at: new.events.stream?.location)
        }
        let newByName = Dictionary(uniqueKeysWithValues: new.events.events.map { ($0.name, $0) })
        for event in old.events.events {
            guard let updated = newByName[event.name] else {
                add("event.removed", .breaking, "event '\(event.name)' was removed", at: event.location)
                continue
            }
            if event.wireName != updated.wireName {
                add("event.wire-name-changed", .breaking, "event '\(event.name)' changed its wire name", at: updated.location)
            }
            if event.payload != updated.payload {
                add("event.payload-changed", .breaking, "event '\(event.name)' changed its payload type", at: updated.location)
            }
            if event.effect != updated.effect {
                add("event.effect-changed", .warning, "event '\(event.name)' changed its effect on the session", at: updated.location)
            }
        }
        let names = Set(old.events.events.map(\.name))
        for event in new.events.events where !names.contains(event.name) {
            add("event.added", .compatible, "event '\(event.name)' was added; older SDKs deliver it as .unknown", at: event.location)
        }
    }
}
