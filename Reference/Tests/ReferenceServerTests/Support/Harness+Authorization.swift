import Foundation
import HTTPTypes
import ReferenceServer

/// The authorization code flow as a browser and an app would drive it, over HTTP.
extension Harness {
    /// RFC 7636 Appendix B's verifier and its S256 challenge.
    static let appendixBVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let appendixBChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    static let redirectURI = ReferenceServer.Client.demoRedirectURI

    /// The query of an authorization request; `nil` leaves a parameter out.
    static func authorizationQuery(
        responseType: String? = "code",
        clientID: String? = "sesame-demo",
        redirectURI: String? = Harness.redirectURI,
        state: String? = "xyz",
        challenge: String? = Harness.appendixBChallenge,
        method: String? = "S256",
        scope: String? = nil
    ) -> String {
        let parameters: [(String, String?)] = [
            ("response_type", responseType), ("client_id", clientID), ("redirect_uri", redirectURI), ("state", state),
            ("code_challenge", challenge), ("code_challenge_method", method), ("scope", scope),
        ]
        return parameters.compactMap { name, value in value.map { "\(name)=\(formEncode($0))" } }.joined(separator: "&")
    }

    /// `GET /oauth/authorize?<query>` on the authorization server's listener.
    func authorizationPage(_ query: String = Harness.authorizationQuery()) async throws -> HTTPResult {
        try await send(.get, "/oauth/authorize?\(query)", on: .authorization)
    }

    /// Reads the login page's form, then posts it back with the user's answers, as a browser
    /// does: the hidden fields as they are, plus `username`, `password` and `decision`.
    func submitLoginPage(
        _ page: HTTPResult,
        username: String = "alice",
        password: String = "wonderland",
        decision: String = "allow"
    ) async throws -> HTTPResult {
        var fields = try LoginForm.hiddenFields(of: page.body)
        fields += [("username", username), ("password", password), ("decision", decision)]
        let body = fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
        return try await postForm("/oauth/authorize", body, basic: nil)
    }

    /// Signs alice in on the login page and returns the code the redirect carries.
    func authorizationCode(_ query: String = Harness.authorizationQuery()) async throws -> String {
        let redirect = try await submitLoginPage(try await authorizationPage(query))
        guard let code = redirect.redirectParameters?["code"] else { throw HarnessError.missingField("code in \(redirect.status)") }
        return code
    }

    /// The `authorization_code` grant with the demo client.
    func exchange(
        code: String,
        verifier: String? = Harness.appendixBVerifier,
        redirectURI: String? = Harness.redirectURI,
        basic: (String, String)? = ("sesame-demo", "demo-secret"),
        extra: String = ""
    ) async throws -> HTTPResult {
        var form = "grant_type=authorization_code&code=\(Self.formEncode(code))"
        if let redirectURI { form += "&redirect_uri=\(Self.formEncode(redirectURI))" }
        if let verifier { form += "&code_verifier=\(Self.formEncode(verifier))" }
        return try await tokenRequest(form + extra, basic: basic)
    }

    /// `POST /oauth/revoke` with the demo client in HTTP Basic.
    func revoke(
        _ token: String, hint: String? = nil, basic: (String, String)? = ("sesame-demo", "demo-secret"), extra: String = ""
    )
        async throws -> HTTPResult
    {
        var form = "token=\(Self.formEncode(token))"
        if let hint { form += "&token_type_hint=\(hint)" }
        return try await postForm("/oauth/revoke", form + extra, basic: basic)
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension HTTPResult {
    /// The query parameters of a 302's `Location`, or nil when the answer is not a redirect.
    var redirectParameters: [String: String]? {
        guard status == .found, let location = headers[.location], let components = URLComponents(string: location) else { return nil }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        return parameters
    }

    /// The `Location` of a 302 without its query.
    var redirectTarget: String? {
        guard status == .found, let location = headers[.location] else { return nil }
        return String(location.prefix { $0 != "?" })
    }
}

/// Reads the login page as a headless browser would.
enum LoginForm {
    /// The `name` and `value` of each `<input type="hidden">` of the `login` form, unescaped.
    static func hiddenFields(of html: String) throws -> [(String, String)] {
        guard let formStart = html.range(of: "<form id=\"login\""),
            let formEnd = html.range(of: "</form>", range: formStart.upperBound..<html.endIndex)
        else { throw HarnessError.missingField("the login form") }
        let form = html[formStart.lowerBound..<formEnd.upperBound]
        let pattern = /<input type="hidden" name="([^"]*)" value="([^"]*)">/
        return form.matches(of: pattern).map { (unescape(String($0.output.1)), unescape(String($0.output.2))) }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
