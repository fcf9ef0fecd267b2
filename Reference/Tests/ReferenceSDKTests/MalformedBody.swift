import Foundation
import HTTPTypes
import ReferenceSDK
import ReferenceSDKTestSupport
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// The ways a body can be malformed. Every one but the empty body carries
/// ``MalformedResponseTests/secret``.
enum MalformedBody: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case truncatedJSON = "truncated JSON"
    case wrongTypes = "required fields of the wrong type"
    case missingFields = "required fields missing"
    case nullFields = "required fields null"
    case tenMegabytes = "10 MB body"
    case hugeArrayForRequiredFields = "a 6 MB array for each required field"
    case invalidUTF8 = "invalid UTF-8 in a string"
    case empty = "empty body"
    case htmlPage = "HTML error page"
    case otherContainer = "array for object (or object for array)"
    case deepNesting = "100 000 nested arrays"

    var testDescription: String { rawValue }

    static let secret = MalformedResponseTests.secret

    /// The body, as `target` would get it.
    func answer(for target: MalformedResponseTarget) -> InMemoryBackEnd.Answer {
        let json = "application/json"
        let wellFormed = target.wellFormed ?? .object(["ok": .bool(true)])
        let fields = target.requiredFields
        switch self {
        case .truncatedJSON:
            let text = Self.text(Self.withSecret(wellFormed))
            let cut = text.index(text.startIndex, offsetBy: text.count * 2 / 3)
            return .init(status: 200, contentType: json, body: Data(text[..<cut].utf8))
        case .wrongTypes:
            return .init(
                status: 200, contentType: json,
                body: Self.data(Self.replacing(fields, in: wellFormed, with: .object(["token": .string(Self.secret)]))))
        case .missingFields:
            return .init(
                status: 200, contentType: json, body: Self.data(Self.withSecret(Self.replacing(fields, in: wellFormed, with: nil))))
        case .nullFields:
            return .init(
                status: 200, contentType: json, body: Self.data(Self.withSecret(Self.replacing(fields, in: wellFormed, with: .null))))
        case .tenMegabytes:
            let padded = Self.adding(["padding": .string(String(repeating: "x", count: 10_000_000))], to: Self.withSecret(wellFormed))
            return .init(status: 200, contentType: json, body: Self.data(padded))
        case .hugeArrayForRequiredFields:
            let huge: JSONValue = .array(Array(repeating: .string(String(repeating: "y", count: 1 << 20)), count: 6))
            return .init(
                status: 200, contentType: json, body: Self.data(Self.withSecret(Self.replacing(fields, in: wellFormed, with: huge))))
        case .invalidUTF8:
            // The secret's string gets bytes that no UTF-8 text contains.
            var bytes = Self.data(Self.withSecret(wellFormed))
            let range = bytes.range(of: Data(Self.secret.utf8))!
            bytes.replaceSubrange(range, with: Data(Self.secret.utf8) + [0xFF, 0xFE, 0xC3, 0x28])
            return .init(status: 200, contentType: json, body: bytes)
        case .empty:
            return .init(status: 200, contentType: json, body: Data())
        case .htmlPage:
            let page = "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><p>\(Self.secret)</p></body></html>"
            return .init(status: 200, contentType: "text/html; charset=utf-8", body: Data(page.utf8))
        case .otherContainer:
            let flipped: JSONValue =
                switch Self.withSecret(wellFormed) {
                case .array(let items): items.first ?? .object([:])
                case let value: .array([value])
                }
            return .init(status: 200, contentType: json, body: Self.data(flipped))
        case .deepNesting:
            let depth = 100_000
            let text = String(repeating: "[", count: depth) + "\"\(Self.secret)\"" + String(repeating: "]", count: depth)
            return .init(status: 200, contentType: json, body: Data(text.utf8))
        }
    }

    /// Adds the secret beside the fields (in each item of an array).
    private static func withSecret(_ value: JSONValue) -> JSONValue {
        adding(["session_secret": .string(secret)], to: value)
    }

    private static func adding(_ extra: [String: JSONValue], to value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): .object(object.merging(extra) { old, _ in old })
        case .array(let items): .array(items.map { adding(extra, to: $0) })
        default: value
        }
    }

    /// Sets `fields` to `replacement` (removes them when nil), in the object or each item.
    private static func replacing(_ fields: [String], in value: JSONValue, with replacement: JSONValue?) -> JSONValue {
        switch value {
        case .object(var object):
            for field in fields { object[field] = replacement }
            return .object(object)
        case .array(let items):
            return .array(items.map { replacing(fields, in: $0, with: replacement) })
        default:
            return value
        }
    }

    private static func data(_ value: JSONValue) -> Data {
        try! JSONEncoder().encode(value)
    }

    private static func text(_ value: JSONValue) -> String {
        String(decoding: data(value), as: UTF8.self)
    }
}
