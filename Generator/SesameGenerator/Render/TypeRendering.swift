@_spi(Generated) import SesameDescription

/// How an IR type reads in Swift, travels on the wire, and is checked.
struct TypeRendering {
    /// Every model by qualified Swift name, for enum defaults and wrapper detection.
    let models: [String: ModelIR]
    /// The top-level models by the name `$ref` gives them (a declared model's key), for the
    /// references of a ``ModelCheck``; the first model of a name wins (declared models come
    /// before hoisted ones).
    let declaredModels: [String: ModelRef]

    init(models: [ModelIR]) {
        var table: [String: ModelIR] = [:]
        func add(_ model: ModelIR, prefix: String) {
            let path = prefix.isEmpty ? model.swiftName : "\(prefix).\(model.swiftName)"
            table[path] = model
            for inner in model.nested { add(inner, prefix: path) }
        }
        for model in models { add(model, prefix: "") }
        self.models = table
        var declared: [String: ModelRef] = [:]
        for model in models where declared[model.name] == nil {
            declared[model.name] = ModelRef(declaredName: model.name, swiftPath: model.swiftName)
        }
        self.declaredModels = declared
    }

    /// The Swift type.
    func swift(_ type: TypeIR) -> String {
        switch type {
        case .string(let format):
            switch format {
            case .dateTime?: return "Date"
            case .date?: return "CalendarDate"
            case .uuid?: return "UUID"
            case .uri?: return "URL"
            case .byte?: return "Data"
            case .email?, .uriReference?, .hostname?, .ipv4?, .ipv6?, .password?, nil: return "String"
            }
        case .integer(nil): return "Int"
        case .integer(.int32?): return "Int32"
        case .integer(.int64?): return "Int64"
        case .number(nil): return "Double"
        case .number(.float?): return "Float"
        case .boolean: return "Bool"
        case .any: return "JSONValue"
        case .array(let element): return "[\(swift(element))]"
        case .dictionary(let value): return "[String: \(swift(value))]"
        case .model(let model): return model.swiftPath.split(separator: ".").map { SwiftName.escaped(String($0)) }.joined(separator: ".")
        }
    }

    /// Whether a value of the type holds a `format: password` string: itself, an item or a
    /// value of one, or an alias model of one (`Password: { type: string, format: password }`).
    func holdsSecret(_ type: TypeIR) -> Bool {
        switch type {
        case .string(.password?): return true
        case .array(let element), .dictionary(let element): return holdsSecret(element)
        case .model(let reference):
            guard let model = models[reference.swiftPath], case .alias(let aliased, _) = model.kind else { return false }
            return holdsSecret(aliased)
        default: return false
        }
    }

    /// The type decoded from and encoded to the wire, when it differs from `swift`.
    func wire(_ type: TypeIR) -> String? {
        switch type {
        case .string(.dateTime?): return "DateTimeValue"
        case .string(.uuid?): return "UUIDValue"
        case .string(.uri?): return "URIValue"
        case .string(.byte?): return "Base64Value"
        case .array(let element): return wire(element).map { "[\($0)]" }
        case .dictionary(let value): return wire(value).map { "[String: \($0)]" }
        default: return nil
        }
    }

    /// An expression converting a wire value to the Swift value.
    func fromWire(_ expression: String, _ type: TypeIR) -> String {
        switch type {
        case .string(.dateTime?), .string(.uuid?), .string(.uri?), .string(.byte?): return "\(expression).value"
        case .array(let element) where wire(element) != nil: return "\(expression).map { \(fromWire("$0", element)) }"
        case .dictionary(let value) where wire(value) != nil: return "\(expression).mapValues { \(fromWire("$0", value)) }"
        default: return expression
        }
    }

    /// An expression converting a Swift value to its wire value.
    func toWire(_ expression: String, _ type: TypeIR) -> String {
        switch type {
        case .string(.dateTime?): return "DateTimeValue(\(expression))"
        case .string(.uuid?): return "UUIDValue(\(expression))"
        case .string(.uri?): return "URIValue(\(expression))"
        case .string(.byte?): return "Base64Value(\(expression))"
        case .array(let element) where wire(element) != nil: return "\(expression).map { \(toWire("$0", element)) }"
        case .dictionary(let value) where wire(value) != nil: return "\(expression).mapValues { \(toWire("$0", value)) }"
        default: return expression
        }
    }

    /// Lines that check `expression` against its constraints, throwing `SchemaViolation`.
    func checks(_ expression: String, _ type: TypeIR, _ constraints: ConstraintsIR, path: String, into writer: inout CodeWriter) {
        if case .string(let format?) = type, format.isCheckedString {
            writer.line("try ModelCoding.\(Self.checkFunction(format))(\(expression), codingPath: \(path))")
        }
        if constraints.minLength != nil || constraints.maxLength != nil {
            writer.line(
                "try ModelCoding.length(\(expression), min: \(optional(constraints.minLength)), max: \(optional(constraints.maxLength)), codingPath: \(path))"
            )
        }
        if let pattern = constraints.pattern {
            writer.line("try ModelCoding.pattern(\(expression), \(SwiftName.stringLiteral(pattern)), codingPath: \(path))")
        }
        let bounds: [(String, Double?)] = [
            ("minimum", constraints.minimum), ("maximum", constraints.maximum),
            ("exclusiveMinimum", constraints.exclusiveMinimum), ("exclusiveMaximum", constraints.exclusiveMaximum),
        ]
        let present = bounds.compactMap { name, value in value.map { "\(name): \(number($0))" } }
        if !present.isEmpty {
            writer.line("try ModelCoding.range(\(expression), \(present.joined(separator: ", ")), codingPath: \(path))")
        }
        if constraints.minItems != nil || constraints.maxItems != nil {
            writer.line(
                "try ModelCoding.items(count: \(expression).count, min: \(optional(constraints.minItems)), max: \(optional(constraints.maxItems)), codingPath: \(path))"
            )
        }
        if let const = constraints.const, let literal = literal(const, type) {
            writer.line("try ModelCoding.constant(\(expression), \(literal), codingPath: \(path))")
        }
        if let items = constraints.items, case .array(let element) = type, !items.isEmpty || isEmail(element) {
            writer.block("for (index, item) in \(expression).enumerated()") { body in
                checks("item", element, items, path: "\(path) + [AnyCodingKey(intValue: index)]", into: &body)
            }
        } else if case .array(let element) = type, isEmail(element) {
            writer.block("for (index, item) in \(expression).enumerated()") { body in
                checks("item", element, ConstraintsIR(), path: "\(path) + [AnyCodingKey(intValue: index)]", into: &body)
            }
        }
    }

    /// Whether an alias model (`.alias(type, constraints)`) renders as a `RawRepresentable`
    /// struct wrapping its value rather than a `typealias`: when its value is checked, has a
    /// wire type or JSON check, or it holds nested models. `sesame diff` grades a change of
    /// this answer breaking (`Email(rawValue:)` stops compiling when `Email` becomes `String`).
    func wrapsAlias(_ model: ModelIR, _ type: TypeIR, _ constraints: ConstraintsIR) -> Bool {
        hasChecks(type, constraints) || constraints.schema != nil || wire(type) != nil || !model.nested.isEmpty
    }

    /// Whether `checks` writes any line (the JSON check, `constraints.schema`, is not one of them).
    func hasChecks(_ type: TypeIR, _ constraints: ConstraintsIR) -> Bool {
        var typed = constraints
        typed.schema = nil
        if !typed.isEmpty { return true }
        return type.isCheckedOnDecode
    }

    /// A string checked by a runtime parser (`email`, `hostname`, `ipv4`, …).
    private func isEmail(_ type: TypeIR) -> Bool {
        if case .string(let format?) = type { return format.isCheckedString }
        return false
    }

    static func checkFunction(_ format: StringFormat) -> String {
        switch format {
        case .uriReference: return "uriReference"
        default: return format.rawValue
        }
    }

    /// A `SchemaCheck` expression of `check`: the runtime compiles the ``ModelCheck`` once,
    /// with what each model a `$ref` names checks (the value must decode as the model).
    ///
    /// `object` is the object model whose own value the check is (its `schemaCheck`): a `$ref`
    /// to a model whose every property `object` decodes as that model does is told on
    /// `object`'s decoder by the presence of its required keys alone
    /// (``impliedReferenceKeys(_:by:)``, `ModelCoding.reference(_:inPlaceRequires:)`).
    func schemaCheck(_ check: ModelCheck, on object: ObjectIR? = nil) -> String {
        if check.isNever { return "SchemaCheck.never" }
        let references = check.references.sorted().compactMap { name in
            declaredModels[name].map { model in
                let type = swift(.model(model))
                guard let object, let keys = impliedReferenceKeys(model, by: object) else {
                    return "\(SwiftName.stringLiteral(name)): ModelCoding.reference(\(type).self)"
                }
                let required = keys.map { SwiftName.stringLiteral($0) }.joined(separator: ", ")
                return "\(SwiftName.stringLiteral(name)): ModelCoding.reference(\(type).self, inPlaceRequires: [\(required)])"
            }
        }
        guard !references.isEmpty else { return "SchemaCheck(\(modelCheck(check)))" }
        return "SchemaCheck(\(modelCheck(check)), references: [\(references.joined(separator: ", "))])"
    }

    /// A ``ModelCheck`` literal of `check` on one line, printed by ``SwiftLiteral``: only the
    /// keywords it has, in its initialiser's order; JSON values and numbers as the model
    /// renderer writes them elsewhere (`JSONValue.string("a")`, `5.0`).
    func modelCheck(_ check: ModelCheck) -> String {
        let printer = SwiftLiteral(
            substitute: { value in
                if let check = value as? ModelCheck, check.isNever { return "ModelCheck.never" }
                if let json = value as? JSONValue { return jsonLiteral(json) }
                if let number = value as? Double { return self.number(number) }
                return nil
            }, width: .max)
        return printer.print(check)
    }

    /// A Swift literal of `value` for `type`, or nil when there is none.
    func literal(_ value: JSONValue, _ type: TypeIR) -> String? {
        switch (value, type) {
        case (_, .any): return jsonLiteral(value)
        case (.null, _): return "nil"
        case (.string(let text), .string(nil)): return SwiftName.stringLiteral(text)
        case (.string(let text), .string(let format?)) where format.keepsText: return SwiftName.stringLiteral(text)
        case (.number(let number), .integer) where number.rounded() == number && abs(number) < 1e15: return String(Int(number))
        case (.bool(let flag), .boolean): return flag ? "true" : "false"
        case (.integer(let number), .integer): return String(number)
        case (.integer(let number), .number): return "\(number).0"
        case (.number(let number), .number): return self.number(number)
        case (.array(let items), .array(let element)):
            let rendered = items.map { literal($0, element) }
            guard rendered.allSatisfy({ $0 != nil }) else { return nil }
            return "[\(rendered.map { $0! }.joined(separator: ", "))]"
        case (.string(let raw), .model(let model)):
            return enumLiteral(raw, model)
        case (.integer(let raw), .model(let model)):
            return enumLiteral(String(raw), model)
        default:
            return nil
        }
    }

    private func enumLiteral(_ raw: String, _ reference: ModelRef) -> String? {
        guard let model = models[reference.swiftPath], case .enumeration(let enumeration) = model.kind,
            let match = enumeration.cases.first(where: { $0.rawValue == raw })
        else { return nil }
        return "\(swift(.model(reference))).\(SwiftName.escaped(match.swiftName))"
    }

    func jsonLiteral(_ value: JSONValue) -> String {
        switch value {
        case .null: return "JSONValue.null"
        case .bool(let flag): return "JSONValue.bool(\(flag))"
        case .integer(let number): return "JSONValue.integer(\(number))"
        case .number(let number): return "JSONValue.number(\(self.number(number)))"
        case .string(let text): return "JSONValue.string(\(SwiftName.stringLiteral(text)))"
        case .array(let items): return "JSONValue.array([\(items.map(jsonLiteral).joined(separator: ", "))])"
        case .object(let object):
            if object.isEmpty { return "JSONValue.object([:])" }
            let pairs = object.keys.sorted().map { "\(SwiftName.stringLiteral($0)): \(jsonLiteral(object[$0]!))" }
            return "JSONValue.object([\(pairs.joined(separator: ", "))])"
        }
    }

    func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return "\(Int64(value)).0" }
        return "\(value)"
    }

    private func optional(_ value: Int?) -> String { value.map(String.init) ?? "nil" }

    /// An expression turning a simple value (a query or path parameter) into text.
    func text(_ expression: String, _ type: TypeIR) -> String {
        switch type {
        case .string(.dateTime?): return "ModelCoding.dateTimeString(\(expression))"
        case .string(.uuid?): return "\(expression).uuidString.lowercased()"
        case .string(.uri?): return "\(expression).absoluteString"
        case .string(.date?): return "\(expression).description"
        case .string(.byte?): return "\(expression).base64EncodedString()"
        case .string: return expression
        case .boolean: return "(\(expression) ? \"true\" : \"false\")"
        case .integer, .number: return "String(\(expression))"
        case .model(let reference):
            if let model = models[reference.swiftPath], case .enumeration(let enumeration) = model.kind, enumeration.rawType == .integer {
                return "String(\(expression).rawValue)"
            }
            return "\(expression).rawValue"
        default: return "String(describing: \(expression))"
        }
    }

    /// An expression turning a value into a `JSONValue` (method arguments).
    func json(_ expression: String, _ type: TypeIR) -> String {
        switch type {
        case .string(nil): return ".string(\(expression))"
        case .string(let format?) where format.keepsText: return ".string(\(expression))"
        case .boolean: return ".bool(\(expression))"
        case .integer(nil): return ".integer(\(expression))"
        case .integer(.int32?): return ".integer(Int(\(expression)))"
        case .number(nil): return ".number(\(expression))"
        case .any: return expression
        default: return "((try? JSONValue(encoding: \(toWire(expression, type)))) ?? .null)"
        }
    }
}
