import Foundation
@_spi(Generated) import SesameDescription

@_spi(Generated) extension JSONValue {
    /// Equality as JSON Schema defines it for `const`, `enum` and `uniqueItems`: numbers by
    /// value (`2` equals `2.0`), strings code point by code point (not canonically: `é` and
    /// `e` + U+0301 differ), arrays item by item, objects key by key.
    public func schemaEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.integer(let left), .integer(let right)): return left == right
        case (.integer, .number), (.number, .integer), (.number, .number): return doubleValue == other.doubleValue
        // Code point by code point, as JSON Schema compares strings: Swift's `==` equates
        // canonically equivalent strings (`é` and `e` + U+0301), JSON Schema does not.
        case (.string(let left), .string(let right)): return left.unicodeScalars.elementsEqual(right.unicodeScalars)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.schemaEquals($1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count && left.allSatisfy { key, value in right[key].map { value.schemaEquals($0) } ?? false }
        default: return false
        }
    }

    /// The value as a `Double` when it is a number.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    func hasType(_ type: SchemaCheck.JSONType) -> Bool {
        switch (self, type) {
        case (.null, .null), (.bool, .boolean), (.string, .string), (.array, .array), (.object, .object): return true
        case (.integer, .integer), (.integer, .number), (.number, .number): return true
        case (.number(let value), .integer): return value.rounded() == value
        default: return false
        }
    }

    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON value hashed and compared as JSON Schema compares values (``JSONValue/schemaEquals(_:)``):
/// numbers by value (`2` and `2.0` are one key), objects regardless of key order.
struct SchemaEqualKey: Hashable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    static func == (left: Self, right: Self) -> Bool { left.value.schemaEquals(right.value) }

    func hash(into hasher: inout Hasher) { Self.hash(value, into: &hasher) }

    private static func hash(_ value: JSONValue, into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(flag)
        // Every number by its `Double` value: equal numbers hash alike (integers beyond 2^53
        // may share a hash; equality still tells them apart).
        case .integer, .number: hasher.combine(value.doubleValue!)
        // Strings equal code point by code point are canonically equivalent, so hash alike.
        case .string(let text): hasher.combine(text)
        case .array(let items):
            hasher.combine(items.count)
            for item in items { hash(item, into: &hasher) }
        case .object(let object):
            // Order-independent: the sum of each member's own hash.
            var sum = 0
            for (key, member) in object {
                var inner = Hasher()
                inner.combine(key)
                hash(member, into: &inner)
                sum &+= inner.finalize()
            }
            hasher.combine(object.count)
            hasher.combine(sum)
        }
    }
}
