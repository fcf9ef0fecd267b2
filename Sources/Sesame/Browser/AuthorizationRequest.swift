import Foundation
@_spi(Generated) import SesameDescription

/// One authorization request of a browser step (RFC 6749 §4.1.1, RFC 7636 §4.3): its URL,
/// with a fresh `state` and PKCE challenge, and the check of the redirect that answers it.
/// Internal: it holds the verifier, a secret until the token request.
struct AuthorizationRequest: Sendable {
    /// What the browser opens: the authorization endpoint with ``parameters``, or, once they
    /// were pushed (RFC 9126), with `client_id` and the `request_uri` alone.
    var url: URL
    /// The request's parameters, in order (its query, or the body of a pushed request).
    let parameters: [FormField]
    /// The authorization endpoint with the request line's constant query, before the parameters.
    private let endpoint: URLComponents
    let redirectURI: URL
    let state: String
    let pkce: PKCE
    /// The issuer whose `iss` the redirect must carry (RFC 9207); nil checks none.
    let issuer: AuthorizationServerIssuer?
    /// What the app asked for on this request (`acr_values`, `max_age`, `prompt`,
    /// `login_hint`); nil when it asked nothing. The ID token's `acr` and
    /// `auth_time` are checked against it when the configuration has a validator.
    let requested: AuthorizationParameters?
    /// The `nonce` sent (OpenID Connect Core §3.1.2.1), which the ID token must carry; nil
    /// when the sign-in validates no ID token.
    let nonce: String?

    /// The request for `step`, sent to `baseURL` with `redirectURI` (the one the browser
    /// prepared: the step's, the configuration's, or a loopback one with its port; nil for the
    /// step's), with `extra` query parameters (the schema's templates, already resolved) after
    /// the ones the runtime sets (`nonce` among them when given), then `requested`'s, which
    /// replace an `extra` of the same name.
    /// - Throws: ``BrowserSignInError/notConfigured(reason:)`` for a redirect URI or a base
    ///   URL that does not make a URL; ``SesameError/encoding(reason:)`` for malformed
    ///   `requested` parameters.
    init(
        step: BrowserAuthorization, baseURL: URL, redirectURI: URL? = nil, clientID: String,
        extra: [(name: String, value: String)], state: String, pkce: PKCE, issuer: AuthorizationServerIssuer? = nil,
        requested: AuthorizationParameters? = nil, nonce: String? = nil
    ) throws {
        let asked = try requested?.queryItems() ?? []
        let extra = extra.filter { item in !asked.contains { $0.name == item.name } } + asked
        guard let redirectURI = redirectURI ?? URL(string: step.redirectURI), redirectURI.scheme != nil, redirectURI.query == nil,
            redirectURI.fragment == nil
        else {
            throw BrowserSignInError.notConfigured(reason: "the redirect URI is not an absolute URL without query or fragment")
        }
        let parameters: [(String, String)] =
            [
                ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString), ("state", state),
                ("code_challenge", pkce.challenge), ("code_challenge_method", PKCE.method),
            ] + (nonce.map { [("nonce", $0)] } ?? []) + extra.map { ($0.name, $0.value) }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
            throw BrowserSignInError.notConfigured(reason: "the authorization server's base URL is not a URL")
        }
        // A constant query of the request line (percent-encoded by the generator) comes first.
        components.percentEncodedPath += step.request.pathWithoutQuery
        components.percentEncodedQuery = step.request.constantQuery.map(String.init)
        endpoint = components
        self.url = try Self.url(
            endpoint, with: parameters.map { name, value in "\(FormField.encode(name))=\(FormField.encode(value))" })
        self.parameters = parameters.map { FormField(name: $0.0, value: $0.1) }
        self.redirectURI = redirectURI
        self.state = state
        self.pkce = pkce
        self.issuer = issuer
        self.requested = requested
        self.nonce = nonce
    }

    /// The authorization endpoint's URL for a request whose parameters were pushed (RFC 9126
    /// §4): `client_id` and the `request_uri` the server returned, after the endpoint's
    /// constant query.
    func pushedURL(requestURI: String, clientID: String) throws -> URL {
        try Self.url(endpoint, with: ["client_id=\(FormField.encode(clientID))", "request_uri=\(FormField.encode(requestURI))"])
    }

    /// `endpoint` with the encoded query `items` after its constant query.
    private static func url(_ endpoint: URLComponents, with items: [String]) throws -> URL {
        var components = endpoint
        components.percentEncodedQuery = ((components.percentEncodedQuery.map { [$0] } ?? []) + items).joined(separator: "&")
        guard let url = components.url else {
            throw BrowserSignInError.notConfigured(reason: "the authorization request does not make a URL")
        }
        return url
    }

    /// The authorization code of the redirect that answers this request.
    /// - Throws: ``BrowserSignInError/malformedRedirect(reason:)`` when `callback` is not
    ///   the redirect URI (scheme, userinfo, host, port and path), repeats a parameter, or has
    ///   neither `code` nor `error`; ``BrowserSignInError/stateMismatch`` when its `state` is
    ///   not this request's (checked before any other parameter is read);
    ///   ``BrowserSignInError/issuerMismatch(expected:received:)`` when its `iss` is not the
    ///   declared issuer's, or is missing when the server is declared to send it (checked
    ///   next, for errors too: RFC 9207 §2.4);
    ///   ``AuthorizationErrorResponse`` for an `error`, which the service types through the
    ///   schema's error catalogue.
    func code(from callback: URL) throws -> String {
        guard let components = URLComponents(url: callback, resolvingAgainstBaseURL: false),
            let expected = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false),
            components.scheme?.lowercased() == expected.scheme?.lowercased(),
            components.host?.lowercased() == expected.host?.lowercased(), components.port == expected.port,
            components.percentEncodedUser == expected.percentEncodedUser,
            components.percentEncodedPassword == expected.percentEncodedPassword, components.path == expected.path
        else { throw BrowserSignInError.malformedRedirect(reason: "it is not a URL of the redirect URI") }
        // The redirect's query is form-encoded (RFC 6749 Appendix B): `+` is a space.
        func decode(_ text: String) -> String {
            text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
        }
        // A parameter must not be included more than once (RFC 6749 §3.1): none is chosen.
        var items: [String: String] = [:]
        for item in components.percentEncodedQueryItems ?? [] {
            let name = decode(item.name)
            guard items[name] == nil else {
                throw BrowserSignInError.malformedRedirect(reason: "it repeats the parameter '\(name)' (RFC 6749 §3.1)")
            }
            items[name] = decode(item.value ?? "")
        }
        guard items["state"] == state else { throw BrowserSignInError.stateMismatch }
        try Self.checkIssuer(items["iss"], expected: issuer)
        if let error = items["error"] {
            throw AuthorizationErrorResponse(code: error, description: items["error_description"], uri: items["error_uri"])
        }
        guard let code = items["code"], !code.isEmpty else {
            throw BrowserSignInError.malformedRedirect(reason: "it has neither a code nor an error")
        }
        return code
    }
}
