import Foundation

/// The checks of the keywords only the JSON shows (``SchemaCheck``) on encode: a generated
/// model's `encode(to:)` runs them before it writes anything (docs/format.md, "Checked on
/// encode too").
extension ModelCoding {
    /// Whether the value being encoded is the JSON a ``SchemaCheck`` reads (built by
    /// ``checkEncoding(_:_:codingPath:)``) rather than the output: a model encoded there skips
    /// its own JSON check, which the real encoding runs, so that an object model whose check
    /// encodes itself does not recurse.
    @TaskLocal static var isEncodingForCheck = false

    /// Checks the JSON `value` encodes to against `check`, as decoding checks it: a generated
    /// model calls this from `encode(to:)` before writing, for its own check or a property's.
    ///
    /// `value` is encoded to a ``JSONValue`` once (through JSON text, as ``JSONValue``'s
    /// `init(encoding:)`), then checked; nothing is written to the caller's encoder.
    /// - Throws: ``SchemaViolation`` naming the JSON path under `codingPath` and the keyword of
    ///   the first failure; never the value. An error of the value's own encoding, as it is.
    public static func checkEncoding<Value: Encodable>(
        _ value: Value, _ check: SchemaCheck, codingPath: @autoclosure () -> [any CodingKey]
    ) throws {
        if isEncodingForCheck { return }
        let json: JSONValue
        do {
            json = try $isEncodingForCheck.withValue(true) { try JSONValue(encoding: value) }
        } catch let violation as SchemaViolation {
            // A property keyword inside `value` failed on an encoder rooted at `value`.
            throw moved(violation, under: codingPath())
        }
        try checkEncoding(json, check, codingPath: codingPath())
    }

    /// Checks an object model being encoded against its own `check`, as
    /// ``checkEncoding(_:_:codingPath:)`` does, but first, when the check asks only which
    /// properties are present (`required`, `minProperties`, `dependentRequired`), tells it by
    /// the properties in hand: `isPresent` says whether the encoding writes a name, and is
    /// `complete` when the model writes no property but its `declared` ones (no undeclared
    /// property kept). Likewise a check told in place on decode (``SchemaCheck/InPlace``:
    /// presence, `allOf`, `not`, `if`/`then`/`else`, a `$ref` the generator marked with the
    /// keys it requires). When that shows the check is met, no JSON is built; otherwise the
    /// JSON is checked, which decides and names the failure.
    /// - Throws: ``SchemaViolation`` naming the JSON path under `codingPath` and the keyword of
    ///   the first failure.
    public static func checkEncoding<Value: Encodable>(
        _ value: Value, _ check: SchemaCheck, declared: [PropertyKey], complete: Bool,
        codingPath: @autoclosure () -> [any CodingKey], isPresent: (String) -> Bool
    ) throws {
        if complete {
            if check.checksPresenceOnly, check.isMet(byPresence: isPresent, declared: declared) { return }
            if check.inPlace != nil, check.isMet(inPlaceEncoding: isPresent) { return }
        }
        try checkEncoding(value, check, codingPath: codingPath())
    }

    /// Checks a ``JSONValue`` a model holds against `check`: no encoding is needed.
    /// - Throws: ``SchemaViolation`` naming the JSON path under `codingPath` and the keyword of
    ///   the first failure.
    public static func checkEncoding(_ value: JSONValue, _ check: SchemaCheck, codingPath: @autoclosure () -> [any CodingKey]) throws {
        if isEncodingForCheck { return }
        do {
            try check.validate(value, codingPath: [])
        } catch let violation as SchemaViolation {
            throw moved(violation, under: codingPath())
        }
    }

    /// Checks the items a model holds as `[JSONValue]` (a tuple, items of any type) against
    /// `check`: no encoding is needed.
    /// - Throws: ``SchemaViolation`` naming the JSON path under `codingPath` and the keyword of
    ///   the first failure.
    public static func checkEncoding(_ values: [JSONValue], _ check: SchemaCheck, codingPath: @autoclosure () -> [any CodingKey]) throws {
        try checkEncoding(JSONValue.array(values), check, codingPath: codingPath())
    }

    /// `violation`, found at the root of a value, moved under the path where the value is.
    private static func moved(_ violation: SchemaViolation, under codingPath: [any CodingKey]) -> SchemaViolation {
        guard !codingPath.isEmpty else { return violation }
        return SchemaViolation(
            path: SchemaViolation.jsonPath(codingPath) + violation.path.dropFirst(), keyword: violation.keyword,
            message: violation.message)
    }
}
