import Foundation
@_spi(Generated) import SesameDescription
import Yams

/// Translates `sdk.yaml` against the shared model table and the operations of auth.yaml:
/// the SDK's name, server, credential (token model, header, refresh, rejection, details)
/// and lifecycle operations.
struct SDKFileTranslator {
    let table: ModelTable
    /// Every operation name auth.yaml declares, including those that failed to translate,
    /// so that references to them do not add a second error.
    let declaredOperations: Set<String>

    /// What sdk.yaml declares.
    struct SDKPart {
        var name: String
        var description: String?
        var baseURL: String
        var authorizationServerURL: String?
        var authorizationIssuer: AuthorizationServerIssuer?
        var openID: OpenIDIR?
        /// Whether sdk.yaml has an `openID` key, translated or not (its errors are reported).
        var declaresOpenID: Bool
        var credential: CredentialIR
        var lifecycle: LifecycleIR
    }

    /// The SDK part of sdk.yaml, or nil when it is missing something every SDK needs; every
    /// problem goes to `reader`.
    func translate(_ file: ParsedFile, operations: [OperationIR], reader: inout NodeReader) -> SDKPart? {
        guard let root = file.root,
            let entries = reader.mapping(root, "sdk.yaml", grammar: Grammar.sdkFile)
        else {
            if file.root == nil {
                reader.append(.error("sdk.yaml is empty", at: SourceLocation(file: file.source.path, line: 1, column: 1)))
            }
            return nil
        }
        var name = "SDK"
        if let entry = entries["sdk"], let text = reader.string(entry.value, "sdk") {
            if Identifier.isValid(text) {
                name = text
            } else {
                reader.error("sdk '\(text)' must be a Swift module name: letters, digits and _, not starting with a digit", at: entry.value)
            }
        }
        let description = entries["description"].flatMap { reader.string($0.value, "description") }
        var baseURL = "https://localhost"
        if let server = entries["server"], let serverEntries = reader.mapping(server.value, "server", grammar: Grammar.apiServer),
            let urlEntry = serverEntries["baseURL"], let url = reader.string(urlEntry.value, "baseURL")
        {
            if let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme), parsed.host != nil {
                baseURL = url
            } else {
                reader.error("baseURL must be an absolute http or https URL", at: urlEntry.value)
            }
        }
        var authorizationServerURL: String?
        var authorizationIssuer: AuthorizationServerIssuer?
        if let server = entries["authorizationServer"],
            let serverEntries = reader.mapping(server.value, "authorizationServer", grammar: Grammar.authorizationServer)
        {
            if let urlEntry = serverEntries["baseURL"], let url = reader.string(urlEntry.value, "baseURL") {
                if let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme), parsed.host != nil {
                    authorizationServerURL = url
                } else {
                    reader.error("baseURL must be an absolute http or https URL", at: urlEntry.value)
                }
            }
            authorizationIssuer = translateIssuer(serverEntries, reader: &reader)
        }
        let openID = entries["openID"].flatMap {
            translateOpenID(
                $0, issuer: authorizationIssuer, authorizationServerURL: authorizationServerURL, operations: operations,
                reader: &reader)
        }
        if let entry = entries["references"] { checkReferences(entry.value, reader: &reader) }
        if let entry = entries["models"] { checkModelOptions(entry.value, reader: &reader) }
        guard let credentialEntry = entries["credential"] else { return nil }
        let credential = translateCredential(
            credentialEntry.value, operations: operations, claims: openID?.claims, reader: &reader)
        var lifecycle = LifecycleIR()
        if let entry = entries["lifecycle"],
            let items = reader.mapping(entry.value, "lifecycle", grammar: Grammar.lifecycle)
        {
            if let revoke = items["revoke"], let revocation = translateRevocation(revoke.value, reader: &reader) {
                lifecycle.value.revocation = revocation.value
                lifecycle.revocationLocation = revocation.location
                lifecycle.revocationRequestLocation = revocation.requestLocation
            }
            for key in ["signOut", "detachIdentity", "destroyAccount"] {
                guard let item = items[key], let operation = reader.string(item.value, item.key) else { continue }
                guard let request = operations.first(where: { $0.name == operation })?.request.value else {
                    if !declaredOperations.contains(operation) {
                        reader.error("unknown operation '\(operation)' for \(item.key)", at: item.value)
                    }
                    continue
                }
                switch item.key {
                case "signOut":
                    lifecycle.signOut = OperationRef(name: operation)
                    lifecycle.value.signOut = request
                case "detachIdentity":
                    lifecycle.detachIdentity = OperationRef(name: operation)
                    lifecycle.value.detachIdentity = request
                default:
                    lifecycle.destroyAccount = OperationRef(name: operation)
                    lifecycle.value.destroyAccount = request
                }
            }
        }
        guard let credential else { return nil }
        return SDKPart(
            name: name, description: description, baseURL: baseURL, authorizationServerURL: authorizationServerURL,
            authorizationIssuer: authorizationIssuer, openID: openID, declaresOpenID: entries["openID"] != nil, credential: credential,
            lifecycle: lifecycle)
    }

    /// `authorizationServer`'s `issuer` and `issuerInResponses` (RFC 9207): an issuer
    /// identifier is a URL without a query or fragment (RFC 8414 §2 asks for https; http is
    /// accepted for servers on loopback and in tests, as baseURL is).
    private func translateIssuer(_ entries: GrammarFields, reader: inout NodeReader) -> AuthorizationServerIssuer? {
        let sent = entries["issuerInResponses"].flatMap { reader.bool($0.value, "issuerInResponses") } ?? false
        guard let entry = entries["issuer"] else {
            if let flag = entries["issuerInResponses"] {
                reader.error("issuerInResponses needs the issuer it is compared with: add issuer: https://…", at: flag.keyNode)
            }
            return nil
        }
        guard let issuer = reader.string(entry.value, "issuer") else { return nil }
        guard let url = URL(string: issuer), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil, url.query == nil,
            url.fragment == nil
        else {
            reader.error(
                "issuer must be an absolute http or https URL without a query or fragment (RFC 8414 §2), such as 'https://idp.example.com'",
                at: entry.value)
            return nil
        }
        return AuthorizationServerIssuer(issuer: issuer, sentInResponses: sent)
    }

    private func translateCredential(
        _ node: Node, operations: [OperationIR], claims: ModelRef?, reader: inout NodeReader
    ) -> CredentialIR? {
        guard let entries = reader.mapping(node, "credential", grammar: Grammar.credential) else { return nil }
        var tokenModel: ModelRef?
        var accessToken = "access_token"
        var refreshToken: String?
        var expiresIn: String?
        if let token = entries["token"],
            let tokenEntries = reader.mapping(token.value, "credential.token", grammar: Grammar.token)
        {
            if let model = tokenEntries["model"], let name = reader.string(model.value, "model") {
                if let reference = table.reference(to: name) {
                    tokenModel = reference
                    let fields = objectFields(name)
                    if tokenEntries["accessToken"] == nil, !fields.contains(accessToken) {
                        reader.error(
                            "the token model '\(name)' has no property '\(accessToken)'; name the access token's property (accessToken: …)",
                            at: token.keyNode)
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
                    table.reportUnknownModel(name, at: model.value, reader: &reader)
                }
            }
        }
        var header = "Authorization"
        var format = Template.interpolation([.text("Bearer "), .variable(.accessToken)])
        if let apply = entries["apply"], let applyEntries = reader.mapping(apply.value, "credential.apply", grammar: Grammar.apply) {
            if let entry = applyEntries["header"], let text = reader.string(entry.value, "header") { header = text }
            if let entry = applyEntries["format"], let template = reader.template(entry.value, "format") {
                format = checkVariables(template, allowed: Grammar.apply.placeholders(of: "format"), at: entry.value, reader: &reader)
                if !format.placeholders.contains(.accessToken) {
                    reader.error("the credential format must hold {accessToken}", at: entry.value)
                }
            }
        }
        var binding = CredentialBinding.bearer(header: header, format: format)
        if let entry = entries["dpop"], let dpop = translateDPoP(entry, besideApply: entries["apply"], reader: &reader) {
            binding = .dpop(dpop)
        }
        var refresh: (value: RefreshDescription, requestLocation: SourceLocation)?
        if let entry = entries["refresh"] {
            refresh = translateRefresh(entry.value, reader: &reader)
        }
        var rejection = RejectionRule(status: 401, wwwAuthenticateError: nil, bodyCode: nil)
        if let entry = entries["rejected"],
            let items = reader.mapping(entry.value, "credential.rejected", grammar: Grammar.rejected)
        {
            if let status = items["status"], let value = reader.int(status.value, "status") {
                if (400...499).contains(value) {
                    rejection.status = value
                } else {
                    reader.error("the rejection status must be a client error (400–499), found \(value)", at: status.value)
                }
            }
            if let www = items["wwwAuthenticate"],
                let wwwEntries = reader.mapping(www.value, "wwwAuthenticate", grammar: Grammar.wwwAuthenticate),
                let error = wwwEntries["error"]
            {
                rejection.wwwAuthenticateError = reader.string(error.value, "error")
            }
            if let body = items["body"], let bodyEntries = reader.mapping(body.value, "body", grammar: Grammar.rejectedBody),
                let code = bodyEntries["code"]
            {
                rejection.bodyCode = reader.string(code.value, "code")
            }
            if rejection.wwwAuthenticateError == nil && rejection.bodyCode == nil {
                reader.error(
                    "credential.rejected must say how to recognise the auth server's rejection: wwwAuthenticate.error, body.code or both; a bare status would refresh on any 401",
                    at: entry.value)
            }
        }
        var details: OperationRef?
        // A placeholder where sdk.yaml names no operation that exists (an error).
        var detailsRequest: RequestDescription? = RequestDescription(name: "", method: .get, path: "/")
        var userID = ""
        var detailsClaims: (model: ModelRef, location: SourceLocation)?
        if let entry = entries["details"], let name = reader.string(entry.value, "details"), name == Self.idTokenDetails {
            detailsRequest = nil
            userID = translateClaimsUserID(entries["userID"], claims: claims, reader: &reader)
            if declaredOperations.contains(name) {
                reader.error(
                    "details: idToken reads the ID token's claims, so no operation can be named 'idToken': rename it",
                    at: entry.value)
            }
            if let claims {
                detailsClaims = (claims, reader.location(of: entry.value))
            } else {
                reader.error(
                    "details: idToken needs openID.claims, the model the ID token's claims decode into (openID: { claims: OpenIDClaims })",
                    at: entry.value)
            }
        } else if let entry = entries["details"], let name = reader.string(entry.value, "details") {
            if let operation = operations.first(where: { $0.name == name }) {
                details = OperationRef(name: name)
                detailsRequest = operation.request.value
                if let idEntry = entries["userID"], let field = reader.string(idEntry.value, "userID") {
                    userID = field
                    if case .model(let model)? = operation.response, let declared = model.declaredName,
                        !objectFields(declared).contains(field)
                    {
                        reader.error("the details model '\(declared)' has no property '\(field)'", at: idEntry.value)
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
        }
        return CredentialIR(
            value: CredentialDescription(
                accessTokenField: accessToken, refreshTokenField: refreshToken, expiresInField: expiresIn, binding: binding,
                refresh: refresh?.value, rejection: rejection, details: detailsRequest, userIDField: userID),
            tokenModel: tokenModel, detailsOperation: details, detailsClaims: detailsClaims?.model,
            detailsClaimsLocation: detailsClaims?.location, location: reader.location(of: node),
            refreshRequestLocation: refresh?.requestLocation)
    }

    /// `credential.dpop`; nil, with an error, beside `apply` or without ES256.
    private func translateDPoP(_ entry: Entry, besideApply apply: Entry?, reader: inout NodeReader) -> DPoPBinding? {
        guard let items = reader.mapping(entry.value, "credential.dpop", grammar: Grammar.dpop) else { return nil }
        if let apply {
            reader.error(
                "credential.apply and credential.dpop cannot both say how the token is sent: a DPoP token goes as Authorization: DPoP",
                at: apply.keyNode)
            return nil
        }
        var algorithms = ["ES256"]
        if let entry = items["algorithms"], let list = reader.sequence(entry.value, "algorithms") {
            algorithms = list.compactMap { reader.string($0, "an algorithm") }
            if !algorithms.contains("ES256") {
                reader.error(
                    "Sesame signs DPoP proofs with ES256, which the server's algorithms (\(algorithms.joined(separator: ", "))) do not list",
                    at: entry.value)
                return nil
            }
        }
        return DPoPBinding(algorithms: algorithms)
    }

    /// `credential.refresh`, and where the schema wrote its request line.
    private func translateRefresh(
        _ node: Node, reader: inout NodeReader
    ) -> (value: RefreshDescription, requestLocation: SourceLocation)? {
        guard
            let entries = reader.mapping(node, "credential.refresh", grammar: Grammar.refresh)
        else { return nil }
        guard let requestEntry = entries["request"],
            var request = reader.requestLine(requestEntry.value, "the refresh request", name: "refresh")
        else { return nil }
        request.value.server = reader.server(entries["server"], default: .authorization)
        let fields = (entries["fields"].map { reader.templateFields($0.value, "the refresh fields") } ?? []).map { field in
            var field = field
            field.value = checkVariables(
                field.value, allowed: Grammar.refresh.placeholders(of: "fields"), at: field.location, reader: &reader)
            return field
        }
        let leeway = entries["leeway"].flatMap { reader.duration($0.value, "leeway") } ?? DurationIR(milliseconds: 60_000)
        request.value.encoding = reader.encoding(entries["encoding"], "the refresh request")
        request.value.clientAuthentication = reader.clientAuthentication(entries["clientAuthentication"])
        var maxRefreshes = 5
        var window = DurationIR(milliseconds: 30_000)
        if let entry = entries["window"], let items = reader.mapping(entry.value, "window", grammar: Grammar.window) {
            if let max = items["maxRefreshes"], let value = reader.int(max.value, "maxRefreshes") {
                if value < 1 { reader.error("maxRefreshes must be at least 1", at: max.value) } else { maxRefreshes = value }
            }
            if let per = items["per"], let value = reader.duration(per.value, "per") { window = value }
        }
        let description = RefreshDescription(
            request: request.value, fields: fields.map(\.field), leeway: leeway.duration, maxRefreshes: maxRefreshes,
            window: window.duration)
        return (description, request.location)
    }

    /// `lifecycle.revoke`: an RFC 7009 request, form-encoded and on the authorization
    /// server unless it says otherwise; its fields may use `{refreshToken}` and `{accessToken}`.
    private func translateRevocation(
        _ node: Node, reader: inout NodeReader
    ) -> (value: RevocationDescription, location: SourceLocation, requestLocation: SourceLocation)? {
        guard
            let entries = reader.mapping(node, "lifecycle.revoke", grammar: Grammar.revoke)
        else { return nil }
        guard let requestEntry = entries["request"],
            var request = reader.requestLine(requestEntry.value, "the revocation request", name: "revoke")
        else { return nil }
        request.value.server = reader.server(entries["server"], default: .authorization)
        if [.get, .head].contains(request.value.method) {
            reader.error("the revocation request sends its token in a body: use POST (RFC 7009 §2.1)", at: requestEntry.value)
        }
        let fields = (entries["fields"].map { reader.templateFields($0.value, "the revocation fields") } ?? []).map { field in
            var field = field
            field.value = checkVariables(
                field.value, allowed: Grammar.revoke.placeholders(of: "fields"), at: field.location, reader: &reader)
            return field
        }
        if !fields.contains(where: { $0.name == "token" }) {
            reader.error("the revocation request must send the token to revoke: fields: { token: \"{refreshToken}\" }", at: node)
        }
        request.value.encoding = entries["encoding"] == nil ? .form : reader.encoding(entries["encoding"], "the revocation request")
        request.value.clientAuthentication = reader.clientAuthentication(entries["clientAuthentication"])
        return (RevocationDescription(request: request.value, fields: fields.map(\.field)), reader.location(of: node), request.location)
    }

    private func objectFields(_ model: String) -> Set<String> {
        table.propertyNames(of: model)
    }

    /// The template with the runtime values `allowed` names read as such; any other
    /// placeholder is an error.
    private func checkVariables(_ template: Template, allowed: Set<String>, at node: Node, reader: inout NodeReader) -> Template {
        checkVariables(template, allowed: allowed, at: reader.location(of: node), reader: &reader)
    }

    private func checkVariables(
        _ template: Template, allowed: Set<String>, at location: SourceLocation, reader: inout NodeReader
    ) -> Template {
        let provided = allowed.compactMap { Placeholder.runtimeValues[$0] }
        let resolved = template.providing(provided)
        for placeholder in resolved.placeholders where !provided.contains(placeholder) {
            reader.append(
                .error(
                    "unknown placeholder '{\(placeholder.spelling)}'; here you may use \(allowed.sorted().map { "{\($0)}" }.joined(separator: ", "))",
                    at: location))
        }
        return resolved
    }
}

import Foundation
@_spi(Generated) import SesameDescription
