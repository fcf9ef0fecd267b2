@_spi(Generated) import SesameDescription

/// Authentication methods and their steps, operations, and their parameters.
extension SchemaDiffer {
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
                let (request, newRequest) = (step.value.request, newStep.value.request)
                if request.method != newRequest.method || request.path != newRequest.path || request.encoding != newRequest.encoding
                    || request.clientAuthentication != newRequest.clientAuthentication
                {
                    add(
                        "step.request-changed", .breaking,
                        "step '\(newStep.name)' of '\(method.name)' changed its request, encoding or client authentication",
                        at: newStep.requestLocation)
                }
                let (browser, newBrowser) = (step.value.browser, newStep.value.browser)
                if browser?.request.path != newBrowser?.request.path || browser?.redirectURI != newBrowser?.redirectURI {
                    add(
                        "step.browser-changed", .breaking,
                        "step '\(newStep.name)' of '\(method.name)' changed its browser part (added, removed, another authorization endpoint or redirect URI)",
                        at: newBrowser == nil ? newStep.location : newStep.kindLocation ?? newStep.location)
                }
                let (device, newDevice) = (step.value.deviceAuthorization, newStep.value.deviceAuthorization)
                let openID: (old: Bool, new: Bool)? =
                    if let browser, let newBrowser { (browser.openID, newBrowser.openID) } else if let device, let newDevice {
                        (device.openID, newDevice.openID)
                    } else { nil }
                if let openID, openID.old != openID.new {
                    add(
                        "step.openid-changed", .warning,
                        "step '\(newStep.name)' of '\(method.name)' \(openID.new ? "became" : "is no longer") an OpenID Connect sign-in; shipped apps still sign in \(openID.old ? "with" : "without") an ID token",
                        at: newStep.openIDLocation ?? newStep.kindLocation ?? newStep.location)
                }
                if step.value.deviceAuthorization?.request.path != newStep.value.deviceAuthorization?.request.path {
                    add(
                        "step.device-changed", .breaking,
                        "step '\(newStep.name)' of '\(method.name)' changed its device part (added, removed, or another device authorization endpoint)",
                        at: newStep.value.deviceAuthorization == nil ? newStep.location : newStep.kindLocation ?? newStep.location)
                }
                if old.baseURL(of: request.server) != new.baseURL(of: newRequest.server) {
                    add(
                        "step.server-changed", .warning,
                        "step '\(newStep.name)' of '\(method.name)' now goes to \(new.baseURL(of: newRequest.server)); shipped apps still send it to \(old.baseURL(of: request.server))",
                        at: newStep.requestLocation)
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
            if operation.request.value.method != updated.request.value.method || operation.request.value.path != updated.request.value.path
            {
                add(
                    "operation.request-changed", .breaking,
                    "operation '\(operation.name)' moved from \(operation.request.value.method.rawValue) \(operation.request.value.path) to \(updated.request.value.method.rawValue) \(updated.request.value.path); shipped apps call the old one",
                    at: updated.request.location)
            }
            if old.baseURL(of: operation.request.value.server) != new.baseURL(of: updated.request.value.server) {
                add(
                    "operation.server-changed", .warning,
                    "operation '\(operation.name)' now goes to \(new.baseURL(of: updated.request.value.server)); shipped apps still call \(old.baseURL(of: operation.request.value.server))",
                    at: updated.request.location)
            }
            if operation.request.value.encoding != updated.request.value.encoding {
                add(
                    "operation.encoding-changed", .breaking, "operation '\(operation.name)' changed its body encoding", at: updated.location
                )
            }
            if operation.request.value.authenticated != updated.request.value.authenticated {
                add(
                    "operation.authentication-changed", updated.request.value.authenticated ? .breaking : .compatible,
                    "operation '\(operation.name)' \(updated.request.value.authenticated ? "now needs" : "no longer needs") a signed-in user",
                    at: updated.location)
            }
            if operation.request.value.freshAuthentication != updated.request.value.freshAuthentication {
                add(
                    "operation.fresh-authentication-changed", .warning,
                    "operation '\(operation.name)' changed its fresh-authentication window", at: updated.location)
            }
            if !sameType(operation.body, updated.body) {
                add("operation.body-changed", .breaking, "operation '\(operation.name)' changed its body type", at: updated.location)
            }
            if !sameType(operation.response, updated.response) {
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
            if !sameType(parameter.type, updated.type) {
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
}
