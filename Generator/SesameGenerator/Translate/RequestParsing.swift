import Yams
@_spi(Generated) import SesameDescription

extension NodeReader {
    /// `POST /oauth/token` → the request `name`, unauthenticated, JSON-encoded, without
    /// client authentication and on the API (the caller sets what its kind changes), with
    /// its path parameters.
    mutating func requestLine(_ node: Node, _ what: String, name: String) -> RequestLineIR? {
        guard let text = string(node, what) else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let method = RequestMethod(rawValue: String(parts[0]).uppercased()) else {
            error("\(what) must be '<METHOD> <path>', such as 'POST /auth/guest', found '\(text)'", at: node)
            return nil
        }
        let path = String(parts[1])
        guard path.hasPrefix("/") else {
            error("the path of \(what) must start with '/'", at: node)
            return nil
        }
        if path.contains("?") || path.contains("#") {
            error("the path of \(what) must not hold a query or a fragment; declare query parameters with 'in: query'", at: node)
            return nil
        }
        var names: [String] = []
        var remainder = Substring(path)
        while let open = remainder.firstIndex(of: "{") {
            guard let close = remainder[open...].firstIndex(of: "}") else {
                error("unclosed '{' in the path of \(what)", at: node)
                return nil
            }
            let name = String(remainder[remainder.index(after: open)..<close])
            if !Identifier.isValid(name) {
                error("path parameter '{\(name)}' must be an identifier (letters, digits and _)", at: node)
            }
            names.append(name)
            remainder = remainder[remainder.index(after: close)...]
        }
        return RequestLineIR(
            value: RequestDescription(name: name, method: method, path: path, authenticated: false), pathParameters: names,
            location: location(of: node))
    }

    /// A string, number, boolean or null with `{placeholders}` parsed.
    mutating func template(_ node: Node, _ what: String) -> Template? {
        guard case .scalar(let scalar) = node else {
            error("\(what) must be a scalar value or a \"{placeholder}\"", at: node)
            return nil
        }
        let text = scalar.string
        if scalar.style == .plain, !text.contains("{") {
            if node.isNullScalar { return .literal(.null) }
            if ["true", "false"].contains(text), let value = node.bool { return .literal(.bool(value)) }
            if let value = node.int { return .literal(.integer(value)) }
            if let value = node.float, value.isFinite, text.contains(".") || text.lowercased().contains("e") {
                return .literal(.number(value))
            }
        }
        var parts: [TemplatePart] = []
        var remainder = Substring(text)
        while let open = remainder.firstIndex(of: "{") {
            guard let close = remainder[open...].firstIndex(of: "}") else {
                error("unclosed '{' in \(what)", at: node)
                return nil
            }
            if open > remainder.startIndex { parts.append(.text(String(remainder[..<open]))) }
            let path = remainder[remainder.index(after: open)..<close].split(separator: ".", omittingEmptySubsequences: false).map(
                String.init)
            if path.isEmpty || !path.allSatisfy(Identifier.isValid) {
                error(
                    "placeholder '{\(remainder[remainder.index(after: open)..<close])}' in \(what) must be a name or step.field", at: node)
                return nil
            }
            parts.append(.variable(Placeholder(path: path, provided: [])))
            remainder = remainder[remainder.index(after: close)...]
        }
        if !remainder.isEmpty { parts.append(.text(String(remainder))) }
        if parts.isEmpty { return .literal(.string("")) }
        if parts.count == 1, case .variable(let path) = parts[0] { return .variable(path) }
        if parts.allSatisfy({ if case .text = $0 { return true } else { return false } }) { return .literal(.string(text)) }
        return .interpolation(parts)
    }

    /// Body fields: `{ name: template }`.
    mutating func templateFields(_ node: Node, _ what: String) -> [TemplateFieldIR] {
        guard let entries = mapping(node, what) else { return [] }
        return entries.compactMap { entry in
            template(entry.value, "field '\(entry.key)' of \(what)").map {
                TemplateFieldIR(name: entry.key, value: $0, location: location(of: entry.value))
            }
        }
    }

    mutating func encoding(_ entry: Entry?, _ what: String) -> BodyEncoding {
        guard let entry, let text = string(entry.value, "encoding") else { return .json }
        if let value = BodyEncoding(rawValue: text) { return value }
        error("encoding of \(what) must be json or form, found '\(text)'", at: entry.value)
        return .json
    }

    mutating func clientAuthentication(_ entry: Entry?) -> ClientAuthentication {
        guard let entry, let text = string(entry.value, "clientAuthentication") else { return .none }
        if let value = ClientAuthentication(rawValue: text) { return value }
        error("clientAuthentication must be basic, post or none (RFC 6749 §2.3), found '\(text)'", at: entry.value)
        return .none
    }

    /// The server a request goes to: its `server` key (`api` or `authorization`), else the
    /// default of its kind.
    mutating func server(_ entry: Entry?, default fallback: ServerRole) -> ServerRole {
        guard let entry, let text = string(entry.value, "server") else { return fallback }
        if let value = ServerRole(rawValue: text) { return value }
        let hint = Suggestion.hint(for: text, among: ServerRole.allCases.map(\.rawValue)) ?? ""
        error("server must be api or authorization, found '\(text)'\(hint)", at: entry.value)
        return fallback
    }

    /// A name used as a Swift API name and in templates: letters, digits and `_`.
    mutating func identifier(_ entry: Entry, _ what: String) -> Bool {
        if Identifier.isValid(entry.key) { return true }
        error("\(what) '\(entry.key)' is not a valid identifier: use letters, digits and _, not starting with a digit", at: entry.keyNode)
        return false
    }
}

enum Identifier {
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.properties.isAlphabetic && first.isASCII) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}
