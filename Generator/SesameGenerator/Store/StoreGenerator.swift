// Placeholder until the store generator lands (issue 5): store.yaml is read but not yet
// turned into migrations.

/// The validated store declarations of `store.yaml`.
public struct StoreIR: Sendable, Hashable, Codable {
    public init() {}
}

/// Reads `store.yaml` and renders its records and migrations.
public enum StoreGenerator {
    /// Validates a parsed `store.yaml`.
    public static func translate(_ file: ParsedFile) -> (StoreIR?, [Diagnostic]) {
        (StoreIR(), [])
    }

    /// Renders the store's Swift files for an SDK.
    public static func render(_ store: StoreIR, sdk: SDKIR) -> [GeneratedFile] {
        []
    }
}
