import Foundation
import HTTPTypes
@_spi(Generated) import SesameDescription

/// A request to one of the schema's operations, with its parameters filled in. Generated
/// operation methods build one and hand it to an ``OperationPerformer``.
public struct OperationRequest: Sendable {
    /// The request the schema declares (generated code only).
    @_spi(Generated) public var description: RequestDescription
    /// Values of the path's `{placeholders}`, not yet percent-encoded.
    public var pathParameters: [String: String]
    /// Query items in order; nil values are left out.
    public var query: [(name: String, value: String)]
    public var body: RequestBody?

    @_spi(Generated) public init(
        _ description: RequestDescription, pathParameters: [String: String] = [:],
        query: [(name: String, value: String?)] = [], body: RequestBody? = nil
    ) {
        self.description = description
        self.pathParameters = pathParameters
        self.query = query.compactMap { item in item.value.map { (item.name, $0) } }
        self.body = body
    }

    /// The operation's name in the schema.
    public var operationName: String { description.name }

    /// The path with its placeholders replaced by percent-encoded values, each of which
    /// stays within its segment (RFC 3986 §3.3): everything but unreserved characters and
    /// `:` is percent-encoded (`/` as `%2F`, `?` as `%3F`, `#` as `%23`, `%` as `%25`), and
    /// a value made only of dots has them encoded too (`.` as `%2E`, `..` as `%2E%2E`), so
    /// that no client or server along the way removes it as a dot segment and the request
    /// reaches the resource it names.
    /// - Throws: `TemplateError` when a placeholder has no value, or an empty one (which
    ///   would leave an empty segment: `DELETE /identities/` is not `DELETE /identities/x`).
    ///
    /// A constant query the schema wrote in the request line (`POST /token?grant_type=password`,
    /// percent-encoded by the generator) comes first, then ``query``.
    public func resolvedPath() throws -> String {
        var result = ""
        var remainder = description.pathWithoutQuery
        var items = description.constantQuery.map { [String($0)] } ?? []
        while let open = remainder.firstIndex(of: "{"), let close = remainder[open...].firstIndex(of: "}") {
            result += remainder[..<open]
            let name = String(remainder[remainder.index(after: open)..<close])
            guard let value = pathParameters[name], !value.isEmpty else { throw TemplateError(placeholder: name) }
            result += Self.encodedSegment(value)
            remainder = remainder[remainder.index(after: close)...]
        }
        result += remainder
        items += query.map { RequestDescription.queryItem(name: $0, value: $1) }
        if !items.isEmpty { result += "?" + items.joined(separator: "&") }
        return result
    }

    /// A path parameter's value percent-encoded so that it stays one segment.
    static func encodedSegment(_ value: String) -> String {
        if value.utf8.allSatisfy({ $0 == UInt8(ascii: ".") }) {
            return String(repeating: "%2E", count: value.utf8.count)
        }
        var encoded = ""
        for byte in value.utf8 {
            if byte < 0x80, CharacterSet.sesamePathSegment.contains(Unicode.Scalar(byte)) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }
        }
        return encoded
    }
}

extension String {
    /// Two hex digits for a byte written in fewer.
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}

/// A request body, before it goes on the wire.
public enum RequestBody: Sendable, Hashable {
    /// JSON bytes (`application/json`).
    case json(Data)
    /// Form fields in order (`application/x-www-form-urlencoded`).
    case form([FormField])

    /// Encodes a value as JSON with sorted keys.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public static func json(_ value: some Encodable) throws -> RequestBody {
        .json(try JSONEncoder.sesame.encode(value))
    }

    /// Encodes a value as JSON after checking it against its schema: the value is decoded
    /// back through its generated `init(from:)`, which checks every constraint.
    /// - Throws: ``SchemaViolation`` naming the JSON path of the first value that breaks
    ///   its schema; nothing is sent.
    public static func checkedJSON<Value: Codable>(_ value: Value) throws -> RequestBody {
        let data = try JSONEncoder.sesame.encode(value)
        do {
            _ = try JSONDecoder().decode(Value.self, from: data)
        } catch let violation as SchemaViolation {
            throw violation
        } catch let DecodingError.dataCorrupted(context) where context.underlyingError is SchemaViolation {
            throw context.underlyingError as! SchemaViolation
        }
        return .json(data)
    }

    /// Encodes a value as a form after checking it against its schema, as ``checkedJSON(_:)``.
    public static func checkedForm<Value: Codable>(_ value: Value) throws -> RequestBody {
        _ = try checkedJSON(value)
        return try form(value)
    }

    /// Encodes a value as a form: each top-level property becomes one field.
    /// - Throws: `EncodingError`, or ``SesameError`` when the value is not an object.
    public static func form(_ value: some Encodable) throws -> RequestBody {
        guard case .object(let object) = try JSONValue(encoding: value) else {
            throw SesameError.encoding(reason: "a form body must be an object")
        }
        return .form(object.keys.sorted().map { FormField(name: $0, value: object[$0]!.formValue) })
    }

    /// The bytes and content type to send.
    public var encoded: (data: Data, contentType: String) {
        switch self {
        case .json(let data):
            return (data, "application/json")
        case .form(let fields):
            let text = fields.map { "\(FormField.encode($0.name))=\(FormField.encode($0.value))" }.joined(separator: "&")
            return (Data(text.utf8), "application/x-www-form-urlencoded")
        }
    }
}

/// One `name=value` pair of a form body.
public struct FormField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Encodes a form name or value as `application/x-www-form-urlencoded` does: unreserved
    /// characters as they are, spaces as `+`, everything else percent-encoded as UTF-8.
    public static func encode(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: .sesameFormValue) ?? text).replacingOccurrences(of: "%20", with: "+")
    }
}

/// A response to an ``OperationRequest`` with a 2xx status.
public struct OperationResponse: Sendable {
    public var status: Int
    public var headerFields: HTTPFields
    public var body: Data
    /// The operation's name, for errors.
    public var operation: String

    public init(operation: String, status: Int, headerFields: HTTPFields = [:], body: Data) {
        self.operation = operation
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }

    /// Decodes the body.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` naming the JSON path of the
    ///   problem for a malformed, truncated or non-conforming body, and for one that is not
    ///   UTF-8 (JSON text is, RFC 8259 §8.1), even where the bad bytes sit in a field the
    ///   value does not read.
    public func decode<Value: Decodable>(_ valueType: Value.Type) throws -> Value {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw SesameError.decoding(operation: operation, reason: "$: the data is not valid UTF-8")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: body)
        } catch let violation as SchemaViolation {
            throw SesameError.decoding(operation: operation, reason: violation.description)
        } catch let error as DecodingError {
            throw SesameError.decoding(operation: operation, reason: DecodingError.sesameDescription(error))
        } catch {
            throw SesameError.decoding(operation: operation, reason: "\(Swift.type(of: error))")
        }
    }
}

/// Something that sends operation requests for one schema: the authentication service,
/// or a test double.
public protocol OperationPerformer: Sendable {
    associatedtype Schema: SDKSchema
    /// Sends a request, applying and refreshing the credential as the schema says.
    /// - Returns: the response when its status is 2xx.
    /// - Throws: `Schema.ServerError` for an error response, ``SesameError`` for any other
    ///   failure (transport, not authenticated, reauthentication required, …), and
    ///   ``UserInfoRejection`` for the schema's UserInfo operation (`openID.userInfo`) when the
    ///   response's `sub` is not the session's ID token's.
    func perform(_ request: OperationRequest) async throws -> OperationResponse
}

extension DecodingError {
    /// A description of a decoding error with its JSON path and without the values that
    /// were received (which may be secret).
    public static func sesameDescription(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(SchemaViolation.jsonPath(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(SchemaViolation.jsonPath(context.codingPath)): expected \(type), found null"
        case .keyNotFound(let key, let context):
            return "\(SchemaViolation.jsonPath(context.codingPath + [key])): required property is missing"
        case .dataCorrupted(let context):
            if let violation = context.underlyingError as? SchemaViolation { return violation.description }
            return "\(SchemaViolation.jsonPath(context.codingPath)): the data is not valid JSON"
        @unknown default:
            return "the data could not be decoded"
        }
    }
}

extension CharacterSet {
    static let sesamePathSegment: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/?#[]@!$&'()*+,;=%")
        return set
    }()

    static let sesameFormValue: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        set.insert(charactersIn: "-._~")
        return set
    }()
}
