import Foundation
import Yams
@_spi(Generated) import SesameDescription

/// A step's `browser:`: the authorization request of the authorization code grant with
/// PKCE, opened in a browser, then the step's token request.
enum BrowserStepTranslator: StepKindTranslator {
    static let key = "browser"
    /// The token request goes where the step's client authentication sends it.
    static let sendsTokenRequest = false

    /// Its parameters may use the method's parameters and earlier needs, and may not set what
    /// the runtime sets itself (`state`, `code_challenge`, …).
    static func translate(
        _ entry: Entry, of step: StepKindContext, translator: AuthTranslator, reader: inout NodeReader
    )
        -> TranslatedStepKind?
    {
        // The token request of a public client goes to the API like any step without client
        // authentication: say so, since the code belongs to the authorization server
        // (`server: api` says it is meant).
        if !step.onAuthorizationServer, step.items["server"] == nil {
            reader.warning(
                "the token request of a browser step with clientAuthentication: none goes to the API's server; add server: authorization to send it to the authorization server (or server: api if the API's server is meant)",
                at: step.requestKey)
        }
        guard let items = reader.mapping(entry.value, "browser", grammar: Grammar.browser, missingAt: entry.keyNode) else {
            return nil
        }
        let name = step.name + ".authorize"
        guard let requestEntry = items["request"],
            var request = reader.requestLine(requestEntry.value, "the authorization request", name: name)
        else { return nil }
        request.value.server = reader.server(items["server"], default: .authorization)
        if request.value.method != .get {
            reader.error("the authorization request is opened in a browser: it must be a GET request", at: requestEntry.value)
        }
        if !request.pathParameters.isEmpty {
            reader.error("the authorization request's path cannot have parameters", at: requestEntry.value)
        }
        var redirectURI = ""
        if let redirectEntry = items["redirectURI"], let text = reader.string(redirectEntry.value, "redirectURI") {
            if let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty, url.fragment == nil, url.query == nil {
                redirectURI = text
            } else {
                reader.error(
                    "redirectURI must be an absolute URL without a query or fragment, such as 'com.example.app://oauth/callback'",
                    at: redirectEntry.value)
            }
        }
        // RFC 9126 §2: a form POST to the authorization server, authenticated as the token request is.
        var pushed: RequestDescription?
        if let pushedEntry = items["pushed"],
            var line = reader.requestLine(pushedEntry.value, "the pushed authorization request", name: name + ".pushed")
        {
            if line.value.method != .post {
                reader.error("the pushed authorization request must be a POST request (RFC 9126 §2.1)", at: pushedEntry.value)
            }
            if !line.pathParameters.isEmpty {
                reader.error("the pushed authorization request's path cannot have parameters", at: pushedEntry.value)
            }
            line.value.server = .authorization
            line.value.encoding = .form
            line.value.clientAuthentication = step.clientAuthentication
            pushed = line.value
        }
        let parameters = items["parameters"].map { reader.templateFields($0.value, "the authorization parameters") } ?? []
        translator.checkParameters(
            parameters, of: "the authorization request", reserved: BrowserAuthorization.reservedParameters, visible: step.visible,
            stepResponses: step.stepResponses, reader: &reader)
        // `openID: true`: checked against sdk.yaml's `openID:` once both are read (SDKTranslator).
        var openIDLocation: SourceLocation?
        if let flag = items["openID"], reader.bool(flag.value, "openID") == true { openIDLocation = reader.location(of: flag.keyNode) }
        return TranslatedStepKind(
            kind: .browser(
                BrowserAuthorization(
                    request: request.value, redirectURI: redirectURI, parameters: parameters.map(\.field), openID: openIDLocation != nil,
                    pushed: pushed)),
            location: reader.location(of: entry.keyNode), provided: BrowserAuthorization.providedValues,
            openIDLocation: openIDLocation)
    }

    /// The token request sends the code, the verifier and the redirect URI the browser brought
    /// back (RFC 6749 §4.1.3, RFC 7636 §4.5).
    static func checkTokenRequest(_ body: [TemplateFieldIR], of step: StepKindContext, reader: inout NodeReader) {
        let missing = BrowserAuthorization.providedValues.filter { !body.map(\.field).reads($0) }
        if !missing.isEmpty {
            reader.error(
                "the token request of a browser step must send \(missing.map { "{\($0.spelling)}" }.joined(separator: ", ")) (RFC 6749 §4.1.3, RFC 7636 §4.5)",
                at: step.bodyKey)
        }
    }
}
