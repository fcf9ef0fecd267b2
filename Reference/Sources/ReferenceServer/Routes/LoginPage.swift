import Foundation
import HTTPTypes
import Hummingbird

/// The HTML the authorization endpoint answers: the login page, its 400 page, and the
/// redirects back to the client.
enum LoginPage {
    /// The login page: one form (`id="login"`) that posts the authorization request back in
    /// hidden fields with the user's name, password and decision (`allow` or `deny`).
    static func page(for request: AuthorizationRequest, username: String? = nil, error: String? = nil) -> Response {
        let scope = request.scope.map { " (scope: \(escape($0)))" } ?? ""
        var body = "<p><strong>\(escape(request.client.id))</strong> asks to sign you in\(scope).</p>\n"
        if let error { body += alert(error) }
        body += "<form id=\"login\" method=\"post\" action=\"/oauth/authorize\">\n"
        for (name, value) in request.parameters {
            body += "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">\n"
        }
        body += """
            <label>User name <input name="username" autocomplete="username" value="\(escape(username ?? ""))"></label>
            <label>Password <input type="password" name="password" autocomplete="current-password"></label>
            <button type="submit" name="decision" value="allow">Sign in</button>
            <button type="submit" name="decision" value="deny">Deny</button>
            </form>

            """
        return document(status: .ok, title: "Sign in", body: body)
    }

    /// 400 with an HTML page: the request cannot be redirected (RFC 6749 §4.1.2.1).
    static func badRequest(_ message: String) -> Response {
        document(status: .badRequest, title: "Bad request", body: alert(message))
    }

    /// 200 with an HTML page saying the user is signed out: the end-session endpoint's answer
    /// when the request named no `post_logout_redirect_uri` (RP-Initiated Logout 1.0 §2).
    static func signedOut() -> Response {
        document(status: .ok, title: "Signed out", body: "<p>You are signed out.</p>\n")
    }

    private static func alert(_ message: String) -> String {
        "<p class=\"error\" role=\"alert\">\(escape(message))</p>\n"
    }

    /// A whole page: `title` as its title and heading, then `body` (HTML).
    private static func document(status: HTTPResponse.Status, title: String, body: String) -> Response {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>\(title) — Sesame reference server</title></head>
            <body>
            <h1>\(title)</h1>
            \(body)</body>
            </html>

            """
        return Response(status: status, headers: htmlHeaders, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// 302 to the redirect URI with `code`, `state` and `iss` (RFC 6749 §4.1.2, RFC 9207).
    static func redirect(_ request: AuthorizationRequest, code: String) -> Response {
        redirect(request, parameters: [("code", code)])
    }

    /// 302 to the redirect URI with `error`, `error_description`, `state` and `iss` (RFC 6749 §4.1.2.1).
    static func redirect(_ request: AuthorizationRequest, error: String, description: String) -> Response {
        redirect(request, parameters: [("error", error), ("error_description", description)])
    }

    private static func redirect(_ request: AuthorizationRequest, parameters: [(String, String)]) -> Response {
        var parameters = parameters
        if let state = request.state { parameters.append(("state", state)) }
        // RFC 9207 §2: the issuer, on success and error responses alike.
        if let issuer = request.issuer { parameters.append(("iss", issuer)) }
        let query = parameters.map { "\(FormURLEncoding.encode($0.0))=\(FormURLEncoding.encode($0.1))" }.joined(separator: "&")
        // RFC 6749 §3.1.2: a query the redirect URI already has is kept.
        let separator = request.redirectURI.contains("?") ? "&" : "?"
        var headers = HTTPFields()
        headers[.location] = request.redirectURI + separator + query
        headers[.cacheControl] = "no-store"
        return Response(status: .found, headers: headers, body: .init())
    }

    /// `text/html`, never cached, never framed (RFC 6749 §10.13, clickjacking).
    private static var htmlHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[.contentSecurityPolicy] = "frame-ancestors 'none'"
        return headers
    }

    /// Escapes text for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
