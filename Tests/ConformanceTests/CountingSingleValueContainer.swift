/// A single-value container that counts the errors its decoding throws (``CountingDecoder``).
struct CountingSingleValueContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    let failures: CountingDecoder.Failures

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try failures.counted { try base.decode(type) } }
    func decode(_ type: String.Type) throws -> String { try failures.counted { try base.decode(type) } }
    func decode(_ type: Double.Type) throws -> Double { try failures.counted { try base.decode(type) } }
    func decode(_ type: Float.Type) throws -> Float { try failures.counted { try base.decode(type) } }
    func decode(_ type: Int.Type) throws -> Int { try failures.counted { try base.decode(type) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try failures.counted { try base.decode(type) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try failures.counted { try base.decode(type) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try failures.counted { try base.decode(type) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try failures.counted { try base.decode(type) } }
    func decode(_ type: UInt.Type) throws -> UInt { try failures.counted { try base.decode(type) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try failures.counted { try base.decode(type) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try failures.counted { try base.decode(type) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try failures.counted { try base.decode(type) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try failures.counted { try base.decode(type) } }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try failures.counted { try base.decode(type) } }
}
