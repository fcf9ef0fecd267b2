import Foundation

/// A `format: date-time` string on the wire, decoded to a `Date` whatever the decoder's
/// date strategy (RFC 3339, with or without fractional seconds).
public struct DateTimeValue: Codable, Sendable, Hashable {
    public var value: Date
    public init(_ value: Date) { self.value = value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        value = try ModelCoding.dateTime(text, codingPath: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ModelCoding.dateTimeString(value))
    }
}

/// A `format: uuid` string on the wire.
public struct UUIDValue: Codable, Sendable, Hashable {
    public var value: UUID
    public init(_ value: UUID) { self.value = value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        value = try ModelCoding.uuid(text, codingPath: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.uuidString.lowercased())
    }
}

/// A `format: uri` string on the wire.
public struct URIValue: Codable, Sendable, Hashable {
    public var value: URL
    public init(_ value: URL) { self.value = value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        value = try ModelCoding.uri(text, codingPath: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.absoluteString)
    }
}

/// A `format: byte` string on the wire: octets in base64 (RFC 4648 §4), with or without
/// its `=` padding; whitespace and the URL-safe alphabet are refused.
public struct Base64Value: Codable, Sendable, Hashable {
    public var value: Data
    public init(_ value: Data) { self.value = value }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        value = try ModelCoding.base64(text, codingPath: decoder.codingPath)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.base64EncodedString())
    }
}
