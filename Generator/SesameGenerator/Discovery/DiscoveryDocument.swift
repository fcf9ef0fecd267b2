import Foundation
import SesameDescription

/// An authorization server's metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2), read
/// and checked for `sesame discover`: what the format can say about the server, and the rest
/// of what an OpenID provider publishes.
public struct DiscoveryDocument: Sendable, Hashable {
    /// `issuer`: an https URL (http on loopback) without query or fragment.
    public var issuer: String
    /// `authorization_endpoint`, where a browser step opens its authorization request.
    public var authorizationEndpoint: URL
    /// `token_endpoint`, whose origin becomes the authorization server's `baseURL`.
    public var tokenEndpoint: URL
    /// `revocation_endpoint` (RFC 7009), if the server has one.
    public var revocationEndpoint: URL?
    /// `device_authorization_endpoint` (RFC 8628), if the server has one.
    public var deviceAuthorizationEndpoint: URL?
    /// `end_session_endpoint` (RP-Initiated Logout 1.0): sdk.yaml's `openID.endSession`.
    public var endSessionEndpoint: URL?
    /// `userinfo_endpoint`: `sesame discover` says which operation `openID.userInfo` would name.
    public var userinfoEndpoint: URL?
    /// `jwks_uri`, the ID tokens' keys: sdk.yaml's `openID.keys`.
    public var jwksURI: URL?
    /// `authorization_response_iss_parameter_supported` (RFC 9207 §3); nil when absent
    /// (which RFC 9207 reads as false; ``DiscoveryImport`` keeps a schema's `true`).
    public var issuerInResponses: Bool?
    /// `id_token_signing_alg_values_supported`; empty when absent.
    public var signingAlgorithms: [String]
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the server binds tokens to keys
    /// with DPoP proofs signed so; empty when absent.
    public var dpopAlgorithms: [String] = []
    /// `pushed_authorization_request_endpoint` (RFC 9126 §5): a browser step's `browser.pushed`.
    public var pushedAuthorizationRequestEndpoint: URL? = nil

    /// Documents larger than this many bytes are refused.
    public static let maximumSize = 1 << 20

    /// Reads a document from `data`, named `file` in diagnostics, positioned at the member
    /// they are about.
    /// - Parameters:
    ///   - expectedIssuer: the issuer the document must name exactly (Discovery §4.3,
    ///     RFC 8414 §3.3): the issuer URL as given, the prefix of a well-known URL, or
    ///     `--issuer`; nil checks none.
    ///   - alsoAccepted: other spellings accepted for it (``location(of:)`` says which).
    /// - Returns: the document, nil when there is an error; the diagnostics (errors for a
    ///   document that is not a JSON object, a missing or mistyped member, an issuer that
    ///   differs, an endpoint that is not `https` (or `http` on loopback); warnings for what
    ///   Sesame cannot use).
    public static func read(
        _ data: Data, file: String, expectedIssuer: String?, alsoAccepted: [String] = []
    ) -> (DiscoveryDocument?, [Diagnostic]) {
        var reader = Reader(text: String(decoding: data.prefix(maximumSize), as: UTF8.self), file: file)
        guard data.count <= maximumSize else {
            return (nil, [Diagnostic(.error, "the discovery document is larger than \(maximumSize) bytes", at: reader.start)])
        }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            return (nil, [Diagnostic(.error, "the discovery document is not a JSON object", at: reader.start)])
        }
        reader.object = object
        let issuer = reader.issuer()
        if let issuer, let expectedIssuer, issuer != expectedIssuer, !alsoAccepted.contains(issuer) {
            reader.error(
                "issuer '\(issuer)' is not the expected issuer '\(expectedIssuer)' (the URL's, OpenID Connect Discovery 1.0 §4.3, or --issuer): refusing it",
                member: "issuer")
        }
        let authorization = reader.endpoint("authorization_endpoint", required: true)
        let token = reader.endpoint("token_endpoint", required: true)
        var document: DiscoveryDocument?
        if let issuer, let authorization, let token {
            document = DiscoveryDocument(
                issuer: issuer, authorizationEndpoint: authorization, tokenEndpoint: token,
                revocationEndpoint: reader.endpoint("revocation_endpoint"),
                deviceAuthorizationEndpoint: reader.endpoint("device_authorization_endpoint"),
                endSessionEndpoint: reader.endpoint("end_session_endpoint"), userinfoEndpoint: reader.endpoint("userinfo_endpoint"),
                jwksURI: reader.endpoint("jwks_uri"), issuerInResponses: reader.bool("authorization_response_iss_parameter_supported"),
                signingAlgorithms: reader.strings("id_token_signing_alg_values_supported"),
                dpopAlgorithms: reader.strings("dpop_signing_alg_values_supported"),
                pushedAuthorizationRequestEndpoint: reader.endpoint("pushed_authorization_request_endpoint"))
        }
        let challengeMethods = reader.strings("code_challenge_methods_supported")
        if !challengeMethods.isEmpty, !challengeMethods.contains("S256") {
            reader.warning(
                "code_challenge_methods_supported does not list S256, the PKCE method Sesame sends",
                member: "code_challenge_methods_supported")
        }
        if document?.signingAlgorithms.contains("none") == true {
            reader.warning(
                "id_token_signing_alg_values_supported lists none: unsigned ID tokens are never accepted",
                member: "id_token_signing_alg_values_supported")
        }
        if let document {
            let origins = Set(document.originEndpoints.map { WebOrigin.of($0.url) })
            if origins.count > 1 {
                reader.error(
                    "the authorization, token, revocation, device and pushed authorization endpoints are on several origins (\(origins.sorted().joined(separator: ", "))): the format has one authorization server origin",
                    member: "token_endpoint")
            }
        }
        return (reader.hasErrors ? nil : document, reader.diagnostics)
    }

    /// `scheme://host[:port]` of `url` as written (RFC 8414 §3.1's authority, into which the
    /// well-known path is inserted), without any user name or password.
    /// (Foundation always splits a URL it parsed; the normalised origin is the fallback.)
    static func authority(of url: URL) -> String {
        guard var components = componentsWithoutCredentials(of: url) else { return WebOrigin.of(url) }
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        return components.string ?? WebOrigin.of(url)
    }

    /// `url` without any user name or password, the rest as written; `url` itself when it has
    /// none. (Foundation splits every URL it parsed; should it not, the origin stands in, and
    /// failing that a URL nothing fetches: never one that still carries them.)
    static func withoutCredentials(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil else { return url }
        return componentsWithoutCredentials(of: url)?.url ?? URL(string: WebOrigin.of(url)) ?? URL(fileURLWithPath: "/")
    }

    /// `url`'s components with the user name and password removed.
    private static func componentsWithoutCredentials(of url: URL) -> URLComponents? {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.user = nil
        components?.password = nil
        return components
    }

    /// Whether `url` is `https` with a host, or `http` on a loopback host.
    @available(*, deprecated, renamed: "WebOrigin.isSecure")
    public static func isSecure(_ url: URL) -> Bool { WebOrigin.isSecure(url) }

    /// The endpoints whose requests the format describes, by metadata name.
    var originEndpoints: [(name: String, url: URL)] {
        [("authorization_endpoint", authorizationEndpoint), ("token_endpoint", tokenEndpoint)]
            + [
                ("revocation_endpoint", revocationEndpoint), ("device_authorization_endpoint", deviceAuthorizationEndpoint),
                ("pushed_authorization_request_endpoint", pushedAuthorizationRequestEndpoint),
            ]
            .compactMap { name, url in url.map { (name, $0) } }
    }

    /// The issuer a discovery URL names (Discovery §4, RFC 8414 §3.1), the other spellings
    /// of it the document may use, and the URL to fetch:
    /// - `…/.well-known/openid-configuration` names its prefix, and
    ///   `origin/.well-known/oauth-authorization-server/path` names `origin/path`; the prefix
    ///   followed by `/` is accepted too, as Auth0 publishes `https://tenant.auth0.com/`;
    /// - any other URL is the issuer exactly as given (a trailing `/` kept), whose
    ///   `/.well-known/openid-configuration` is fetched after removing a trailing `/`
    ///   (Discovery §4.1); only a bare origin is also accepted with or without its `/`, the
    ///   same URL (RFC 3986 §6.2.3).
    ///
    /// The issuer is compared with the document's as a string, as RFC 8414 §3.3 and Discovery
    /// §4.3 require ("identical"): the scheme, host and port stay as written, in every form (an
    /// upper-case host or an explicit `:443` is not normalised away, so the document must spell
    /// its issuer the same way).
    ///
    /// A user name or password in `url` is dropped: none of the three carries them (they
    /// would reach sdk.yaml, diagnostics and logs, and discovery documents are public, so the
    /// fetch needs none). This never fails; a caller that would rather refuse such a URL, as
    /// `sesame discover` does before fetching, checks `url.user` and `url.password` first.
    public static func location(of given: URL) -> (issuer: String, alsoAccepted: [String], fetch: URL) {
        let url = withoutCredentials(given)
        let text = url.absoluteString
        let openID = "/.well-known/openid-configuration"
        if text.hasSuffix(openID) {
            let prefix = String(text.dropLast(openID.count))
            return (prefix, [prefix + "/"], url)
        }
        let oauth = "/.well-known/oauth-authorization-server"
        if url.path.hasPrefix(oauth) {
            let issuer = authority(of: url) + url.path.dropFirst(oauth.count)
            return (issuer, [issuer + "/"], url)
        }
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        let bareOrigin = url.path.isEmpty || url.path == "/"
        return (text, bareOrigin ? [text == trimmed ? text + "/" : trimmed] : [], URL(string: trimmed + openID) ?? url)
    }
}

extension DiscoveryDocument {
    /// Reads members, positioning each diagnostic at the member's name in the text.
    fileprivate struct Reader {
        let text: String
        let file: String
        var object: [String: JSONValue] = [:]
        var diagnostics: [Diagnostic] = []

        init(text: String, file: String) {
            self.text = text
            self.file = file
        }

        var start: SourceLocation { SourceLocation(file: file, line: 1, column: 1) }
        var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

        /// Where `"member"` first appears as a name, else the start.
        func location(of member: String) -> SourceLocation {
            guard let range = text.range(of: "\"\(member)\"") else { return start }
            let before = text[..<range.lowerBound]
            let line = before.count(where: { $0 == "\n" }) + 1
            let column =
                before.distance(from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex, to: before.endIndex)
                + 1
            return SourceLocation(file: file, line: line, column: column)
        }

        mutating func error(_ message: String, member: String) {
            diagnostics.append(Diagnostic(.error, message, at: location(of: member)))
        }

        mutating func warning(_ message: String, member: String) {
            diagnostics.append(Diagnostic(.warning, message, at: location(of: member)))
        }

        mutating func issuer() -> String? {
            guard let issuer = object["issuer"]?.stringValue else {
                error("the discovery document has no issuer string", member: "issuer")
                return nil
            }
            guard let url = URL(string: issuer), url.query == nil, url.fragment == nil, WebOrigin.isSecure(url) else {
                error(
                    "issuer '\(issuer)' must be an https URL (http only on loopback) without a query or fragment (RFC 8414 §2)",
                    member: "issuer")
                return nil
            }
            return issuer
        }

        mutating func endpoint(_ member: String, required: Bool = false) -> URL? {
            guard let value = object[member] else {
                if required { error("the discovery document has no \(member)", member: member) }
                return nil
            }
            guard let text = value.stringValue, let url = URL(string: text), url.fragment == nil, WebOrigin.isSecure(url) else {
                error("\(member) must be an https URL (http only on loopback) without a fragment", member: member)
                return nil
            }
            return url
        }

        mutating func bool(_ member: String) -> Bool? {
            guard let value = object[member] else { return nil }
            guard case .bool(let flag) = value else {
                error("\(member) must be true or false", member: member)
                return nil
            }
            return flag
        }

        mutating func strings(_ member: String) -> [String] {
            guard let value = object[member] else { return [] }
            guard case .array(let items) = value, case let strings = items.compactMap(\.stringValue), strings.count == items.count
            else {
                error("\(member) must be an array of strings", member: member)
                return []
            }
            return strings
        }
    }
}
