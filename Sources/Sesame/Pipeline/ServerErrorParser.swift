import Foundation
import HTTPTypes
@_spi(Generated) import SesameDescription

/// Reads an error response through the schema's error catalogue.
enum ServerErrorParser {
    /// The error the response describes. The code comes from the envelope's code field, or
    /// else from the `error` of a Bearer challenge; the category from the catalogue, or else
    /// from the status. A body that is empty, not JSON by its content type, or malformed
    /// (truncated, not UTF-8, not an object, a code that is not a string) gives no code or
    /// message from the body: the status is what the caller needs, and a broken error page
    /// from a proxy must not hide it.
    static func parse(status: Int, headerFields: HTTPFields, body: Data, catalogue: ErrorCatalogue) -> ServerErrorResponse {
        var code: String?
        var message: String?
        if isJSON(headerFields: headerFields, body: body), let value = try? JSONDecoder().decode(JSONValue.self, from: body) {
            code = value[catalogue.codeField]?.stringValue
            message = catalogue.messageField.flatMap { value[$0]?.stringValue }
        }
        if code == nil { code = BearerChallenge.error(in: headerFields) }
        let category = code.flatMap { catalogue.codes[$0] } ?? ErrorCatalogue.category(forStatus: status)
        return ServerErrorResponse(status: status, code: code, message: message, category: category)
    }

    private static func isJSON(headerFields: HTTPFields, body: Data) -> Bool {
        guard !body.isEmpty else { return false }
        if let contentType = headerFields[.contentType]?.lowercased() { return contentType.contains("json") }
        let first = body.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}
