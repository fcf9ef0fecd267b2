/// Reads `store.yaml` and renders its records and migrations.
///
/// The grammar is documented in `docs/store.md`.
public enum StoreGenerator {
    /// Validates a parsed `store.yaml`: names, types, defaults, version numbering, and the
    /// migration between each pair of consecutive versions (undeclared removals, lossy type
    /// changes and impossible column additions are errors).
    ///
    /// Returns every problem found, each at its file, line and column; the IR is nil only
    /// when the file's root is not a mapping. Do not render an IR that came with errors.
    public static func translate(_ file: ParsedFile) -> (StoreIR?, [Diagnostic]) {
        var translator = StoreTranslator(file: file.source.path)
        let store = translator.translate(file.root)
        return (store, translator.reader.diagnostics.sortedByLocation())
    }

    /// Renders the store's Swift files for an SDK: `Store/Store.swift` (the `<SDK>Store`
    /// namespace with `versions` and `definition`), `Store/Records.swift` and
    /// `Store/Migrations.swift`. Same IR, same bytes.
    public static func render(_ store: StoreIR, sdk: SDKIR) -> [GeneratedFile] {
        StoreRenderer(store: store, sdkName: sdk.name).files()
    }
}
