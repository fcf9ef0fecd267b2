import Foundation
@_spi(Generated) import SesameDescription
import Yams

/// Writes what a ``DiscoveryDocument`` says into the `authorizationServer` mapping of a
/// schema's sdk.yaml text, and into its `openID` mapping when it has one, as a text edit that
/// keeps every comment, every other key and the layout: the values of `baseURL`, `issuer` and
/// `issuerInResponses` (and of `openID`'s `keys`, `algorithms` and `endSession`) are replaced
/// where they are, missing ones are inserted before the mapping's first key (or after the `{`
/// of a flow mapping), and a missing `authorizationServer` is inserted before the key that
/// follows `server`. Pure: the CLI reads and writes the file.
public enum DiscoveryImport {
    /// What the import did.
    public struct Result: Sendable, Hashable {
        /// The new text; nil when the text could not be edited (see `diagnostics`).
        public var text: String?
        /// Errors (the text is not YAML, `authorizationServer` is not a mapping), and notes for
        /// each endpoint: where the schema's request lines must point, and what the format
        /// has no key for yet.
        public var diagnostics: [Diagnostic]
    }

    /// What an import does with the `openID.algorithms` a schema already lists.
    public enum Algorithms: String, Sendable, Hashable, CaseIterable {
        /// The algorithms the server signs with; when the schema lists some of them, only
        /// those (metadata never widens a check the schema narrowed). The schema's others are
        /// dropped.
        case replace
        /// The schema's algorithms, kept, and those the server signs with, added: for a schema
        /// used with several servers (environments) that sign differently.
        case merge
    }

    /// Updates `text` (sdk.yaml, named `file` in diagnostics) with `document`; `algorithms`
    /// says what becomes of the `openID.algorithms` the schema lists.
    public static func update(
        _ text: String, file: String, with document: DiscoveryDocument, algorithms: Algorithms = .replace
    ) -> Result {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let root = try? Yams.compose(yaml: text), case .mapping(let top) = root else {
            return Result(text: nil, diagnostics: [Diagnostic(.error, "the file is not a YAML mapping", at: start)])
        }
        // The file's own line ending, kept on every line (a CRLF file stays CRLF).
        let lineEnding = text.contains("\r\n") ? "\r\n" : "\n"
        var lines = text.components(separatedBy: lineEnding)
        let existing = top.first { $0.key.string == "authorizationServer" }
        func existingValue(_ key: String) -> String? {
            guard case .mapping(let mapping)? = existing?.value else { return nil }
            return mapping.first { $0.key.string == key }?.value.string
        }
        let baseURL = baseURL(for: document, existing: existingValue("baseURL"))
        var values: [EditedValue] = [.scalar("baseURL", baseURL), .scalar("issuer", document.issuer)]
        let hasOpenID = top.contains { $0.key.string == "openID" }
        var diagnostics = notes(
            for: document, baseURL: baseURL, hasOpenID: hasOpenID, at: existing.map { location($0.key, file) } ?? start)
        // RFC 9207 reads an absent flag as false, but turning off a check the schema has on
        // because a server left the member out would weaken it silently: keep it, and say so.
        var sendsIssuer = document.issuerInResponses ?? false
        if document.issuerInResponses == nil, existingValue("issuerInResponses") == "true" {
            sendsIssuer = true
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "the metadata does not declare authorization_response_iss_parameter_supported: issuerInResponses stays true; set it to false if the server does not send iss (RFC 9207)",
                    at: existing.map { location($0.key, file) } ?? start))
        }
        values.append(.scalar("issuerInResponses", sendsIssuer ? "true" : "false"))
        let result = edit(
            &lines, top: top, name: "authorizationServer", existing: existing, values: values, file: file,
            diagnostics: &diagnostics)
        guard result else { return Result(text: nil, diagnostics: diagnostics) }
        let updated = lines.joined(separator: lineEnding)
        if let refusal = verify(updated, against: root, mapping: "authorizationServer", values: values, file: file) {
            diagnostics.append(refusal)
            return Result(text: nil, diagnostics: diagnostics)
        }
        // The openID block, edited on the text the first edit made (its marks are that text's).
        let openID =
            hasOpenID
            ? updateOpenID(updated, file: file, with: document, baseURL: baseURL, algorithms: algorithms, diagnostics: &diagnostics)
            : updated
        return Result(
            text: openID.flatMap { updateDPoP($0, file: file, with: document, diagnostics: &diagnostics) }, diagnostics: diagnostics)
    }

    /// Edits the top-level mapping `name` of `lines` in place (inserting it when `existing` is
    /// nil); false (with an error in `diagnostics`) when it cannot.
    static func edit(
        _ lines: inout [String], top: Node.Mapping, name: String, existing: (key: Node, value: Node)?, values: [EditedValue],
        file: String, diagnostics: inout [Diagnostic]
    ) -> Bool {
        guard let existing else {
            // Before the top-level key after `server`, or at the end.
            let keys = Array(top.map(\.key))
            let after = keys.firstIndex { $0.string == "server" }.flatMap { keys.indices.contains($0 + 1) ? keys[$0 + 1] : nil }
            let block = ["\(name):"] + values.map { "  \($0.key): \($0.yaml)" }
            if let after, let line = after.mark?.line {
                lines.insert(contentsOf: block, at: line - 1)
            } else {
                if lines.last == "" { lines.removeLast() }
                lines += block + [""]
            }
            return true
        }
        guard case .mapping(let mapping) = existing.value else {
            diagnostics.append(
                Diagnostic(
                    .error, "\(name) is not a mapping: write it as one, then run again", at: location(existing.key, file)))
            return false
        }
        // Replacements from the last position to the first, so earlier positions stay valid.
        var missing: [EditedValue] = []
        var replacements: [(line: Int, column: Int, value: String)] = []
        for value in values {
            let key = value.key
            if let pair = mapping.first(where: { $0.key.string == key }) {
                guard let mark = pair.value.mark, pair.value.scalar != nil || (pair.value.sequence != nil && value.isSequence) else {
                    diagnostics.append(
                        Diagnostic(
                            .error, "\(key) is not a \(value.isSequence ? "sequence" : "scalar"): cannot replace it",
                            at: location(pair.key, file)))
                    return false
                }
                if let reason = unsafeToReplace(pair.value, at: mark, key: pair.key, lines: lines) {
                    diagnostics.append(
                        Diagnostic(
                            .error, "\(key) \(reason): sesame discover edits only a one-line value of its own; write it so, then run again",
                            at: location(pair.key, file)))
                    return false
                }
                replacements.append((mark.line, mark.column, value.yaml))
            } else {
                missing.append(value)
            }
        }
        // A flow mapping starts with `{` where its mark points (Yams does not keep the style).
        let flow =
            mapping.mark.map { mark in
                let line = Array(lines[mark.line - 1])
                return line.indices.contains(mark.column - 1) && line[mark.column - 1] == "{"
            } ?? false
        for replacement in replacements.sorted(by: { ($0.line, $0.column) > ($1.line, $1.column) }) {
            lines[replacement.line - 1] = replacingScalar(
                in: lines[replacement.line - 1], at: replacement.column - 1, with: replacement.value, flow: flow)
        }
        if !missing.isEmpty, let mark = mapping.mark {
            if flow {
                var line = Array(lines[mark.line - 1])
                let brace = mark.column - 1
                let inserted = " " + missing.map { "\($0.key): \($0.yaml)," }.joined(separator: " ")
                line.insert(contentsOf: inserted, at: min(brace + 1, line.count))
                lines[mark.line - 1] = String(line)
            } else if let first = mapping.first?.key.mark {
                let indent = String(repeating: " ", count: first.column - 1)
                lines.insert(contentsOf: missing.map { "\(indent)\($0.key): \($0.yaml)" }, at: first.line - 1)
            }
        }
        return true
    }

    /// The existing base URL when it is on the token endpoint's origin (it may carry a path
    /// prefix), else that origin.
    static func baseURL(for document: DiscoveryDocument, existing: String?) -> String {
        let origin = WebOrigin.of(document.tokenEndpoint)
        if let existing, let url = URL(string: existing), WebOrigin.of(url) == origin { return existing }
        return origin
    }

    /// Notes: the path of each endpoint under `baseURL`, for the schema's request lines, and
    /// the metadata the format has no key for; without an `openID` block (`hasOpenID`), the
    /// one to write (whether a method is an OpenID Connect sign-in is the schema's decision).
    static func notes(for document: DiscoveryDocument, baseURL: String, hasOpenID: Bool, at location: SourceLocation) -> [Diagnostic] {
        let prefix = URL(string: baseURL)?.path ?? ""
        var notes: [Diagnostic] = []
        for (name, url) in document.originEndpoints {
            let path = url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
            let used =
                switch name {
                case "authorization_endpoint": "a browser step's browser.request"
                case "token_endpoint": "credential.refresh.request and the token requests of methods"
                case "revocation_endpoint": "lifecycle.revoke.request"
                case "pushed_authorization_request_endpoint": "a browser step's browser.pushed"
                default: "a device step's device.request"
                }
            notes.append(Diagnostic(.note, "\(name): \(path) on the authorization server: \(used) must use this path", at: location))
        }
        let endSession = document.endSessionEndpoint.flatMap { openIDEndSession($0, of: document, baseURL: baseURL) }
        if let endpoint = document.endSessionEndpoint, endSession == nil {
            notes.append(
                Diagnostic(
                    .warning,
                    "end_session_endpoint \(endpoint.absoluteString) is not on the issuer's or the authorization server's origin: not written as openID.endSession (sign-out sends the ID token there); an app that trusts it sets EndSessionConfiguration",
                    at: location))
        }
        if !hasOpenID, let jwks = document.jwksURI {
            let keys = openIDKeys(jwks, baseURL: baseURL)
            let algorithms = openIDAlgorithms(document)
            let algorithmsKey = algorithms.isEmpty ? "" : ", algorithms: [\(algorithms.joined(separator: ", "))]"
            let endSessionKey = endSession.map { ", endSession: \(scalar($0))" } ?? ""
            notes.append(
                Diagnostic(
                    .note,
                    "jwks_uri: \(keys): to validate ID tokens (OpenID Connect), sdk.yaml needs openID: { keys: \(keys)\(algorithmsKey)\(endSessionKey) } (not written)",
                    at: location))
        } else if !hasOpenID, let endSession {
            notes.append(
                Diagnostic(
                    .note, "end_session_endpoint: \(endSession): openID.endSession, written only into an openID block (not written)",
                    at: location))
        }
        if let userInfo = document.userinfoEndpoint {
            notes.append(Diagnostic(.note, userInfoNote(userInfo, baseURL: baseURL), at: location))
        }
        return notes
    }

    static func location(_ node: Node, _ file: String) -> SourceLocation {
        SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    /// `value` as a YAML scalar: plain when it reads back as the same string, else double-quoted.
    static func scalar(_ value: String) -> String {
        if value == "true" || value == "false" { return value }
        let plain =
            !value.isEmpty && !value.contains(": ") && !value.contains(" #") && !value.hasSuffix(":")
            && !"-?:,[]{}#&*!|>'\"%@`".contains(value.first!) && !value.contains(where: { ",[]{}".contains($0) || $0.isNewline })
        if plain { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `line` with the scalar that starts at character `column` replaced by `value`: a quoted
    /// scalar to its closing quote, a plain one to a comment, the end of the line, or (in a
    /// flow mapping) a `,` or `}`.
    static func replacingScalar(in line: String, at column: Int, with value: String, flow: Bool) -> String {
        let characters = Array(line)
        guard column < characters.count else { return line }
        var end = column
        switch characters[column] {
        case "[":
            // A one-line flow sequence (unsafeToReplace checked its `]` is on the line).
            end = closingBracket(in: characters, from: column).map { $0 + 1 } ?? characters.count
        case "\"", "'":
            let quote = characters[column]
            end += 1
            while end < characters.count {
                if characters[end] == "\\" && quote == "\"" {
                    end += 2
                    continue
                }
                if characters[end] == quote {
                    if quote == "'" && end + 1 < characters.count && characters[end + 1] == "'" {
                        end += 2
                        continue
                    }
                    end += 1
                    break
                }
                end += 1
            }
        default:
            while end < characters.count {
                if characters[end] == "#" && end > column && characters[end - 1] == " " { break }
                if flow && (characters[end] == "," || characters[end] == "}") { break }
                end += 1
            }
            while end > column && characters[end - 1] == " " { end -= 1 }
        }
        return String(characters[..<column]) + value + String(characters[min(end, characters.count)...])
    }

    /// The index of the `]` that closes the `[` at `start`, skipping quoted text and nested
    /// brackets; nil when the line does not close it.
    static func closingBracket(in characters: [Character], from start: Int) -> Int? {
        var depth = 0
        var quote: Character?
        var index = start
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == "\\" && open == "\"" {
                    index += 1
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }
}
