/// sdk.yaml's `models` options: closing or opening the enums changes the Swift API; making
/// the string formats annotations (or checks again) changes what the SDK accepts, not its types.
extension SchemaDiffer {
    mutating func compareModelOptions() {
        let before = old.modelOptions
        let after = new.modelOptions
        let location = after.location ?? new.credential.location
        if before.enums != after.enums {
            // Only enums and discriminated unions change; an SDK with none keeps its API.
            let isEnum = { (model: ModelIR) -> Bool in
                switch model.kind {
                case .enumeration, .union: return true
                default: return false
                }
            }
            let hasEnums = oldModels.values.contains(where: isEnum) || newModels.values.contains(where: isEnum)
            let what =
                !hasEnums
                ? "enums became \(after.enums.rawValue) (models.enums): the SDK has no enum or discriminated union, so its API does not change"
                : after.enums == .closed
                    ? "enums became closed (models.enums): generated enums and discriminated unions lose their .unknown case, and a value they do not list is refused; app code that names .unknown no longer compiles"
                    : "enums became open (models.enums): generated enums and discriminated unions gain an .unknown case; app code that switches over them exhaustively no longer compiles"
            add("models.enums-changed", hasEnums ? .breaking : .compatible, what, at: location)
        }
        if before.formats != after.formats {
            let what =
                after.formats == .annotate
                ? "formats became annotations (models.formats): email, uri-reference, hostname, ipv4 and ipv6 are no longer checked on decode or encode; shipped apps still refuse a malformed value; properties stay String, but a model that is only such a string becomes a typealias and an anyOf/oneOf variant told apart by its format a plain string (each reported breaking on its own)"
                : "formats are checked again (models.formats): email, uri-reference, hostname, ipv4 and ipv6 values that do not parse are refused on decode and encode; properties stay String, but a model that is only such a string becomes a struct and an anyOf/oneOf variant told apart by its format a model (each reported breaking on its own)"
            add("models.formats-changed", .warning, what, at: location)
        }
    }

    /// Whether two types are the same for apps: equal, or equal but for a string format that
    /// only one side checks, when `models.formats` changed (the Swift type is `String` on both
    /// sides; `compareModelOptions` reports the change once). An alias model that is such a
    /// string can still change shape (struct or typealias): `compareModels` checks that apart.
    func sameType(_ before: TypeIR?, _ after: TypeIR?) -> Bool {
        guard before != after else { return true }
        // `format: password` keeps the `String`: only the model's description changes.
        if let before, let after, before.withoutPassword == after.withoutPassword { return true }
        guard old.modelOptions.formats != new.modelOptions.formats, let before, let after else { return false }
        return before.withoutStringFormats == after.withoutStringFormats
    }
}

extension TypeIR {
    /// The type with `format: password` removed: the same Swift type.
    var withoutPassword: TypeIR {
        switch self {
        case .string(.password?): return .string(nil)
        case .array(let element): return .array(element.withoutPassword)
        case .dictionary(let value): return .dictionary(value.withoutPassword)
        default: return self
        }
    }

    /// The type with the formats that leave it a `String` removed (`email` → plain string).
    var withoutStringFormats: TypeIR {
        switch self {
        case .string(let format?) where format.isCheckedString: return .string(nil)
        case .array(let element): return .array(element.withoutStringFormats)
        case .dictionary(let value): return .dictionary(value.withoutStringFormats)
        default: return self
        }
    }
}
