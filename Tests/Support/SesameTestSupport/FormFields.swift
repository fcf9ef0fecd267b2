import Foundation

/// The fields of an `application/x-www-form-urlencoded` text, as in-memory back-ends read a
/// token request: `+` is a space, `%XX` a byte, a field without `=` is empty, and a field
/// named twice keeps its last value. Text that does not percent-decode reads as empty.
public func formFields(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map {
            String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
        }
        fields[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    return fields
}

/// The query parameters of `url` by name (the first of a repeated one), percent-decoded.
public func queryParameters(of url: URL) -> [String: String] {
    var parameters: [String: String] = [:]
    for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] where parameters[item.name] == nil {
        parameters[item.name] = item.value ?? ""
    }
    return parameters
}
