@_spi(Generated) import SesameDescription

/// A decoder of one flat JSON object of strings and nulls that records every call a model's
/// decoder makes on it (ModelDecodingCostTests): the keyed container's calls by name and key,
/// and how many times the single-value container was asked for. Decodes `String` and
/// `JSONValue` only.
final class SpyDecoder: Decoder {
    enum Value: Equatable {
        case string(String)
        case null
    }

    final class Calls {
        /// "decodeIfPresent name", "contains name", "decodeNil name", "decode name", "allKeys".
        var keyed: [String] = []
        var singleValue = 0
        /// How many keyed containers were asked for.
        var containers = 0
    }

    let object: [String: Value]
    let calls = Calls()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ object: [String: Value]) {
        self.object = object
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        calls.containers += 1
        return KeyedDecodingContainer(Keyed<Key>(object: object, calls: calls))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "an object"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        calls.singleValue += 1
        throw DecodingError.typeMismatch(String.self, .init(codingPath: [], debugDescription: "the spy decodes no single value"))
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: [String: Value]
        let calls: Calls
        var codingPath: [any CodingKey] { [] }

        var allKeys: [Key] {
            calls.keyed.append("allKeys")
            return object.keys.sorted().compactMap { Key(stringValue: $0) }
        }

        func contains(_ key: Key) -> Bool {
            calls.keyed.append("contains \(key.stringValue)")
            return object[key.stringValue] != nil
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            calls.keyed.append("decodeNil \(key.stringValue)")
            return try value(key) == .null
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try present(type, key)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try present(type, key)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            calls.keyed.append("decode \(key.stringValue)")
            return try convert(value(key), to: type, key)
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as Any.Type, key) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Any.Type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Any.Type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Any.Type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Any.Type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Any.Type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Any.Type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Any.Type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Any.Type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as Any.Type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as Any.Type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as Any.Type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as Any.Type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as Any.Type, key) }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "the spy is flat"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key], debugDescription: "the spy is flat"))
        }

        func superDecoder() throws -> any Decoder { SpyDecoder([:]) }
        func superDecoder(forKey key: Key) throws -> any Decoder { SpyDecoder([:]) }

        private func present<T>(_ type: T.Type, _ key: Key) throws -> T? {
            calls.keyed.append("decodeIfPresent \(key.stringValue)")
            guard let value = object[key.stringValue], value != .null else { return nil }
            return try convert(value, to: type, key)
        }

        private func decode<T>(_ type: Any.Type, _ key: Key) throws -> T {
            calls.keyed.append("decode \(key.stringValue)")
            return try convert(value(key), to: T.self, key)
        }

        private func value(_ key: Key) throws -> Value {
            guard let value = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "absent"))
            }
            return value
        }

        private func convert<T>(_ value: Value, to type: T.Type, _ key: Key) throws -> T {
            switch value {
            case .string(let text):
                if let text = text as? T { return text }
                if let json = JSONValue.string(text) as? T { return json }
            case .null:
                if let json = JSONValue.null as? T { return json }
                throw DecodingError.valueNotFound(type, .init(codingPath: [key], debugDescription: "null"))
            }
            throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "the spy holds strings"))
        }
    }
}
