import Foundation
import HTTPTypes

/// Reads an error response through the schema's error catalogue.
enum ServerErrorParser {
    /// The error the response describes. The code comes from the envelope's code field, or
    /// else from the `error` of a Bearer challenge; the category from the catalogue, or else
    /// from the status. An empty body, or one that is not JSON by its content type, gives a
    /// response without a code or message.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` when a JSON body is malformed
    ///   or truncated.
    static func parse(status: Int, headerFields: HTTPFields, body: Data, catalogue: ErrorCatalogue,
                      operation: String) throws -> ServerErrorResponse
    {
        var code: String?
        var message: String?
        if isJSON(headerFields: headerFields, body: body) {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: body) else {
                throw SesameError.decoding(operation: operation, reason: "$: the error body is not valid JSON")
            }
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
