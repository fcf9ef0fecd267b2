import Foundation

extension ReferenceServer {
    /// How the server serves passkeys (WebAuthn Level 3 relying party): set
    /// ``Configuration/passkeys`` to turn on `/passkeys/*`; `nil` (the default) leaves them
    /// unrouted (404).
    ///
    /// Registration accepts attestation `none` with ES256 (P-256) keys only; every
    /// registration and assertion is verified as WebAuthn §7.1 and §7.2 say (see
    /// `PasskeyRoutes`).
    public struct PasskeyOptions: Sendable, Equatable {
        /// The RP ID credentials are scoped to (`example.com`); its SHA-256 is the
        /// authenticator data's `rpIdHash`.
        public var rpID: String
        /// The one origin client data may name (`https://login.example.com`).
        public var origin: String
        /// A name to show the user; "Sesame reference" by default.
        public var rpName: String
        /// Whether the UV flag is required (and the options say `userVerification: required`);
        /// false by default, when options say `preferred` and only UP is required.
        public var requireUserVerification: Bool
        /// How long a challenge stays usable, 300 s by default (on the server's clock).
        public var challengeLifetime: Duration

        /// Makes options; every parameter with a default has the one documented on its property.
        public init(
            rpID: String, origin: String, rpName: String = "Sesame reference", requireUserVerification: Bool = false,
            challengeLifetime: Duration = .seconds(300)
        ) {
            self.rpID = rpID
            self.origin = origin
            self.rpName = rpName
            self.requireUserVerification = requireUserVerification
            self.challengeLifetime = challengeLifetime
        }
    }
}
