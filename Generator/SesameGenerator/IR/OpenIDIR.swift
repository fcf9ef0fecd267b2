@_spi(Generated) import SesameDescription

/// sdk.yaml's `openID:`: the runtime's description, with the model the ID token's claims
/// decode into and where the schema wrote it.
struct OpenIDIR: Sendable, Hashable {
    /// What the runtime reads: the keys, the algorithms and the clock skew.
    var value: OpenIDDescription
    /// The model of the claims (`claims:`); nil when the schema names none.
    var claims: ModelRef?
    /// Where the schema wrote `openID`.
    var location: SourceLocation
}
