import Foundation
@_spi(Generated) import SesameDescription
import Yams

extension DiscoveryImport {
    /// A value the import writes into a mapping: its key, its YAML text, and what it must read
    /// back as once the edited text is parsed again.
    struct EditedValue {
        var key: String
        /// The YAML written: a scalar, or a one-line flow sequence.
        var yaml: String
        /// Whether the value is a sequence (replaced only where a one-line flow sequence stands).
        var isSequence: Bool
        /// Whether `node`, read back from the edited text, is the value meant.
        var readsBack: (Node) -> Bool

        /// A string (or `true`/`false`), written plain when it reads back the same, else quoted.
        static func scalar(_ key: String, _ value: String) -> EditedValue {
            EditedValue(key: key, yaml: DiscoveryImport.scalar(value), isSequence: false) { $0.scalar?.string == value }
        }

        /// A sequence of strings, written as a flow sequence (`[RS256, ES256]`).
        static func strings(_ key: String, _ values: [String]) -> EditedValue {
            EditedValue(key: key, yaml: "[" + values.map(DiscoveryImport.scalar).joined(separator: ", ") + "]", isSequence: true) {
                guard let items = $0.sequence else { return false }
                return items.map { $0.scalar?.string } == values.map { Optional($0) }
            }
        }
    }

    /// Updates the `openID` mapping of `text` (already edited for `authorizationServer`, whose
    /// base URL is `baseURL`) with the document's `jwks_uri` (`keys`), the signing algorithms
    /// Sesame accepts (`algorithms`) and `end_session_endpoint` (`endSession`): each replaced
    /// where it stands or inserted, under the same rules and read-back check as
    /// `authorizationServer`; a value that names the same URL or set as the schema's is left as
    /// written. What the document does not say is kept, with a warning when the schema declares it.
    /// - Returns: the new text; nil (with an error in `diagnostics`) when it cannot be edited.
    static func updateOpenID(
        _ text: String, file: String, with document: DiscoveryDocument, baseURL: String, algorithms policy: Algorithms,
        diagnostics: inout [Diagnostic]
    ) -> String? {
        guard let root = try? Yams.compose(yaml: text), case .mapping(let top) = root,
            let existing = top.first(where: { $0.key.string == "openID" })
        else { return text }
        let at = location(existing.key, file)
        let mapping: Node.Mapping? = if case .mapping(let mapping) = existing.value { mapping } else { nil }
        func current(_ key: String) -> Node? { mapping?.first { $0.key.string == key }?.value }
        let server = URL(string: baseURL)
        var values: [EditedValue] = []
        if let jwks = document.jwksURI {
            let keys = openIDKeys(jwks, baseURL: baseURL)
            let same = current("keys")?.scalar.flatMap { written in
                server.flatMap { OpenIDDescription(keys: written.string).keysURL(authorizationServer: $0) } == jwks
            }
            if same != true { values.append(.scalar("keys", keys)) }
        }
        let algorithms = openIDAlgorithms(document)
        if !algorithms.isEmpty {
            let written = current("algorithms")?.sequence.map { $0.compactMap { $0.scalar?.string } } ?? []
            let wanted = wantedAlgorithms(algorithms, written: written, policy: policy, at: at, diagnostics: &diagnostics)
            if Set(written) != Set(wanted) { values.append(.strings("algorithms", wanted)) }
        } else if !document.signingAlgorithms.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "id_token_signing_alg_values_supported lists no algorithm Sesame accepts (\(document.signingAlgorithms.joined(separator: ", "))): openID.algorithms not written",
                    at: at))
        }
        if let endpoint = document.endSessionEndpoint, let endSession = openIDEndSession(endpoint, of: document, baseURL: baseURL) {
            let same = current("endSession")?.scalar.flatMap { written in
                server.flatMap { OpenIDDescription(keys: "/", endSession: written.string).endSessionURL(authorizationServer: $0) }
                    == endpoint
            }
            if same != true { values.append(.scalar("endSession", endSession)) }
        } else if document.endSessionEndpoint == nil, current("endSession") != nil {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "the metadata has no end_session_endpoint: openID.endSession is kept; remove it if the provider has no end-session endpoint any more",
                    at: at))
        }
        guard !values.isEmpty else { return text }
        let lineEnding = text.contains("\r\n") ? "\r\n" : "\n"
        var lines = text.components(separatedBy: lineEnding)
        guard edit(&lines, top: top, name: "openID", existing: existing, values: values, file: file, diagnostics: &diagnostics) else {
            return nil
        }
        let updated = lines.joined(separator: lineEnding)
        if let refusal = verify(updated, against: root, mapping: "openID", values: values, file: file) {
            diagnostics.append(refusal)
            return nil
        }
        return updated
    }

    /// `openID.algorithms` for a server that signs with `algorithms` (those Sesame accepts), when
    /// the schema lists `written`, under `policy`; a note at `at` says what was kept, dropped or
    /// added, and how to get the other behaviour.
    static func wantedAlgorithms(
        _ algorithms: [String], written: [String], policy: Algorithms, at: SourceLocation, diagnostics: inout [Diagnostic]
    ) -> [String] {
        guard !written.isEmpty else { return algorithms }
        let listed = algorithms.joined(separator: ", ")
        switch policy {
        case .merge:
            // Every algorithm the schema lists stays: another server it is used with may sign so.
            let added = algorithms.filter { !written.contains($0) }
            if !added.isEmpty {
                diagnostics.append(
                    Diagnostic(
                        .note,
                        "openID.algorithms: \(added.joined(separator: ", ")) added, which this server signs with; "
                            + "--algorithms merge keeps the schema's \(written.joined(separator: ", "))",
                        at: at))
            }
            return written + added
        case .replace:
            // A schema that accepts fewer algorithms than the provider signs with chose to:
            // metadata never widens a check the schema narrowed (as for issuerInResponses).
            // What the provider does not list is dropped from the schema's choice; only when
            // nothing of it is left is the provider's list written.
            let kept = algorithms.filter(written.contains)
            if !kept.isEmpty, Set(kept) != Set(algorithms) {
                diagnostics.append(
                    Diagnostic(
                        .note,
                        "openID.algorithms accepts fewer algorithms than the provider lists (\(listed)): kept as the schema's choice",
                        at: at))
            }
            let dropped = written.filter { !algorithms.contains($0) }
            if !dropped.isEmpty {
                diagnostics.append(
                    Diagnostic(
                        .note,
                        "openID.algorithms: \(dropped.joined(separator: ", ")) dropped, which this server does not sign with (it lists \(listed)); "
                            + "for a schema used with servers that sign differently, run with --algorithms merge to keep the schema's",
                        at: at))
            }
            return kept.isEmpty ? algorithms : kept
        }
    }

    /// `openID.keys` for `jwks`: a path on the authorization server when it is under `baseURL`
    /// (without a query), else the absolute URL.
    static func openIDKeys(_ jwks: URL, baseURL: String) -> String {
        pathOnServer(jwks, baseURL: baseURL, allowingQuery: false) ?? jwks.absoluteString
    }

    /// What to do with `userinfo_endpoint`: an operation is the schema's to declare (its
    /// response model is the schema's), so the note says which one `openID.userInfo` would name.
    static func userInfoNote(_ endpoint: URL, baseURL: String) -> String {
        guard let path = pathOnServer(endpoint, baseURL: baseURL, allowingQuery: false) else {
            return "userinfo_endpoint \(endpoint.absoluteString) is not under the authorization server's base URL: "
                + "openID.userInfo names an operation there, so none can be declared for it"
        }
        return "userinfo_endpoint: \(path) on the authorization server: declare an operation { request: GET \(path), "
            + "server: authorization, authenticated: true, response: a model with a required string sub } "
            + "and name it in openID.userInfo (not written)"
    }

    /// The algorithms of `id_token_signing_alg_values_supported` that Sesame accepts, in the
    /// document's order: `none` and the HMAC ones are never written.
    static func openIDAlgorithms(_ document: DiscoveryDocument) -> [String] {
        var seen: Set<String> = []
        return document.signingAlgorithms.filter { OpenIDDescription.signingAlgorithms.contains($0) && seen.insert($0).inserted }
    }

    /// `openID.endSession` for `endpoint`: a path (with its query) when it is under `baseURL`,
    /// the absolute URL when it is on the issuer's or the authorization server's origin, nil
    /// when it is elsewhere (the schema refuses it: the ID token would go to another origin).
    static func openIDEndSession(_ endpoint: URL, of document: DiscoveryDocument, baseURL: String) -> String? {
        if let path = pathOnServer(endpoint, baseURL: baseURL, allowingQuery: true) { return path }
        let origins = [URL(string: document.issuer), URL(string: baseURL)].compactMap { $0.map(WebOrigin.of) }
        return origins.contains(WebOrigin.of(endpoint)) ? endpoint.absoluteString : nil
    }

    /// `url`'s path below `baseURL`'s (its query too when `allowingQuery`), when both share an
    /// origin and the path starts with the base URL's; nil otherwise.
    private static func pathOnServer(_ url: URL, baseURL: String, allowingQuery: Bool) -> String? {
        guard let base = URL(string: baseURL), WebOrigin.of(url) == WebOrigin.of(base),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false), allowingQuery || components.query == nil
        else { return nil }
        var prefix = base.path
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let path = components.percentEncodedPath
        guard path.hasPrefix(prefix + "/") else { return nil }
        return String(path.dropFirst(prefix.count)) + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
