import Foundation

/// Creates and uses passkeys (WebAuthn public key credentials) for one relying party: the
/// client and authenticator of a passkey sign-in step, beside ``Browser`` for browser
/// sign-in.
///
/// A provider is made for the RP ID (and, where the platform does not supply it, the origin)
/// it serves, and refuses options for another RP ID before anything is signed. On Apple
/// platforms `PlatformPasskeyProvider` uses AuthenticationServices; everywhere else (tests,
/// demos, servers) ``SoftwareAuthenticator`` keeps P-256 keys in a ``PasskeyCredentialStore``.
///
/// Both calls are cancellable: cancelling the calling task ends them with
/// ``PasskeyError/cancelled``, and nothing is signed after the cancellation is seen.
public protocol PasskeyProvider: Sendable {
    /// Creates a credential for `options.user` and returns it as the relying party expects
    /// it (`PublicKeyCredential.toJSON()` of `navigator.credentials.create`).
    /// - Throws: ``PasskeyError``: ``PasskeyError/cancelled``, an RP ID or origin the
    ///   provider does not serve, no supported algorithm, an excluded credential already
    ///   present, or a platform failure.
    func register(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON

    /// Signs `options.challenge` with one of `options.allowCredentials`, or with a
    /// discoverable credential of the RP ID when the list is empty
    /// (`navigator.credentials.get`).
    /// - Throws: ``PasskeyError``: ``PasskeyError/cancelled``, ``PasskeyError/noCredential(rpID:)``,
    ///   an RP ID or origin the provider does not serve, a challenge already signed, or a
    ///   platform failure.
    func assert(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON
}
