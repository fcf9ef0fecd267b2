import Foundation
@_spi(Generated) import Sesame
@_spi(Generated) @testable import SesameOpenID
import Testing

/// The claims of a kept ID token decoded into the schema's model: a mismatch names the path and
/// the rule, never the claim's value (an e-mail address, a name: personal data that would reach
/// logs with the error).
@Suite struct IDTokenClaimsModelTests {
    static let value = "jane.doe@example.com"

    /// A JWT whose payload is `claims` (not signed: the accessor reads a token validated before).
    static func idToken(_ claims: String) -> String {
        Data(#"{"alg":"RS256"}"#.utf8).base64URL + "." + Data(claims.utf8).base64URL + ".c2lnbmF0dXJl"
    }

    /// Refuses its claim the way a generated model's check does: a violation quoting the value.
    struct CheckedClaims: Decodable, Sendable {
        init(from decoder: any Decoder) throws {
            let email = try decoder.container(keyedBy: AnyCodingKey.self).decode(String.self, forKey: AnyCodingKey("email"))
            throw SchemaViolation(path: "$.email", keyword: "format", message: "expected an e-mail address, found \"\(email)\"")
        }
    }

    /// Refuses its claim the way Foundation does: a `dataCorrupted` whose description quotes it.
    struct CorruptedClaims: Decodable, Sendable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            let email = try container.decode(String.self, forKey: AnyCodingKey("email"))
            throw DecodingError.dataCorruptedError(
                forKey: AnyCodingKey("email"), in: container, debugDescription: "invalid value \(email)")
        }
    }

    struct AnyCodingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test func aModelsCheckNamesItsPathAndKeywordNotTheValue() {
        let token = Self.idToken(#"{"email":"\#(Self.value)"}"#)
        #expect(throws: IDTokenClaimsMismatch(reason: "$.email: format")) {
            _ = try IDTokenClaims.decode(CheckedClaims.self, fromValidated: token)
        }
    }

    @Test func aCorruptedValueIsNamedByItsPathOnly() {
        let token = Self.idToken(#"{"email":"\#(Self.value)"}"#)
        #expect(throws: IDTokenClaimsMismatch(reason: "$.email: the value does not decode")) {
            _ = try IDTokenClaims.decode(CorruptedClaims.self, fromValidated: token)
        }
    }
}
