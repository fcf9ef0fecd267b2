import Foundation

/// A credential a ``SoftwareAuthenticator`` created, as its ``PasskeyCredentialStore`` keeps
/// it: the private key, the RP ID and user handle it is scoped to, and its signature counter.
///
/// The private key is secret: neither ``description`` nor the mirror shows it.
public struct PasskeyCredential: Codable, Sendable, Hashable {
    /// The credential id (random, 32 bytes).
    public var id: Data
    /// The RP ID the credential is scoped to.
    public var rpID: String
    /// The user handle of the account (`user.id` of the registration).
    public var userHandle: Data
    /// The account's name at registration, to show when picking a credential.
    public var userName: String
    /// The P-256 private key's raw representation (the 32-byte scalar).
    public var privateKey: Data
    /// The signature counter of the last assertion (0 after registration).
    public var signCount: UInt32
    /// Whether the credential is discoverable: it answers assertions with no `allowCredentials`.
    public var isDiscoverable: Bool

    /// Makes a credential.
    public init(id: Data, rpID: String, userHandle: Data, userName: String, privateKey: Data, signCount: UInt32, isDiscoverable: Bool) {
        self.id = id
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.privateKey = privateKey
        self.signCount = signCount
        self.isDiscoverable = isDiscoverable
    }
}

extension PasskeyCredential: CustomStringConvertible, CustomReflectable {
    /// The id, RP ID, user name and counter; never the private key.
    public var description: String {
        "PasskeyCredential(id: \(Base64URL.encode(id)), rpID: \(rpID), user: \(userName), signCount: \(signCount), privateKey: <redacted>)"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["id": Base64URL.encode(id), "rpID": rpID, "userName": userName, "signCount": signCount, "privateKey": "<redacted>"],
            displayStyle: .struct)
    }
}
