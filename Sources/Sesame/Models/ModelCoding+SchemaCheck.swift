import Foundation

extension ModelCoding {
    /// Checks `const` on a value of any JSON type, comparing as JSON Schema does (numbers by
    /// value: `-2` equals `-2.0`; `null` equals `null`).
    public static func constant(_ value: JSONValue, _ expected: JSONValue, codingPath: @autoclosure () -> [any CodingKey]) throws {
        if !value.schemaEquals(expected) {
            throw SchemaViolation(codingPath: codingPath(), keyword: "const", message: "expected the schema's constant")
        }
    }

    /// Checks a string against a `format` by its name (`date-time`, `date`, `uuid`, `uri`,
    /// `uri-reference`, `email`, `hostname`, `ipv4`, `ipv6`, `byte`); other names are annotations.
    public static func format(_ text: String, _ format: String, codingPath: @autoclosure () -> [any CodingKey]) throws {
        switch format {
        case "date-time": _ = try dateTime(text, codingPath: codingPath())
        case "date":
            if RFC3339.fullDate(text) == nil {
                throw SchemaViolation(
                    codingPath: codingPath(), keyword: "format",
                    message: "expected a date (RFC 3339), found \"\(SchemaViolation.excerpt(text))\"")
            }
        case "uuid": _ = try uuid(text, codingPath: codingPath())
        case "uri": _ = try uri(text, codingPath: codingPath())
        case "uri-reference": try uriReference(text, codingPath: codingPath())
        case "email": try email(text, codingPath: codingPath())
        case "hostname": try hostname(text, codingPath: codingPath())
        case "ipv4": try ipv4(text, codingPath: codingPath())
        case "ipv6": try ipv6(text, codingPath: codingPath())
        case "byte": _ = try base64(text, codingPath: codingPath())
        default: break
        }
    }

    /// A `$ref` inside a ``SchemaCheck``: the value matches when it decodes as `Model`,
    /// strictly (an enum's unknown value does not match; see ``strictly(_:)``). A failure
    /// names the path and keyword inside the referenced schema.
    ///
    /// `Model` is decoded from the JSON value the check already holds (``JSONValueDecoder``),
    /// not from the value encoded back to JSON text; only a model that decodes a `Date`,
    /// `Data`, `URL` or `Decimal` itself (which `JSONDecoder` decodes with strategies of its
    /// own) takes the JSON text. When the `$ref` applies to an object model's own value (the
    /// check itself, `allOf`, `then`, `else`), ``checkedContainer(_:_:declared:)`` decodes
    /// `Model` from the model's decoder instead, and builds no ``JSONValue`` when it decodes.
    public static func reference<Model: Decodable & SendableMetatype>(
        _ model: Model.Type
    ) -> SchemaCheck.Reference {
        SchemaCheck.Reference(
            { value, codingPath in
                try referenced(Model.self, at: codingPath) {
                    do {
                        _ = try strictly { try JSONValueDecoder.decode(Model.self, from: value) }
                    } catch is JSONValueDecoder.Unsupported {
                        let data = try JSONEncoder().encode(value)
                        _ = try strictly { try JSONDecoder().decode(Model.self, from: data) }
                    }
                }
            },
            decodes: { decoder in (try? strictly { try Model(from: decoder) }) != nil })
    }

    /// A `$ref` to `Model` inside the check of an object model whose own decoding checks every
    /// property of `Model` as `Model` does (the generator emits it when each of `Model`'s
    /// properties is declared by the checking model with the same type, keywords and
    /// nullability, holds no model, which could decode differently strictly, and `Model` has no
    /// check of its own nor closed keys). On the checking model's decoder (the check itself,
    /// `allOf`, `then`, `else`: ``SchemaCheck/InPlace``) the `$ref` is told by the presence of
    /// `Model`'s `required` keys alone, and nothing is decoded for it: the properties' values
    /// are checked when the model decodes them, right after, and a value `Model` refuses is
    /// refused there (as the model's own property error, not the `$ref`'s violation). A key
    /// missing sends the object to the whole check, which decides and names the failure, as
    /// ``reference(_:)`` does; on a ``JSONValue`` (anywhere else) it is ``reference(_:)``.
    ///
    /// Only the model the generator emitted it for may use it: on another model's decoder the
    /// presence of the keys says nothing of their values.
    public static func reference<Model: Decodable & SendableMetatype>(
        _ model: Model.Type, inPlaceRequires required: [PropertyKey]
    ) -> SchemaCheck.Reference {
        let plain = Self.reference(Model.self)
        return SchemaCheck.Reference(
            plain.validate, decodes: { decoder in (try? strictly { try Model(from: decoder) }) != nil }, inPlaceRequired: required)
    }

    /// A `$ref` checked the slow way: `Model` decoded from the value encoded back to JSON
    /// text. For the tests that compare it with ``reference(_:)``.
    static func referenceThroughJSON<Model: Decodable & SendableMetatype>(
        _ model: Model.Type
    ) -> @Sendable (JSONValue, [any CodingKey]) throws -> Void {
        { value, codingPath in
            try referenced(Model.self, at: codingPath) {
                let data = try JSONEncoder().encode(value)
                _ = try strictly { try JSONDecoder().decode(Model.self, from: data) }
            }
        }
    }

    /// Runs `decode`, and makes what it throws a ``SchemaViolation`` at `codingPath` plus the
    /// path inside the referenced schema.
    private static func referenced<Model>(_ model: Model.Type, at codingPath: [any CodingKey], _ decode: () throws -> Void) throws {
        do {
            try decode()
        } catch let violation as SchemaViolation {
            var path = SchemaViolation.jsonPath(codingPath)
            path += violation.path.dropFirst()
            throw SchemaViolation(path: path, keyword: violation.keyword, message: violation.message)
        } catch let error as DecodingError {
            // The type or presence the referenced schema expects, where it failed.
            let (inner, keyword, message) = SchemaViolation.described(error)
            throw SchemaViolation(codingPath: codingPath + inner, keyword: keyword, message: message)
        } catch {
            throw SchemaViolation(
                codingPath: codingPath, keyword: "$ref", message: "the value does not decode as \(String(describing: Model.self))")
        }
    }

    static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
            if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "an array" }
            return "another type"
        }
    }

    /// Checks the JSON value a decoder is at against `check`, as ``check(_:_:)`` does, and
    /// returns the model's keyed container: a generated object model with properties calls
    /// this in place of ``check(_:_:)`` then `container(keyedBy:)`.
    ///
    /// When the check asks only which properties are present (`required`, `minProperties`,
    /// `dependentRequired`) and the model's own container shows it is met (its `declared`
    /// properties present reach `minProperties`: see ``SchemaCheck/isMet(byPresenceIn:declared:)``),
    /// no second container is built and no key is listed. Likewise when the check is told on
    /// the model's own decoder (``SchemaCheck/InPlace``: presence, `allOf`, `not`,
    /// `if`/`then`/`else`, and a `$ref` decoded from this decoder) and is met there: no
    /// ``JSONValue`` of the object is built. Otherwise the check runs in full first, so what
    /// is accepted or refused, and the error, are the same.
    /// - Throws: ``SchemaViolation`` naming the path and keyword of the first failure; the
    ///   decoder's error when the value is not an object.
    public static func checkedContainer(
        _ decoder: any Decoder, _ check: SchemaCheck, declared: [PropertyKey]
    ) throws -> KeyedDecodingContainer<PropertyKey> {
        if check.checksPresenceOnly, let container = try? decoder.container(keyedBy: PropertyKey.self),
            check.isMet(byPresenceIn: container, declared: declared)
        {
            return container
        }
        if check.inPlace != nil, let container = try? decoder.container(keyedBy: PropertyKey.self),
            check.isMet(inPlace: decoder, container: container)
        {
            return container
        }
        try Self.check(decoder, check)
        return try decoder.container(keyedBy: PropertyKey.self)
    }

    /// Checks the JSON value a decoder is at against `check`; used by generated models for
    /// the keywords only the JSON shows (``SchemaCheck``).
    ///
    /// On an object, only what the check reads is decoded (``SchemaCheck/PropertyValues``):
    /// for `minProperties` or `dependentRequired`, the property names the decoder already
    /// holds, not a ``JSONValue`` of the whole object. Any other value, or a check that reads
    /// every value, is decoded whole, as before.
    /// - Throws: ``SchemaViolation`` naming the path and keyword of the first failure.
    public static func check(_ decoder: any Decoder, _ check: SchemaCheck) throws {
        let value: JSONValue
        if check.propertyValues != .all, let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var object: [String: JSONValue] = [:]
            let keys = container.allKeys
            object.reserveCapacity(keys.count)
            for key in keys {
                object[key.stringValue] =
                    check.propertyValues.reads(key.stringValue) ? try container.decode(JSONValue.self, forKey: key) : .null
            }
            value = .object(object)
        } else {
            value = try JSONValue(from: decoder)
        }
        // Checked at the root, then the failure moved under the decoder's path: the decoder
        // builds its coding path only when a check fails.
        do {
            try check.validate(value, codingPath: [])
        } catch let violation as SchemaViolation {
            throw SchemaViolation(
                path: SchemaViolation.jsonPath(decoder.codingPath) + violation.path.dropFirst(), keyword: violation.keyword,
                message: violation.message)
        }
    }
}
