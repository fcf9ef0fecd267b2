/// Renders the operations as methods on every `OperationPerformer` of this schema (the
/// authentication service, or a test double).
@_spi(Generated) import SesameDescription

struct OperationRenderer {
    let sdk: SDKIR
    let types: TypeRendering

    func render() -> String {
        var writer = SwiftRenderer.fileWriter(imports: ["Foundation", "Sesame"])
        writer.block("extension OperationPerformer where Schema == \(sdk.typeNames.schema)") { body in
            for (index, operation) in sdk.operations.enumerated() {
                if index > 0 { body.line() }
                renderOperation(operation, into: &body)
            }
        }
        return writer.text
    }

    private func isOptional(_ parameter: ParameterIR) -> Bool { !parameter.required && parameter.defaultValue == nil }

    private func renderOperation(_ operation: OperationIR, into writer: inout CodeWriter) {
        writer.doc(operation.description ?? "`\(operation.request.value.method.rawValue) \(operation.request.value.path)`.")
        if operation.deprecated { writer.line("/// - Note: Deprecated by the schema.") }
        let documented = operation.parameters.filter { $0.description != nil }
        // The body argument's name, `body` unless a parameter has it (`PUT /a/{body}` with a body).
        var bodyName = "body"
        while operation.parameters.contains(where: { $0.swiftName == bodyName }) { bodyName += "_" }
        if !documented.isEmpty || operation.body != nil {
            writer.line("/// - Parameters:")
            if operation.body != nil { writer.line("///   - \(bodyName): The request body.") }
            for parameter in documented {
                writer.line("///   - \(parameter.swiftName): \(SwiftName.commentSafe(parameter.description!))")
            }
        }
        writer.line("/// - Throws: `\(sdk.typeNames.error)` when the back-end answers with an error, `SesameError` for any other failure")
        writer.line("///   (no connection, a response that does not decode, a sign-in too old), `SchemaViolation` when an")
        writer.line("///   argument breaks its schema. The authentication state is unchanged by a failure.")
        if let userInfo = sdk.openID?.value.userInfo, userInfo == operation.request.value {
            writer.line("///   `UserInfoRejection` when the response's `sub` is not the session's ID token's (the schema's")
            writer.line("///   `openID.userInfo`, OpenID Connect Core §5.3.2): nothing is returned.")
        }
        var parameters: [String] = []
        if let body = operation.body { parameters.append("_ \(bodyName): \(types.swift(body))") }
        for parameter in operation.parameters {
            var text = "\(SwiftName.escaped(parameter.swiftName)): \(types.swift(parameter.type))"
            if isOptional(parameter) { text += "? = nil" }
            if let value = parameter.defaultValue, let literal = types.literal(value, parameter.type) { text += " = \(literal)" }
            parameters.append(text)
        }
        let result = operation.response.map { " -> \(types.swift($0))" } ?? ""
        let discardable = operation.response != nil && operation.request.value.method != .get ? "@discardableResult\n" : ""
        if !discardable.isEmpty { writer.line("@discardableResult") }
        writer.block("public func \(SwiftName.escaped(operation.swiftName))(\(parameters.joined(separator: ", "))) async throws\(result)") {
            body in
            for parameter in operation.parameters where types.hasChecks(parameter.type, parameter.constraints) {
                let path = "[AnyCodingKey(\(SwiftName.stringLiteral(parameter.name)))]"
                if isOptional(parameter) {
                    body.block("if let value = \(SwiftName.escaped(parameter.swiftName))") { inner in
                        types.checks("value", parameter.type, parameter.constraints, path: path, into: &inner)
                    }
                } else {
                    types.checks(SwiftName.escaped(parameter.swiftName), parameter.type, parameter.constraints, path: path, into: &body)
                }
            }
            var arguments = ["\(sdk.typeNames.schema).Requests.\(SwiftName.escaped(operation.swiftName))"]
            let path = operation.parameters.filter { $0.location == .path }
            if !path.isEmpty {
                arguments.append(
                    "pathParameters: ["
                        + path.map { "\(SwiftName.stringLiteral($0.name)): \(types.text(SwiftName.escaped($0.swiftName), $0.type))" }
                        .joined(separator: ", ") + "]")
            }
            let query = operation.parameters.filter { $0.location == .query }
            if !query.isEmpty {
                arguments.append(
                    "query: ["
                        + query.map { parameter in
                            let name = SwiftName.escaped(parameter.swiftName)
                            let value =
                                isOptional(parameter)
                                ? "\(name).map { \(types.text("$0", parameter.type)) }" : types.text(name, parameter.type)
                            return "(\(SwiftName.stringLiteral(parameter.name)), \(value))"
                        }.joined(separator: ", ") + "]")
            }
            if let bodyType = operation.body {
                // Model bodies are checked against their schema before anything is sent.
                let checked: Bool
                if case .model = bodyType { checked = true } else { checked = false }
                let encoder =
                    operation.request.value.encoding == .form ? (checked ? "checkedForm" : "form") : (checked ? "checkedJSON" : "json")
                arguments.append("body: try RequestBody.\(encoder)(\(types.toWire(bodyName, bodyType)))")
            }
            body.line("let request = OperationRequest(\(arguments.joined(separator: ", ")))")
            if let response = operation.response {
                if let wire = types.wire(response) {
                    body.line("let wire = try await perform(request).decode(\(wire).self)")
                    body.line("return \(types.fromWire("wire", response))")
                } else {
                    body.line("return try await perform(request).decode(\(types.swift(response)).self)")
                }
            } else {
                body.line("_ = try await perform(request)")
            }
        }
    }
}
