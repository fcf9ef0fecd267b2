import Foundation
@_spi(Generated) import SesameDescription

/// Decodes a `Decodable` value from a ``JSONValue`` already in hand, as a default
/// `JSONDecoder` decodes the value's JSON text: what a `$ref` inside a ``SchemaCheck`` decodes
/// (``ModelCoding/reference(_:)``), without encoding the value back to JSON and parsing it
/// again.
///
/// The same values decode, and a value that does not throws the same `DecodingError` case,
/// of the same type, at the same coding path as `JSONDecoder` (a number that does not fit its
/// type is `dataCorrupted` at the root, as `JSONDecoder` reports it; a `null` for a `Bool` is
/// a `typeMismatch`); only the descriptions differ, and `allKeys` is sorted where
/// `JSONDecoder`'s order changes from process to process. `ConformanceTests`' `ReferenceDecodingConformanceTests` compares the two. The
/// types `JSONDecoder` decodes with a strategy of its own (`Date`, `Data`, `URL`, `Decimal`)
/// are not decoded here: ``Unsupported`` is thrown, and the caller decodes the JSON text.
struct JSONValueDecoder: Decoder {
    /// Thrown for a type `JSONDecoder` decodes with a strategy of its own.
    struct Unsupported: Error {}

    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes `type` from `value`.
    /// - Throws: `DecodingError` as `JSONDecoder` would; ``Unsupported`` for `Date`, `Data`,
    ///   `URL` and `Decimal`, anywhere in the value.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoder(value: value, codingPath: []).decodeValue(T.self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch([String: Any].self, container: "keyed") }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else { throw mismatch([Any].self, container: "unkeyed") }
        return UnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Values

    /// `type` decoded from this decoder's value, or ``Unsupported`` for the types
    /// `JSONDecoder` treats apart.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw Unsupported() }
        return try T(from: self)
    }

    /// What `JSONDecoder` throws for a value of another type: `valueNotFound` on `null`,
    /// `typeMismatch` otherwise.
    func mismatch(_ type: Any.Type, container: String? = nil) -> DecodingError {
        if case .null = value {
            let what = container.map { "\($0) decoding container" } ?? "value of type \(type)"
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Cannot get \(what) -- found null value instead"))
        }
        return .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(value.typeName) instead."))
    }

    /// A number that does not fit its type: `JSONDecoder` reports it at the root.
    static func doesNotFit(_ type: Any.Type) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON: a number does not fit in \(type)."))
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .integer(let number):
            guard let result = T(exactly: number) else { throw Self.doesNotFit(T.self) }
            return result
        case .number(let number):
            guard let result = T(exactly: number) else { throw Self.doesNotFit(T.self) }
            return result
        default: throw mismatch(T.self)
        }
    }

    func double() throws -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let number): return number
        default: throw mismatch(Double.self)
        }
    }
}

extension JSONValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let result) = value else {
            // `JSONDecoder` finds a type mismatch, not a missing value, in a `null` for a Bool.
            throw DecodingError.typeMismatch(
                Bool.self, .init(codingPath: codingPath, debugDescription: "Expected to decode Bool but found \(value.typeName) instead."))
        }
        return result
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let result) = value else { throw mismatch(String.self) }
        return result
    }

    func decode(_ type: Double.Type) throws -> Double {
        do { return try double() } catch { throw mismatch(Double.self) }
    }

    func decode(_ type: Float.Type) throws -> Float {
        let number: Double
        do { number = try double() } catch { throw mismatch(Float.self) }
        let result = Float(number)
        guard result.isFinite else { throw Self.doesNotFit(Float.self) }
        return result
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }
}

extension JSONValueDecoder {
    /// The key of an array element, spelled as `JSONDecoder` spells it.
    struct IndexKey: CodingKey {
        var stringValue: String { "Index \(index)" }
        var intValue: Int? { index }
        let index: Int

        init(_ index: Int) { self.index = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.index = intValue }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: [String: JSONValue]
        let codingPath: [any CodingKey]

        /// The object's keys, sorted: `JSONDecoder` lists them in an order of its hashing,
        /// which changes from process to process; sorted, the first failure is always the same.
        var allKeys: [Key] { object.keys.sorted().compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

        func decoder(for key: any CodingKey) throws -> JSONValueDecoder {
            guard let value = object[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
            }
            return JSONValueDecoder(value: value, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).decodeNil() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).decode(Bool.self) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).decode(String.self) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).decode(Double.self) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).decode(Float.self) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).integer(Int.self) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).integer(Int8.self) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).integer(Int16.self) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).integer(Int32.self) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).integer(Int64.self) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).integer(UInt.self) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).integer(UInt8.self) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).integer(UInt16.self) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).integer(UInt32.self) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).integer(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decodeValue(T.self) }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder(for: key).container(keyedBy: NestedKey.self)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder(for: key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            JSONValueDecoder(value: object["super"] ?? .null, codingPath: codingPath + [AnyCodingKey("super")])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let array: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(array: [JSONValue], codingPath: [any CodingKey]) {
            self.array = array
            self.codingPath = codingPath
        }

        var count: Int? { array.count }
        var isAtEnd: Bool { currentIndex >= array.count }

        /// The decoder of the next element; the index moves on only when `body` succeeds.
        mutating func next<T>(_ type: Any.Type, _ body: (JSONValueDecoder) throws -> T) throws -> T {
            let path = codingPath + [IndexKey(currentIndex)]
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
            }
            let result = try body(JSONValueDecoder(value: array[currentIndex], codingPath: path))
            currentIndex += 1
            return result
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Any?.self,
                    .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
            }
            guard array[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(Bool.self) } }
        mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(String.self) } }
        mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(Double.self) } }
        mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(Float.self) } }
        mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.integer(Int.self) } }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.integer(Int8.self) } }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.integer(Int16.self) } }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.integer(Int32.self) } }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.integer(Int64.self) } }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.integer(UInt.self) } }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.integer(UInt8.self) } }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.integer(UInt16.self) } }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.integer(UInt32.self) } }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.integer(UInt64.self) } }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decodeValue(T.self) } }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next([String: Any].self) { try $0.container(keyedBy: NestedKey.self) }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next([Any].self) { try $0.unkeyedContainer() }
        }

        mutating func superDecoder() throws -> any Decoder { try next(Any.self) { $0 } }
    }
}
