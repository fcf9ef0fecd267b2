@_spi(Generated) import SesameDescription

/// Renders `<SDK>Schema`: the `SDKSchema` conformance with the description the runtime
/// reads, and the request and method descriptions.
struct SchemaRenderer {
    let sdk: SDKIR
    let types: TypeRendering

    /// Prints the descriptions, naming the requests and the error categories the generated
    /// code declares instead of repeating them.
    private var literal: SwiftLiteral {
        var requests: [RequestDescription: String] = [:]
        for operation in sdk.operations {
            requests[operation.request.value] = "Requests.\(SwiftName.escaped(operation.swiftName))"
        }
        let codes = sdk.runtimeDescription.errors.codes
        let errorType = sdk.typeNames.error
        return SwiftLiteral { value in
            if let request = value as? RequestDescription { return requests[request] }
            if let categories = value as? [String: ErrorCategory], categories == codes { return "\(errorType).categories" }
            return nil
        }
    }

    func render() -> String {
        // Only an SDK whose schema declares openID imports (and so links) SesameOpenID.
        var writer = SwiftRenderer.fileWriter(imports: ["Foundation", "Sesame"] + (sdk.openID == nil ? [] : ["SesameOpenID"]))
        writer.doc(sdk.description ?? "The \(sdk.name) back-end.")
        writer.doc("\nEverything the Sesame runtime needs to know about the back-end, as its schema declares it.")
        let detailsType =
            sdk.credential.detailsClaims.map { types.swift(.model($0)) }
            ?? sdk.credential.detailsOperation.flatMap(sdk.operation)?.response.map(types.swift) ?? "JSONValue"
        writer.block("public enum \(sdk.typeNames.schema): SDKSchema") { body in
            body.line("public typealias Details = \(detailsType)")
            body.line("public typealias ServerError = \(sdk.typeNames.error)")
            body.line("public typealias Event = \(sdk.typeNames.event)")
            body.line()
            body.line("@_spi(Generated) public static let description = \(literal.print(sdk.runtimeDescription, indent: 1))")
            body.line()
            body.block("public static func userID(of details: Details) -> String") { function in
                if sdk.credential.value.userIDField.isEmpty {
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
            if sdk.openID != nil {
                body.line()
                body.doc("The ID token validator of the schema's openID, built by the service from its configuration.")
                body.block(
                    "@_spi(Generated) public static func idTokenValidator(_ settings: OpenIDValidatorSettings) -> (any IDTokenValidating)?"
                ) { function in
                    function.line("IDTokenValidator(settings)")
                }
            }
            if sdk.openID?.value.userInfo != nil {
                body.line()
                body.doc("The `sub` of the session's ID token, for the UserInfo check (read with SesameOpenID's parser).")
                body.block("@_spi(Generated) public static func idTokenSubject(ofValidated idToken: String) -> String?") { function in
                    function.line("IDTokenClaims.subject(ofValidated: idToken)")
                }
            }
            if sdk.credential.detailsClaims != nil {
                body.line()
                body.doc("The details of a session: the claims of its validated ID token (sdk.yaml's `details: idToken`).")
                body.block("@_spi(Generated) public static func details(fromValidatedIDToken idToken: String) throws -> Details") {
                    function in
                    function.line("do {")
                    function.line("    return try IDTokenClaims.decode(Details.self, fromValidated: idToken)")
                    function.line("} catch {")
                    function.line("    throw SesameError.decoding(operation: \"id_token\", reason: error.reason)")
                    function.line("}")
                }
            }
            body.line()
            body.doc("The requests of the schema's operations.")
            body.block("@_spi(Generated) public enum Requests") { requests in
                for operation in sdk.operations {
                    requests.line(
                        "public static let \(SwiftName.escaped(operation.swiftName)) = \(SwiftLiteral().print(operation.request.value, indent: 2))"
                    )
                }
            }
            body.line()
            body.doc("The schema's authentication methods and their steps.")
            body.block("@_spi(Generated) public enum Methods") { methods in
                for method in sdk.methods {
                    methods.line(
                        "public static let \(SwiftName.escaped(method.swiftName)) = \(SwiftLiteral().print(method.runtimeDescription, indent: 2))"
                    )
                }
            }
        }
        if let claims = sdk.openID?.claims {
            renderClaimsAccessor(types.swift(.model(claims)), into: &writer)
        }
        return writer.text
    }

    /// `service.idTokenClaims()`: the claims of the session's ID token as the model sdk.yaml's
    /// `openID.claims` names (SesameOpenID decodes them).
    private func renderClaimsAccessor(_ model: String, into writer: inout CodeWriter) {
        writer.line()
        writer.block("extension AuthenticationService where Schema == \(sdk.typeNames.schema)") { body in
            body.doc(
                """
                The signed-in user's ID token claims as `\(model)` (the schema's `openID.claims`), read from \
                the ID token the session keeps: validated when it was received, so after a restore too.
                - Returns: nil when no user is signed in, or when the session signed in with a step \
                that is no OpenID Connect sign-in (it holds no ID token).
                - Throws: `IDTokenClaimsMismatch` when the claims do not fit `\(model)`; nothing changes.
                """)
            body.block("public func idTokenClaims() throws(IDTokenClaimsMismatch) -> \(model)?") { function in
                function.line("guard let idToken = sessionIDToken else { return nil }")
                function.line("return try IDTokenClaims.decode(\(model).self, fromValidated: idToken)")
            }
        }
    }

    private func userIDProperty() -> PropertyIR? {
        let response = sdk.credential.detailsOperation.flatMap(sdk.operation)?.response
        guard case .model(let reference)? = sdk.credential.detailsClaims.map(TypeIR.model) ?? response,
            let model = types.models[reference.swiftPath],
            case .object(let object) = model.kind
        else { return nil }
        return object.properties.first { $0.name == sdk.credential.value.userIDField }
    }
}
