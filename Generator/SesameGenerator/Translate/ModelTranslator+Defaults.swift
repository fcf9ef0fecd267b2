import Foundation
@_spi(Generated) import SesameDescription

/// The checks of `default` and `const` values against their own schema, at generation time,
/// with the rules the runtime applies on decode.
extension ModelTranslator {
    /// Whether a number is a multiple of `step` as the YAML writes them, not as binary floating
    /// point rounds them (0.3 is a multiple of 0.1): the rule of the runtime's
    /// `SchemaCheck.isMultiple(_:of:)`, which the generator does not link.
    static func isMultiple(_ value: JSONValue, of step: Double) -> Bool {
        guard step > 0, step.isFinite else { return false }
        let text: String
        switch value {
        case .integer(let integer):
            if step.rounded() == step, step < 9.2e18 { return integer % Int(step) == 0 }
            text = String(integer)
        case .number(let number): text = "\(number)"
        default: return false
        }
        guard let dividend = Decimal(string: text), let divisor = Decimal(string: "\(step)"), divisor != 0 else {
            let quotient = (Double(text) ?? .nan) / step
            return quotient.isFinite && quotient.rounded() == quotient
        }
        var quotient = dividend / divisor
        var whole = Decimal()
        NSDecimalRound(&whole, &quotient, 0, .plain)
        return whole == quotient
    }

    /// What a `default` breaks among its schema's constraints, or nil when it fits them.
    static func violation(of value: JSONValue, _ constraints: ConstraintsIR) -> String? {
        switch value {
        case .string(let text):
            // As the runtime checks them (ModelCoding.length, ModelCoding.pattern): lengths in
            // code points, patterns with ECMA-262's semantics.
            let length = text.unicodeScalars.count
            if let min = constraints.minLength, length < min { return "minLength \(min)" }
            if let max = constraints.maxLength, length > max { return "maxLength \(max)" }
            if let pattern = constraints.pattern, let regex = try? Regex(pattern), !text.contains(ecma(regex)) {
                return "pattern /\(pattern)/"
            }
        case .integer, .number:
            let number: Double
            if case .integer(let integer) = value {
                number = Double(integer)
            } else if case .number(let double) = value {
                number = double
            } else {
                return nil
            }
            if let minimum = constraints.minimum, number < minimum { return "minimum" }
            if let maximum = constraints.maximum, number > maximum { return "maximum" }
            if let bound = constraints.exclusiveMinimum, number <= bound { return "exclusiveMinimum" }
            if let bound = constraints.exclusiveMaximum, number >= bound { return "exclusiveMaximum" }
            if let step = constraints.schema?.multipleOf, !isMultiple(value, of: step) { return "multipleOf" }
        case .array(let items):
            if let min = constraints.minItems, items.count < min { return "minItems \(min)" }
            if let max = constraints.maxItems, items.count > max { return "maxItems \(max)" }
            if let itemConstraints = constraints.items {
                for item in items { if let broken = violation(of: item, itemConstraints) { return broken } }
            }
        default:
            break
        }
        if let expected = constraints.const, !literalEquals(value, expected) { return "const" }
        return nil
    }

    /// `regex` read as ECMA-262 reads it, as the runtime's `ECMARegex` does: ASCII-only `\d`,
    /// `\w` and `\b`, matched by code points.
    static func ecma(_ regex: Regex<AnyRegexOutput>) -> Regex<AnyRegexOutput> {
        regex.asciiOnlyDigits().asciiOnlyWordCharacters().wordBoundaryKind(.simple).matchingSemantics(.unicodeScalar)
    }

    static func literalEquals(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): return Double(a) == b
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { literalEquals($0, $1) }
        // Code point by code point, as JSON Schema compares strings (Swift's `==` equates
        // canonically equivalent ones: `é` and `e` + U+0301).
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        default: return left == right
        }
    }
}
