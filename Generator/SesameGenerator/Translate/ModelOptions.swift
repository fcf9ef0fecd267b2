import Yams

/// sdk.yaml's `models` options: how closely the generated models follow JSON Schema where
/// the SDK's defaults are wider or narrower on purpose (docs/format.md, "models: enums and
/// formats"). Read before any model is translated, since they change what models become.
struct ModelOptions: Sendable, Hashable, Codable {
    /// What a generated enum does with a value the schema does not list.
    enum Enums: String, Sendable, Hashable, Codable, CaseIterable {
        /// Kept as `.unknown(raw)` (and a discriminated union's unknown variant as
        /// `.unknown(<discriminator>:value:)`, labelled with the discriminator's name): a
        /// back-end may add a value without breaking shipped apps.
        case open
        /// Refused, as JSON Schema's `enum` does: the Swift enums have no `.unknown` case, so a
        /// `switch` over them is exhaustive.
        case closed
    }

    /// What the formats that leave the Swift type a `String` do.
    enum Formats: String, Sendable, Hashable, Codable, CaseIterable {
        /// Checked on decode and encode by the runtime's parsers.
        case assert
        /// Annotations, as draft 2020-12 says by default: documented, never checked.
        case annotate
    }

    /// What an unknown keyword or format in the team's own models files does. Referenced
    /// documents are always read as `ignore` (`NodeReader.ignoresUnknown`).
    enum Unknown: String, Sendable, Hashable, Codable, CaseIterable {
        /// An error: in a file the team writes, an unknown key is most likely a typo.
        case refuse
        /// A note, as JSON Schema reads it: the keyword is ignored, the format an annotation.
        case ignore
    }

    var enums: Enums
    var formats: Formats
    var unknown: Unknown
    /// Where sdk.yaml declares them (its `models` key), for `sesame diff`; nil by default.
    var location: SourceLocation?

    init(enums: Enums = .open, formats: Formats = .assert, unknown: Unknown = .refuse, location: SourceLocation? = nil) {
        self.enums = enums
        self.formats = formats
        self.unknown = unknown
        self.location = location
    }

    /// Whether a generated enum or discriminated union refuses values it does not list.
    var closedEnums: Bool { enums == .closed }

    /// Whether `format` is checked: always for the formats that decide the Swift type
    /// (`date-time`, `date`, `uuid`, `uri`: the type holds nothing else), and for the
    /// string formats unless they are annotations.
    func asserts(_ format: StringFormat) -> Bool {
        !format.isCheckedString || formats == .assert
    }

    /// The options sdk.yaml's `models` mapping declares; its keys and values are checked
    /// with the rest of sdk.yaml (`SDKFileTranslator.checkModelOptions`), so what is
    /// malformed here is left at its default.
    static func read(_ sdk: ParsedFile?) -> ModelOptions {
        guard let sdk, case .mapping(let root)? = sdk.root, let node = root["models"], case .mapping(let models) = node else {
            return ModelOptions()
        }
        var options = ModelOptions()
        if let text = models["enums"]?.string, let value = Enums(rawValue: text) { options.enums = value }
        if let text = models["formats"]?.string, let value = Formats(rawValue: text) { options.formats = value }
        if let text = models["unknown"]?.string, let value = Unknown(rawValue: text) { options.unknown = value }
        if let key = root.keys.first(where: { $0.string == "models" }), let mark = key.mark {
            options.location = SourceLocation(file: sdk.source.path, line: mark.line, column: mark.column)
        }
        return options
    }
}
