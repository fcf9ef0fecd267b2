import Foundation
import HTTPTypes

/// Reads the `error` parameter of an RFC 6750 `WWW-Authenticate: Bearer` challenge.
enum BearerChallenge {
    /// The `error` of the first Bearer challenge in the response's `WWW-Authenticate`
    /// fields, or nil when there is none.
    static func error(in headerFields: HTTPFields) -> String? {
        for value in headerFields[values: .wwwAuthenticate] {
            if let error = error(inHeaderValue: value) { return error }
        }
        return nil
    }

    /// The `error` parameter of the Bearer challenge in one header value.
    static func error(inHeaderValue value: String) -> String? {
        var scheme: String?
        for item in splitOutsideQuotes(value) {
            var item = item.trimmingCharacters(in: .whitespaces)
            // An item that starts with a token followed by a space opens a new challenge.
            if let space = item.firstIndex(of: " "), !item[..<space].contains("=") {
                scheme = String(item[..<space]).lowercased()
                item = item[item.index(after: space)...].trimmingCharacters(in: .whitespaces)
            } else if !item.contains("=") {
                scheme = item.lowercased()
                continue
            }
            guard scheme == "bearer", let equals = item.firstIndex(of: "=") else { continue }
            let name = item[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            guard name == "error" else { continue }
            var parameter = item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if parameter.hasPrefix("\""), parameter.hasSuffix("\""), parameter.count >= 2 {
                parameter = String(parameter.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            return parameter
        }
        return nil
    }

    private static func splitOutsideQuotes(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                items.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        items.append(current)
        return items
    }
}
