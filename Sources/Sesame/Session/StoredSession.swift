import Foundation

/// What a ``SessionStore`` keeps between launches: the credential, the user's details and
/// when the user signed in (which a refresh does not change, so that operations declaring
/// `freshAuthentication` still see the original sign-in time).
///
/// Its description and mirror never show a token.
public struct StoredSession<Details: Codable & Hashable & Sendable>: Sendable, Hashable, Codable,
    CustomStringConvertible, CustomReflectable
{
    /// The tokens.
    public var credential: Credential
    /// The signed-in user's details.
    public var details: Details
    /// When the user signed in with an authentication method.
    public var signedInAt: Date

    /// Creates a stored session.
    public init(credential: Credential, details: Details, signedInAt: Date) {
        self.credential = credential
        self.details = details
        self.signedInAt = signedInAt
    }

    /// `StoredSession(signedInAt: …, credential: Credential(accessToken: <redacted>, …))`.
    public var description: String { "StoredSession(signedInAt: \(signedInAt), credential: \(credential))" }

    /// A mirror without the tokens.
    public var customMirror: Mirror {
        Mirror(self, children: ["credential": credential, "signedInAt": signedInAt], displayStyle: .struct)
    }
}
