import Foundation

/// Any JSON value, kept as it was received.
///
/// Generated models use it for `additionalProperties: true`, for payloads of events the SDK
/// does not know, and the runtime uses it for the arguments of authentication methods.
/// Decoding never fails on valid JSON; numbers keep their integer form when they have one.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        // Leaves first (they outnumber containers), the likeliest first: a failed attempt
        // throws, and throwing is most of what decoding a JSONValue costs.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let number = try? container.decode(Double.self) {
            // Any JSON number decodes as a Double; one with an integer form keeps it.
            if number.rounded() == number, abs(number) < 9.3e18, let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else {
                self = .number(number)
            }
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string this value holds, or nil when it is not a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value at `key` when this is an object, else nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The value as it reads in a form body or a URL: strings as they are, numbers and
    /// booleans in their JSON spelling, null as the empty string, containers as JSON text.
    public var formValue: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return value
        case .array, .object:
            let data = (try? JSONEncoder.sesame.encode(self)) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }
}

extension JSONValue {
    /// Encodes any `Encodable` value as a `JSONValue`.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public init(encoding value: some Encodable) throws {
        let data = try JSONEncoder.sesame.encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }
}

@_spi(Generated) extension JSONEncoder {
    /// The encoder Sesame uses for request bodies: sorted keys, so the same value always
    /// gives the same bytes.
    public static var sesame: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
