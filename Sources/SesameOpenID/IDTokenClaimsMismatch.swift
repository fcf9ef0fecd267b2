/// The claims of the session's ID token do not fit the model the schema's `openID.claims`
/// names (a claim the model requires is missing, or has another type), or the token is not a
/// JWT. Reading the claims changes nothing: the session and its state stay as they are.
/// The reason names the claim's path and what was wrong, never the token or a claim's value.
public struct IDTokenClaimsMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the claims did not fit, and how (`$.email: required property is missing`).
    public var reason: String

    /// A mismatch for `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "the ID token's claims do not fit the schema's model: \(reason)" }
}
