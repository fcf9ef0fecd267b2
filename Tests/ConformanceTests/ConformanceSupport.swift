import Foundation
import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// Decoding instances of the conformance fixture's models (Tests/Fixtures/Conformance/Schema).
enum Instance {
    /// Decodes `json` as `Model`.
    static func decode<Model: Decodable>(_ model: Model.Type, _ json: String) throws -> Model {
        try JSONDecoder().decode(Model.self, from: Data(json.utf8))
    }

    /// The violation decoding `json` as `Model` throws, or nil when it decodes (or fails
    /// otherwise: the caller's `#expect` on the result then fails).
    static func violation<Model: Decodable>(_ model: Model.Type, _ json: String) -> SchemaViolation? {
        do {
            _ = try decode(model, json)
            return nil
        } catch let violation as SchemaViolation {
            return violation
        } catch {
            return nil
        }
    }

    /// Whether `json` decodes as `Model`.
    static func accepts<Model: Decodable>(_ model: Model.Type, _ json: String) -> Bool {
        (try? decode(model, json)) != nil
    }

    /// The violation encoding `value` throws, or nil when it encodes; another error is
    /// recorded as an issue (and nil returned).
    static func encodingViolation(_ value: some Encodable) -> SchemaViolation? {
        do {
            _ = try JSONEncoder.sesame.encode(value)
            return nil
        } catch let violation as SchemaViolation {
            return violation
        } catch {
            Issue.record("expected a SchemaViolation, found \(error)")
            return nil
        }
    }

    /// The JSON text of a value, keys sorted.
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder.sesame.encode(value), as: UTF8.self)
    }
}
