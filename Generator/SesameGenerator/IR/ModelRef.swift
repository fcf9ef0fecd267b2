/// A reference to a model of the IR: from a type (`TypeIR.model`), a union's variant, a
/// step's response or the credential's token model. It carries what every reader needs, so
/// that nothing looks a model up by a name string: the Swift type to print, and the name the
/// schema declared it under, for diagnostics and for sdk.yaml's checks.
struct ModelRef: Sendable, Hashable, Codable {
    /// The key of the models file that declares the model (`token_response`); nil for a model
    /// made from an inline schema (an operation's body, a property's inline object).
    var declaredName: String?
    /// The Swift type, qualified for a nested type (`Challenge.Channel`): the model's
    /// `swiftName` and those of the types it is nested in.
    var swiftPath: String

    init(declaredName: String?, swiftPath: String) {
        self.declaredName = declaredName
        self.swiftPath = swiftPath
    }

    /// The model's name as the schema reads: its declared name, or the Swift path of a model
    /// made from an inline schema.
    var schemaName: String { declaredName ?? swiftPath }
}
