extension DPoPKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `DPoPKey(P-256, jkt: …, private key redacted)`: the thumbprint, never the private key.
    public var description: String { "DPoPKey(P-256, jkt: \(thumbprint), private key redacted)" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the key's thumbprint and public JWK only, so that `dump` and debuggers
    /// never show the private key.
    public var customMirror: Mirror {
        Mirror(self, children: ["thumbprint": thumbprint, "publicJWK": publicJWK], displayStyle: .struct)
    }
}
