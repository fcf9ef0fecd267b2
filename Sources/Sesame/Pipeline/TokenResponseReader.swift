import Foundation
@_spi(Generated) import SesameDescription

/// Reads a token response (RFC 6749 §5.1) with the field names the schema declares.
enum TokenResponseReader {
    /// The credential in a token response; `expiresAt` is `now` plus the expiry field.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` naming the field that is
    ///   missing or of the wrong type (an expiry that is negative or not finite too), never
    ///   its value.
    static func credential(
        from response: JSONValue, description: CredentialDescription, operation: String,
        now: Date
    ) throws -> Credential {
        guard case .object(let fields) = response else {
            throw SesameError.decoding(operation: operation, reason: "$: expected a token response object")
        }
        guard let accessToken = fields[description.accessTokenField]?.stringValue, !accessToken.isEmpty else {
            throw SesameError.decoding(
                operation: operation,
                reason: "$.\(description.accessTokenField): expected a non-empty string")
        }
        var refreshToken: String?
        if let field = description.refreshTokenField, let value = fields[field], value != .null {
            guard let token = value.stringValue else {
                throw SesameError.decoding(operation: operation, reason: "$.\(field): expected a string")
            }
            refreshToken = token
        }
        var expiresAt: Date?
        if let field = description.expiresInField, let value = fields[field], value != .null {
            let seconds: Double? =
                switch value {
                case .integer(let integer): Double(integer)
                case .number(let number): number
                case .string(let text): Double(text)
                default: nil
                }
            // `"NaN"` or `"inf"` would give an expiry that every comparison misses (never
            // refreshed) and that the session store cannot encode; a lifetime is never negative.
            guard let seconds, seconds.isFinite, seconds >= 0 else {
                throw SesameError.decoding(operation: operation, reason: "$.\(field): expected a number of seconds")
            }
            expiresAt = now.addingTimeInterval(seconds)
        }
        return Credential(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt)
    }

    /// Decodes a response body as JSON; an empty body is `null`.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` for a malformed or truncated body.
    static func json(_ body: Data, operation: String) throws -> JSONValue {
        guard !body.isEmpty else { return .null }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: body)
        } catch {
            throw SesameError.decoding(operation: operation, reason: "$: the data is not valid JSON")
        }
    }
}
