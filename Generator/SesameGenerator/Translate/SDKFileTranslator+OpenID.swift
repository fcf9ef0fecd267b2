import Foundation
@_spi(Generated) import SesameDescription
import Yams

extension SDKFileTranslator {
    /// sdk.yaml's `openID:`: where the provider's keys are (a path on the authorization server
    /// or an absolute https URL), the algorithms (each one the validator accepts; none and HMAC
    /// are not), the clock skew and the claims' model. The validator compares `iss` with the
    /// authorization server's issuer, so `openID` without `authorizationServer.issuer` is an
    /// error at its key. `userInfo` names an operation of `operations` (``checkUserInfo(_:operations:reader:)``);
    /// `endSession` and `postLogoutRedirectURI`: see ``translateEndSession(_:issuer:authorizationServerURL:reader:)``.
    func translateOpenID(
        _ entry: Entry, issuer: AuthorizationServerIssuer?, authorizationServerURL: String?, operations: [OperationIR],
        reader: inout NodeReader
    ) -> OpenIDIR? {
        guard let items = reader.mapping(entry.value, "openID", grammar: Grammar.openID, missingAt: entry.keyNode) else { return nil }
        if issuer == nil {
            reader.error(
                "openID validates the ID token's iss against the authorization server's issuer: add authorizationServer: { baseURL: https://…, issuer: https://… }",
                at: entry.keyNode)
        }
        var keys: String?
        if let keysEntry = items["keys"], let text = reader.string(keysEntry.value, "keys") {
            if text.hasPrefix("/"), !text.hasPrefix("//"), URL(string: "https://host" + text) != nil {
                keys = text
            } else if let url = URL(string: text), url.scheme?.lowercased() == "https", url.host != nil, url.fragment == nil {
                keys = text
            } else {
                reader.error(
                    "keys must be a path on the authorization server (/oauth/jwks) or an absolute https URL (the provider's jwks_uri)",
                    at: keysEntry.value)
            }
        }
        var algorithms: Set<String>?
        if let algorithmsEntry = items["algorithms"], let nodes = reader.sequence(algorithmsEntry.value, "algorithms") {
            var accepted: Set<String> = []
            for node in nodes {
                guard let name = reader.string(node, "an algorithm") else { continue }
                if OpenIDDescription.signingAlgorithms.contains(name) {
                    if !accepted.insert(name).inserted { reader.error("algorithm '\(name)' is listed twice", at: node) }
                } else {
                    let refused = name.lowercased() == "none" || name.uppercased().hasPrefix("HS")
                    let hint = Suggestion.hint(for: name, among: OpenIDDescription.signingAlgorithms.sorted())
                    reader.error(
                        refused
                            ? "algorithm '\(name)' is never accepted for ID tokens: none and HMAC cannot be verified by a public client"
                            : "unknown algorithm '\(name)'; the accepted ones are \(OpenIDDescription.signingAlgorithms.sorted().joined(separator: ", "))\(hint ?? "")",
                        at: node)
                }
            }
            if nodes.isEmpty {
                reader.error("algorithms needs at least one algorithm (or leave it out for the default)", at: algorithmsEntry.value)
            }
            algorithms = accepted.isEmpty ? nil : accepted
        }
        let clockSkew =
            items["clockSkew"].flatMap { reader.duration($0.value, "clockSkew") }?.duration ?? OpenIDDescription.defaultClockSkew
        var claims: ModelRef?
        if let claimsEntry = items["claims"], let name = reader.string(claimsEntry.value, "claims") {
            if let reference = table.reference(to: name) {
                claims = reference
            } else {
                table.reportUnknownModel(name, at: claimsEntry.value, reader: &reader)
            }
        }
        let userInfo = items["userInfo"].flatMap { checkUserInfo($0, operations: operations, reader: &reader) }
        let endSession = translateEndSession(items, issuer: issuer, authorizationServerURL: authorizationServerURL, reader: &reader)
        guard let keys, issuer != nil else { return nil }
        return OpenIDIR(
            value: OpenIDDescription(
                keys: keys, algorithms: algorithms, clockSkew: clockSkew, userInfo: userInfo?.request.value,
                endSession: endSession.endpoint, postLogoutRedirectURI: endSession.postLogoutRedirectURI),
            claims: claims, location: reader.location(of: entry.keyNode))
    }

    /// `openID.userInfo`: the operation that is the provider's UserInfo endpoint (OpenID
    /// Connect Core §5.3). It must be on the authorization server, send the access token
    /// (`authenticated: true`, which an operation there must say), and return a model with a
    /// required string `sub`, which the runtime compares with the ID token's (§5.3.2). Each
    /// mistake is an error at the value of `userInfo`.
    private func checkUserInfo(_ entry: Entry, operations: [OperationIR], reader: inout NodeReader) -> OperationIR? {
        guard let name = reader.string(entry.value, "userInfo") else { return nil }
        guard let operation = operations.first(where: { $0.name == name }) else {
            if !declaredOperations.contains(name) {
                let hint = Suggestion.hint(for: name, among: operations.map(\.name)) ?? ""
                reader.error("unknown operation '\(name)' for userInfo\(hint)", at: entry.value)
            }
            return nil
        }
        var valid = true
        if operation.request.value.server != .authorization {
            reader.error(
                "the UserInfo operation '\(name)' must be on the authorization server, the OpenID provider (OpenID Connect Core §5.3): add server: authorization to it",
                at: entry.value)
            valid = false
        }
        if !operation.request.value.authenticated {
            reader.error(
                "the UserInfo operation '\(name)' must send the access token (OpenID Connect Core §5.3.1): add authenticated: true to it",
                at: entry.value)
            valid = false
        }
        if !returnsSubject(operation) {
            reader.error(
                "the UserInfo operation '\(name)' must return a model of the models files with a required string property 'sub', which is compared with the ID token's (OpenID Connect Core §5.3.2)",
                at: entry.value)
            valid = false
        }
        return valid ? operation : nil
    }

    /// Whether `operation` returns a model of the models files: an object with a required,
    /// non-null string `sub`. An untyped response (`true`, `{}`, an unknown model, which is an
    /// error of its own) is none: the rule must hold of what the SDK decodes.
    private func returnsSubject(_ operation: OperationIR) -> Bool {
        guard case .model(let reference)? = operation.response, let name = reference.declaredName,
            let model = table.models[name], case .object(let object) = model.kind,
            let sub = object.properties.first(where: { $0.name == "sub" }), case .string = sub.type
        else { return false }
        return sub.required && !sub.nullable
    }

    /// `openID.endSession`, the provider's end_session_endpoint (RP-Initiated Logout 1.0): a
    /// path on the authorization server (`/oauth/logout`, with a query if need be), or an
    /// absolute URL on the issuer's origin or the authorization server's (the ID token goes
    /// there as `id_token_hint`: only to the provider that issued it), `https` unless on
    /// loopback; no fragment. `openID.postLogoutRedirectURI`: an absolute URL without query or
    /// fragment, as a browser step's `redirectURI`, and only beside `endSession`.
    func translateEndSession(
        _ items: GrammarFields, issuer: AuthorizationServerIssuer?, authorizationServerURL: String?, reader: inout NodeReader
    ) -> (endpoint: String?, postLogoutRedirectURI: URL?) {
        var endpoint: String?
        if let entry = items["endSession"], let text = reader.string(entry.value, "endSession") {
            let providerOrigins = Set(
                [issuer?.issuer, authorizationServerURL].compactMap { $0.flatMap(URL.init(string:)) }.map(WebOrigin.of))
            if text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("#"), URL(string: "https://host" + text) != nil {
                endpoint = text
            } else if let url = URL(string: text), url.host?.isEmpty == false, url.fragment == nil,
                WebOrigin.isSecure(url), providerOrigins.contains(WebOrigin.of(url))
            {
                endpoint = text
            } else {
                let origins = providerOrigins.sorted().joined(separator: " or ")
                reader.error(
                    "endSession must be a path on the authorization server (/oauth/logout) or an absolute https URL on the provider's origin\(origins.isEmpty ? "" : " (\(origins))"), without a fragment: the ID token goes there as id_token_hint",
                    at: entry.value)
            }
        }
        var postLogoutRedirectURI: URL?
        if let entry = items["postLogoutRedirectURI"], let text = reader.string(entry.value, "postLogoutRedirectURI") {
            if let url = URL(string: text), url.scheme?.isEmpty == false, url.fragment == nil, url.query == nil {
                postLogoutRedirectURI = url
            } else {
                reader.error(
                    "postLogoutRedirectURI must be an absolute URL without a query or fragment, such as 'com.example.app://signed-out'",
                    at: entry.value)
            }
            if items["endSession"] == nil {
                reader.error(
                    "postLogoutRedirectURI is sent to the provider's end-session endpoint: add endSession: /oauth/logout (its end_session_endpoint)",
                    at: entry.keyNode)
            }
        } else if let entry = items["endSession"], endpoint != nil {
            reader.warning(
                "endSession without postLogoutRedirectURI: sign-out ends the provider's session only when the app sets the configuration's postLogoutRedirectURI (add postLogoutRedirectURI: com.example.app://signed-out)",
                at: entry.keyNode)
        }
        return (endpoint, postLogoutRedirectURI)
    }

}
