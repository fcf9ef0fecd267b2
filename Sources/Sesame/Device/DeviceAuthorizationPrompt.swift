import Foundation

/// What the app shows while a device sign-in (RFC 8628) waits for the user: the code to
/// enter and where to enter it, on another device. The app receives it in
/// ``AuthenticationEvent/deviceAuthorization(_:)`` and in
/// ``OngoingAuthentication/deviceAuthorization`` while the sign-in waits.
///
/// It holds no secret of the client: the device code the runtime polls with stays inside
/// the runtime. Its description leaves out the user code, which the app shows the user only.
public struct DeviceAuthorizationPrompt: Sendable, Hashable, CustomStringConvertible {
    /// The code the user enters at ``verificationURI`` (`user_code`).
    public var userCode: String
    /// Where the user signs in and enters the code (`verification_uri`).
    public var verificationURI: URL
    /// The verification URI with the code in it, for a QR code or a link
    /// (`verification_uri_complete`); nil when the server sends none.
    public var verificationURIComplete: URL?
    /// When the code expires (`expires_in` after the answer); the runtime stops polling then.
    public var expiresAt: Date
    /// How long the runtime waits between token requests (`interval`, 5 s by default and at
    /// the least: a shorter one is raised to 5 s).
    public var interval: Duration

    /// Creates a prompt.
    public init(userCode: String, verificationURI: URL, verificationURIComplete: URL? = nil, expiresAt: Date, interval: Duration) {
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresAt = expiresAt
        self.interval = interval
    }

    /// The verification URI and the expiry, never the user code.
    public var description: String {
        "DeviceAuthorizationPrompt(verificationURI: \(verificationURI.absoluteString), expiresAt: \(expiresAt))"
    }
}
