import Foundation

extension ModelCoding {
    /// Whether the value being decoded is being tried against a schema rather than decoded
    /// as its own type: a variant of `anyOf`/`oneOf`, or a `$ref` inside a check (`not`,
    /// `if`, …). There an unknown enum value or discriminated variant does not match, as
    /// JSON Schema says; only a value decoded as its own type keeps it as `.unknown`.
    @TaskLocal static var isStrict = false

    /// Runs `body` strictly (see ``unknownValue(_:keyword:)``): generated `anyOf`/`oneOf`
    /// types try each variant this way.
    public static func strictly<Value>(_ body: () throws -> Value) rethrows -> Value {
        try $isStrict.withValue(true, operation: body)
    }

    /// Called by a generated enum or discriminated union that decoded a value it does not
    /// know, before keeping it as `.unknown`: accepted when the value is decoded as its own
    /// type (the SDK's forward-compatibility promise), refused when it is tried against a
    /// schema (``strictly(_:)``).
    /// - Throws: ``SchemaViolation`` (`keyword`) when decoding strictly.
    public static func unknownValue(_ decoder: any Decoder, keyword: String) throws {
        if isStrict {
            throw SchemaViolation(
                codingPath: decoder.codingPath, keyword: keyword, message: "the value is not one the schema declares")
        }
    }
}

@_spi(Generated) extension KeyedDecodingContainer {
    /// The coding path of the property `key`: where a check on its value failed. One call,
    /// so a generated model's decoder does not build the array at each check.
    public func codingPath(appending key: Key) -> [any CodingKey] {
        codingPath + [key]
    }

    /// Decodes an optional property that is not nullable: nil when the key is absent, and
    /// a ``SchemaViolation`` (`type`) when it holds `null` and `Value` does not accept null
    /// (JSON Schema refuses `{"name": null}` unless the property's schema allows null).
    ///
    /// One container call when the key holds a value (`decodeIfPresent`, as plain `Codable`
    /// makes), two when it is absent; `null` is told from absent only on the way out.
    public func decodeIfPresentNotNull<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        if let value = try decodeIfPresent(Value.self, forKey: key) { return value }
        guard contains(key) else { return nil }
        // The key holds null. A type whose schema allows null (a `type` list with "null", any
        // value) decodes it.
        if let value = try? decode(Value.self, forKey: key) { return value }
        throw SchemaViolation(
            codingPath: codingPath + [key], keyword: "type",
            message: "found null; the property may be left out but is not nullable")
    }
}
