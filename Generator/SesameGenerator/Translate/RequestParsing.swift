import Foundation
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
        if path.contains("#") {
            error("the path of \(what) must not hold a fragment", at: node)
            return nil
        }
        var target = path
        if let mark = path.firstIndex(of: "?") {
            guard let query = constantQuery(path[path.index(after: mark)...], what, at: node) else { return nil }
            target = String(path[..<mark]) + (query.isEmpty ? "" : "?" + query)
        }
        var names: [String] = []
        var remainder = Substring(target.prefix { $0 != "?" })
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
            value: RequestDescription(name: name, method: method, path: target, authenticated: false), pathParameters: names,
            location: location(of: node))
    }

    /// The constant query of a request line (`POST /token?grant_type=password`), as the
    /// runtime sends it: what a query allows stays as written, `%XX` included, and every
    /// other character is percent-encoded as UTF-8, so that nothing is encoded twice.
    /// Nil, with an error, for a placeholder, an empty item or a `%` that starts no escape.
    private mutating func constantQuery(_ query: Substring, _ what: String, at node: Node) -> String? {
        if query.contains("{") || query.contains("}") {
            error(
                "the query of \(what) is constant: declare a value the app gives as a parameter with 'in: query'", at: node)
            return nil
        }
        var items: [String] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: false) where !(item.isEmpty && query.isEmpty) {
            guard let name = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first, !name.isEmpty
            else {
                error("the query of \(what) has an item without a name ('\(item)'); write name=value pairs joined by '&'", at: node)
                return nil
            }
            var encoded = ""
            var scalars = Array(item.unicodeScalars)[...]
            while let scalar = scalars.popFirst() {
                if scalar == "%" {
                    let escape = scalars.prefix(2)
                    guard escape.count == 2, escape.allSatisfy({ $0.properties.isASCIIHexDigit }) else {
                        error("the query of \(what) has a '%' that starts no percent-escape; write '%25' for a '%'", at: node)
                        return nil
                    }
                    encoded += "%" + String(String.UnicodeScalarView(escape)).uppercased()
                    scalars = scalars.dropFirst(2)
                } else if scalar.isASCII, CharacterSet.constantQuery.contains(scalar) {
                    encoded.unicodeScalars.append(scalar)
                } else {
                    encoded += String(scalar).utf8.map { "%" + String($0, radix: 16, uppercase: true).paddedToTwo }.joined()
                }
            }
            items.append(encoded)
        }
        return items.joined(separator: "&")
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

extension RequestLineIR {
    /// The names of the request line's constant query items, percent-decoded.
    var constantQueryNames: Set<String> {
        guard let query = value.constantQuery else { return [] }
        return Set(
            query.split(separator: "&").map { item in
                let name = String(item.prefix { $0 != "=" })
                return name.removingPercentEncoding ?? name
            })
    }

    /// Adds `name=value` to the request line's constant query, each percent-encoded as the
    /// runtime encodes a query parameter's value.
    mutating func appendConstantQuery(name: String, value text: String) {
        value.path += (value.constantQuery == nil ? "?" : "&") + RequestDescription.queryItem(name: name, value: text)
    }
}

extension CharacterSet {
    /// What a constant query keeps as written: RFC 3986's query characters but `#` (the
    /// request line refuses a fragment) and `%` (an escape is checked on its own).
    fileprivate static let constantQuery: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "%#")
        return set
    }()
}

extension String {
    /// A hex byte written in one digit, with its leading zero.
    fileprivate var paddedToTwo: String { count == 1 ? "0" + self : self }
}
