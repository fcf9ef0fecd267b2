/// Renders `<SDK>Schema`: the `SDKSchema` conformance with the description the runtime
/// reads, and the request and method descriptions.
struct SchemaRenderer {
    let sdk: SDKIR
    let types: TypeRendering

    func render() -> String {
        var writer = SwiftRenderer.fileWriter(imports: ["Foundation", "Sesame"])
        writer.doc(sdk.description ?? "The \(sdk.name) back-end.")
        writer.doc("\nEverything the Sesame runtime needs to know about the back-end, as its schema declares it.")
        let detailsType = sdk.credential.detailsOperation.flatMap(sdk.operation)?.response.map(types.swift) ?? "JSONValue"
        writer.block("public enum \(sdk.typeNames.schema): SDKSchema") { body in
            body.line("public typealias Details = \(detailsType)")
            body.line("public typealias ServerError = \(sdk.typeNames.error)")
            body.line("public typealias Event = \(sdk.typeNames.event)")
            body.line()
            body.line("public static let description = SDKDescription(")
            body.indented { arguments in
                arguments.line("name: \(SwiftName.stringLiteral(sdk.name)),")
                arguments.line("baseURL: URL(string: \(SwiftName.stringLiteral(sdk.baseURL)))!,")
                if let authorization = sdk.authorizationServerURL {
                    arguments.line("authorizationBaseURL: URL(string: \(SwiftName.stringLiteral(authorization)))!,")
                }
                renderCredential(into: &arguments)
                arguments.line("errors: ErrorCatalogue(")
                arguments.indented { errors in
                    errors.line("codeField: \(SwiftName.stringLiteral(sdk.errors.codeField)),")
                    errors.line("messageField: \(sdk.errors.messageField.map(SwiftName.stringLiteral) ?? "nil"),")
                    errors.line("codes: \(sdk.typeNames.error).categories")
                }
                arguments.line("),")
                let stream =
                    sdk.events.stream.map {
                        DescriptionLiteral.request(
                            name: "events", line: $0, authenticated: true, encoding: .json, clientAuthentication: .none, fresh: nil)
                    } ?? "nil"
                let invalidating = sdk.events.events.filter { $0.effect == .invalidate }.map { SwiftName.stringLiteral($0.wireName) }
                    .sorted()
                arguments.line("events: EventCatalogue(stream: \(stream), invalidating: [\(invalidating.joined(separator: ", "))]),")
                let lifecycle =
                    [
                        ("signOut", sdk.lifecycle.signOut), ("detachIdentity", sdk.lifecycle.detachIdentity),
                        ("destroyAccount", sdk.lifecycle.destroyAccount),
                    ]
                    .compactMap { label, operation in operation.map { "\(label): Requests.\(SwiftName.escaped($0.swiftName))" } }
                    + (sdk.lifecycle.revocation.map { ["revocation: \(revocation($0))"] } ?? [])
                arguments.line("lifecycle: LifecycleDescription(\(lifecycle.joined(separator: ", ")))")
            }
            body.line(")")
            body.line()
            body.block("public static func userID(of details: Details) -> String") { function in
                if sdk.credential.userIDField.isEmpty {
                    function.line("\"\"")
                } else if let property = userIDProperty(), case .string(nil) = property.type {
                    function.line("details.\(SwiftName.escaped(property.swiftName))")
                } else if let property = userIDProperty() {
                    function.line("String(describing: details.\(SwiftName.escaped(property.swiftName)))")
                } else {
                    function.line("\"\"")
                }
            }
            body.line()
            body.block("public static func serverError(_ response: ServerErrorResponse) -> \(sdk.typeNames.error)") { function in
                function.line("\(sdk.typeNames.error)(response)")
            }
            body.line()
            body.doc("The requests of the schema's operations.")
            body.block("public enum Requests") { requests in
                for operation in sdk.operations {
                    requests.line(
                        "public static let \(SwiftName.escaped(operation.swiftName)) = \(DescriptionLiteral.request(name: operation.name, line: operation.request, authenticated: operation.authenticated, encoding: operation.encoding, clientAuthentication: .none, fresh: operation.freshAuthentication))"
                    )
                }
            }
            body.line()
            body.doc("The schema's authentication methods and their steps.")
            body.block("public enum Methods") { methods in
                for method in sdk.methods {
                    methods.line(
                        "public static let \(SwiftName.escaped(method.swiftName)) = AuthenticationMethodDescription(name: \(SwiftName.stringLiteral(method.name)), steps: ["
                    )
                    methods.indented { steps in
                        for step in method.steps {
                            let request = DescriptionLiteral.request(
                                name: "\(method.name).\(step.name)", line: step.request, authenticated: false,
                                encoding: step.encoding, clientAuthentication: step.clientAuthentication, fresh: nil)
                            let needs = step.needs.map { SwiftName.stringLiteral($0.name) }.joined(separator: ", ")
                            let browser =
                                step.browser.map { ", browser: \(self.browser($0, name: "\(method.name).\(step.name).authorize"))" } ?? ""
                            steps.line(
                                "AuthenticationStepDescription(name: \(SwiftName.stringLiteral(step.name)), request: \(request), body: \(DescriptionLiteral.fields(step.body, types: types)), needs: [\(needs)]\(browser)),"
                            )
                        }
                    }
                    methods.line("])")
                }
            }
        }
        return writer.text
    }

    private func revocation(_ revocation: RevocationIR) -> String {
        let request = DescriptionLiteral.request(
            name: "revoke", line: revocation.request, authenticated: false, encoding: revocation.encoding,
            clientAuthentication: revocation.clientAuthentication, fresh: nil)
        return "RevocationDescription(request: \(request), fields: \(DescriptionLiteral.fields(revocation.fields, types: types)))"
    }

    private func browser(_ browser: BrowserStepIR, name: String) -> String {
        let request = DescriptionLiteral.request(
            name: name, line: browser.request, authenticated: false, encoding: .json, clientAuthentication: .none, fresh: nil)
        return
            "BrowserStepDescription(request: \(request), redirectURI: \(SwiftName.stringLiteral(browser.redirectURI)), parameters: \(DescriptionLiteral.fields(browser.parameters, types: types)))"
    }

    private func userIDProperty() -> PropertyIR? {
        guard let operation = sdk.credential.detailsOperation.flatMap(sdk.operation),
            case .model(let reference)? = operation.response, let model = types.models[reference.swiftPath],
            case .object(let object) = model.kind
        else { return nil }
        return object.properties.first { $0.name == sdk.credential.userIDField }
    }

    private func renderCredential(into writer: inout CodeWriter) {
        let credential = sdk.credential
        writer.line("credential: CredentialDescription(")
        writer.indented { body in
            body.line("accessTokenField: \(SwiftName.stringLiteral(credential.accessTokenField)),")
            body.line("refreshTokenField: \(credential.refreshTokenField.map(SwiftName.stringLiteral) ?? "nil"),")
            body.line("expiresInField: \(credential.expiresInField.map(SwiftName.stringLiteral) ?? "nil"),")
            body.line("header: \(SwiftName.stringLiteral(credential.header)),")
            body.line("format: \(DescriptionLiteral.template(credential.format, types: types)),")
            if let refresh = credential.refresh {
                body.line("refresh: RefreshDescription(")
                body.indented { inner in
                    inner.line(
                        "request: \(DescriptionLiteral.request(name: "refresh", line: refresh.request, authenticated: false, encoding: refresh.encoding, clientAuthentication: refresh.clientAuthentication, fresh: nil)),"
                    )
                    inner.line("fields: \(DescriptionLiteral.fields(refresh.fields, types: types)),")
                    inner.line("leeway: \(DescriptionLiteral.duration(refresh.leeway)),")
                    inner.line("maxRefreshes: \(refresh.maxRefreshes),")
                    inner.line("window: \(DescriptionLiteral.duration(refresh.window))")
                }
                body.line("),")
            } else {
                body.line("refresh: nil,")
            }
            let rejection = credential.rejection
            body.line(
                "rejection: RejectionRule(status: \(rejection.status), wwwAuthenticateError: \(rejection.wwwAuthenticateError.map(SwiftName.stringLiteral) ?? "nil"), bodyCode: \(rejection.bodyCode.map(SwiftName.stringLiteral) ?? "nil")),"
            )
            body.line("details: Requests.\(SwiftName.escaped(credential.detailsOperation?.swiftName ?? "")),")
            body.line("userIDField: \(SwiftName.stringLiteral(credential.userIDField))")
        }
        writer.line("),")
    }
}
