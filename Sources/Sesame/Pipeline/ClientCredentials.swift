/// The app's OAuth client identity, for token-endpoint requests that declare client
/// authentication (RFC 6749 §2.3.1). Its description never shows the secret.
public struct ClientCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The client identifier.
    public var clientID: String
    /// The client secret; nil for a public client.
    public var clientSecret: String?

    /// Creates client credentials.
    public init(clientID: String, clientSecret: String? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    /// `ClientCredentials(clientID: …, clientSecret: <redacted>|none)`.
    public var description: String {
        "ClientCredentials(clientID: \(clientID), clientSecret: \(clientSecret == nil ? "none" : "<redacted>"))"
    }

    /// A mirror without the secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["clientID": clientID, "hasSecret": clientSecret != nil], displayStyle: .struct)
    }
}
