import Foundation
import HTTPTypes
import OpenAPIRuntime
import Sesame

/// A ``Browser`` without a screen, for tests and the demo: it drives a login page over
/// HTTP as a person in a browser would. It GETs the authorization request, finds the form
/// `<form id="login">` of the page (the reference server's), fills in its hidden fields,
/// `username` and `password`, submits it with the `decision` button, follows redirects,
/// and stops at the first redirect to the redirect URI, which it returns without loading.
///
/// It never logs: the page, the form and the redirect carry the code and the password.
public struct HeadlessBrowser: Browser, CustomStringConvertible, CustomReflectable {
    /// What the person at the login page does.
    public enum Action: Sendable, Hashable {
        /// Signs in and allows the app (`decision=allow`).
        case allow
        /// Signs in and refuses the app (`decision=deny`).
        case deny
        /// Closes the browser on the login page: ``BrowserSignInError/cancelled``.
        case close
    }

    /// A page the browser did not expect; the error holds no page content.
    public struct UnexpectedPage: Error, Sendable, Hashable, CustomStringConvertible {
        public var status: Int
        public var reason: String
        public var description: String { "headless browser: \(reason) (HTTP \(status))" }
    }

    public var username: String
    /// Never shown: the description and the mirror leave it out.
    private let password: String
    public var action: Action
    let transport: any ClientTransport
    /// The requests the browser sent, as `METHOD scheme://host:port/path` (no query): the
    /// origins the sign-in went through.
    public let visited: VisitLog

    /// The headless browsers' own URLSession (a browser is another program than the app): not
    /// the services' `StreamingURLSessionTransport.shared`, whose connections to a host the
    /// services' long-lived event streams hold. It never follows redirects either.
    public static let ownTransport = StreamingURLSessionTransport(configuration: .ephemeral)

    /// Creates a browser that signs in as `username`.
    public init(
        username: String, password: String, action: Action = .allow,
        transport: any ClientTransport = HeadlessBrowser.ownTransport
    ) {
        self.username = username
        self.password = password
        self.action = action
        self.transport = transport
        self.visited = VisitLog()
    }

    /// Loads `url`, submits the login form once, and returns the redirect to `redirectURI`.
    /// - Throws: ``BrowserSignInError/cancelled`` for ``Action/close``; ``UnexpectedPage``
    ///   for a page without the login form, a second login page (a wrong password), an
    ///   error status, or more than 10 hops.
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        var next = Request(url: url, method: .get, form: nil)
        var submitted = false
        for _ in 0..<10 {
            let (response, html) = try await load(next)
            let status = response.status.code
            if (300..<400).contains(status) {
                guard let location = response.headerFields[.location],
                    let target = URL(string: location, relativeTo: next.url)?.absoluteURL
                else { throw UnexpectedPage(status: status, reason: "a redirect without a usable Location") }
                if target.absoluteString.hasPrefix(redirectURI.absoluteString) { return target }
                next = Request(url: target, method: .get, form: nil)
                continue
            }
            guard status == 200, let form = LoginForm(html: html) else {
                throw UnexpectedPage(status: status, reason: "no login form on the page")
            }
            if submitted { throw UnexpectedPage(status: status, reason: "the login page came back: wrong user name or password") }
            if action == .close { throw BrowserSignInError.cancelled }
            guard let action = URL(string: form.action, relativeTo: next.url)?.absoluteURL else {
                throw UnexpectedPage(status: status, reason: "the form's action is not a URL")
            }
            var fields = form.hidden
            fields.append(("username", username))
            fields.append(("password", password))
            fields.append(("decision", self.action == .allow ? "allow" : "deny"))
            next = Request(url: action, method: .post, form: fields)
            submitted = true
        }
        throw UnexpectedPage(status: 0, reason: "more than 10 hops")
    }

    /// `HeadlessBrowser(username: …, action: …)`, without the password.
    public var description: String { "HeadlessBrowser(username: \(username), action: \(action))" }

    /// A mirror without the password (the service's configuration holds the browser).
    public var customMirror: Mirror {
        Mirror(self, children: ["username": username, "action": action], displayStyle: .struct)
    }

    private struct Request {
        var url: URL
        var method: HTTPRequest.Method
        var form: [(String, String)]?
    }

    private func load(_ request: Request) async throws -> (HTTPResponse, String) {
        guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: true) else {
            throw UnexpectedPage(status: 0, reason: "not a URL")
        }
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.fragment = nil
        guard let baseURL = components.url else { throw UnexpectedPage(status: 0, reason: "not a URL") }
        visited.append("\(request.method) \(baseURL.absoluteString)\(path.split(separator: "?").first ?? "")")
        var fields = HTTPFields()
        fields[.accept] = "text/html"
        var body: HTTPBody?
        if let form = request.form {
            fields[.contentType] = "application/x-www-form-urlencoded"
            body = HTTPBody(form.map { "\(FormField.encode($0.0))=\(FormField.encode($0.1))" }.joined(separator: "&"))
        }
        let (response, responseBody) = try await transport.send(
            HTTPRequest(method: request.method, scheme: nil, authority: nil, path: path, headerFields: fields),
            body: body, baseURL: baseURL, operationID: "headless-browser")
        var html = ""
        if let responseBody { html = try await String(collecting: responseBody, upTo: 1 << 20) }
        return (response, html)
    }
}

/// The requests a ``HeadlessBrowser`` sent, in order.
public final class VisitLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    public init() {}

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }

    /// `METHOD scheme://host:port/path`, without queries.
    public var all: [String] { lock.withLock { entries } }
}

/// The login form of a page: `<form id="login" … action="…">`, its hidden inputs.
struct LoginForm {
    var action: String
    var hidden: [(String, String)]

    init?(html: String) {
        guard let start = html.range(of: #"<form[^>]*id="login"[^>]*>"#, options: .regularExpression),
            let end = html.range(of: "</form>", range: start.upperBound..<html.endIndex)
        else { return nil }
        let tag = LoginForm.attributes(String(html[start]))
        action = tag["action"] ?? ""
        hidden = []
        var rest = html[start.upperBound..<end.lowerBound]
        while let input = rest.range(of: #"<input[^>]*>"#, options: .regularExpression) {
            let attributes = LoginForm.attributes(String(rest[input]))
            if attributes["type"] == "hidden", let name = attributes["name"] {
                hidden.append((name, attributes["value"] ?? ""))
            }
            rest = rest[input.upperBound...]
        }
    }

    /// The `name="value"` attributes of a tag, HTML-unescaped.
    static func attributes(_ tag: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(tag)
        while let match = rest.range(of: #"[A-Za-z-]+="[^"]*""#, options: .regularExpression) {
            let text = rest[match]
            let equals = text.firstIndex(of: "=")!
            let name = String(text[..<equals]).lowercased()
            let value = String(text[text.index(equals, offsetBy: 2)..<text.index(before: text.endIndex)])
            result[name] = unescape(value)
            rest = rest[match.upperBound...]
        }
        return result
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
