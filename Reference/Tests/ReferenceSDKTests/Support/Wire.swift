import Foundation
import ReferenceSDK
import Testing
@_spi(Generated) import SesameDescription

/// JSON in and out of the generated models, the way an app meets them: a plain
/// `JSONDecoder`, or `OperationResponse.decode` as the generated operations call it.
enum Wire {
    static func data(_ json: String) -> Data { Data(json.utf8) }

    /// Decodes with a plain `JSONDecoder`, as an app that decodes a payload itself does.
    static func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try JSONDecoder().decode(type, from: data(json))
    }

    /// Encodes with sorted keys, so the text can be compared.
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder.sesame.encode(value), as: UTF8.self)
    }

    /// The encoded value as a `JSONValue`, to compare objects without caring about key order.
    static func json(_ value: some Encodable) throws -> JSONValue {
        try JSONValue(encoding: value)
    }

    /// Parses JSON text into a `JSONValue`.
    static func json(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data(text))
    }

    /// Encodes then decodes with plain coders.
    static func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
        try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
    }

    /// The `SchemaViolation` a plain `JSONDecoder` reports for `json`: thrown as it is, or
    /// inside `DecodingError.dataCorrupted` (both are what users may see). Records an issue
    /// and returns nil when decoding succeeds or fails some other way.
    static func violation<Value: Decodable>(
        decoding type: Value.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> SchemaViolation? {
        do {
            let value = try decode(type, json)
            Issue.record("expected a SchemaViolation, decoded \(value)", sourceLocation: sourceLocation)
        } catch let violation as SchemaViolation {
            return violation
        } catch DecodingError.dataCorrupted(let context) where context.underlyingError is SchemaViolation {
            return context.underlyingError as? SchemaViolation
        } catch {
            Issue.record("expected a SchemaViolation, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// The reason of the `SesameError.decoding` that `OperationResponse.decode` throws for
    /// `json` (what a caller of a generated operation sees), or nil with an issue recorded.
    static func decodingFailure<Value: Decodable>(
        _ type: Value.Type, _ json: String, operation: String = "test",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> String? {
        let response = OperationResponse(operation: operation, status: 200, body: data(json))
        do {
            let value = try response.decode(type)
            Issue.record("expected SesameError.decoding, decoded \(value)", sourceLocation: sourceLocation)
        } catch SesameError.decoding(let failedOperation, let reason) {
            #expect(failedOperation == operation, sourceLocation: sourceLocation)
            return reason
        } catch {
            Issue.record("expected SesameError.decoding, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// The `SchemaViolation` that `body` throws, or nil with an issue recorded.
    static func violation(
        sourceLocation: SourceLocation = #_sourceLocation, of body: () throws -> Void
    ) -> SchemaViolation? {
        do {
            try body()
            Issue.record("expected a SchemaViolation", sourceLocation: sourceLocation)
        } catch let violation as SchemaViolation {
            return violation
        } catch {
            Issue.record("expected a SchemaViolation, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }
}

/// Dates used across the tests, built from their wire text so that a test can say what it
/// expects without a formatter.
enum Instants {
    /// 2024-05-01T12:00:00Z.
    static let noonUTC = Date(timeIntervalSince1970: 1_714_564_800)
    /// 2023-11-14T22:13:20Z.
    static let wholeSecond = Date(timeIntervalSince1970: 1_700_000_000)
}
