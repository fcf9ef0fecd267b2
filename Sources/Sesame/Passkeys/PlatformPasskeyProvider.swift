#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// A ``PasskeyProvider`` over AuthenticationServices: the system's passkeys
/// (`ASAuthorizationPlatformPublicKeyCredentialProvider`, synced through iCloud Keychain) and,
/// unless ``allowsSecurityKeys`` is false, security keys
/// (`ASAuthorizationSecurityKeyPublicKeyCredentialProvider`), in one system sheet.
///
/// `rpID` must be a domain the app is entitled to (its `webcredentials:` associated domain);
/// the system supplies the origin (`https://<rpID>`). Options for another RP ID are refused
/// before the sheet opens. Cancelling the calling task closes the sheet
/// (`ASAuthorizationController.cancel()`) and throws ``PasskeyError/cancelled``.
///
/// It is kept as small as the API allows because nothing here compiles or runs it: the test
/// suite runs on Linux, where the runtime's passkey code is exercised with
/// ``SoftwareAuthenticator``. It passes on the challenge, user, RP ID, allowed credentials and
/// user verification preference; `excludeCredentials`, hints and extensions are not passed.
public final class PlatformPasskeyProvider: NSObject, PasskeyProvider, @unchecked Sendable {
    /// The RP ID the app is entitled to.
    public let rpID: String
    /// Whether security keys are offered beside the platform's passkeys; true by default.
    public let allowsSecurityKeys: Bool
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    @MainActor private var running: ASAuthorizationController?
    @MainActor private var waiting: CheckedContinuation<ASAuthorization, any Error>?

    /// A provider for `rpID` whose sheet is presented over `anchor()`.
    public init(rpID: String, allowsSecurityKeys: Bool = true, anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
        self.rpID = rpID
        self.allowsSecurityKeys = allowsSecurityKeys
        self.anchor = anchor
    }

    /// Creates a passkey in the system sheet.
    /// - Throws: ``PasskeyError``: another RP ID, malformed options, ``PasskeyError/cancelled``,
    ///   or ``PasskeyError/failed(reason:)`` with the system's error.
    public func register(_ options: PublicKeyCredentialCreationOptionsJSON) async throws -> RegistrationResponseJSON {
        if let requested = options.rp.id, requested != rpID { throw PasskeyError.rpIDMismatch(expected: rpID, got: requested) }
        guard let challenge = Base64URL.decode(options.challenge), let userID = Base64URL.decode(options.user.id) else {
            throw PasskeyError.invalidOptions(reason: "the challenge or user.id is not base64url")
        }
        let verification = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
            rawValue: options.authenticatorSelection?.userVerification ?? "preferred")
        let platform = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
            .createCredentialRegistrationRequest(challenge: challenge, name: options.user.name, userID: userID)
        platform.userVerificationPreference = verification
        var requests: [ASAuthorizationRequest] = [platform]
        if allowsSecurityKeys {
            let key = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
                .createCredentialRegistrationRequest(
                    challenge: challenge, displayName: options.user.displayName, name: options.user.name, userID: userID)
            key.credentialParameters = [ASAuthorizationPublicKeyCredentialParameters(algorithm: .ES256)]
            key.userVerificationPreference = verification
            requests.append(key)
        }
        guard let credential = try await perform(requests).credential as? any ASAuthorizationPublicKeyCredentialRegistration,
            let attestationObject = credential.rawAttestationObject
        else { throw PasskeyError.failed(reason: "the system returned no attestation") }
        let id = Base64URL.encode(credential.credentialID)
        return RegistrationResponseJSON(
            id: id, rawId: id,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URL.encode(credential.rawClientDataJSON),
                attestationObject: Base64URL.encode(attestationObject)),
            authenticatorAttachment: credential is ASAuthorizationPlatformPublicKeyCredentialRegistration ? "platform" : "cross-platform")
    }

    /// Signs in with a passkey or security key in the system sheet.
    /// - Throws: ``PasskeyError``: another RP ID, malformed options, ``PasskeyError/cancelled``,
    ///   or ``PasskeyError/failed(reason:)`` with the system's error.
    public func assert(_ options: PublicKeyCredentialRequestOptionsJSON) async throws -> AuthenticationResponseJSON {
        if let requested = options.rpId, requested != rpID { throw PasskeyError.rpIDMismatch(expected: rpID, got: requested) }
        guard let challenge = Base64URL.decode(options.challenge) else {
            throw PasskeyError.invalidOptions(reason: "the challenge is not base64url")
        }
        let allowed = options.allowCredentials.compactMap { Base64URL.decode($0.id) }
        let verification = ASAuthorizationPublicKeyCredentialUserVerificationPreference(rawValue: options.userVerification)
        let platform = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
            .createCredentialAssertionRequest(challenge: challenge)
        platform.allowedCredentials = allowed.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
        platform.userVerificationPreference = verification
        var requests: [ASAuthorizationRequest] = [platform]
        if allowsSecurityKeys {
            let key = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: rpID)
                .createCredentialAssertionRequest(challenge: challenge)
            key.allowedCredentials = allowed.map {
                ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
                    credentialID: $0, transports: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported)
            }
            key.userVerificationPreference = verification
            requests.append(key)
        }
        guard let credential = try await perform(requests).credential as? any ASAuthorizationPublicKeyCredentialAssertion else {
            throw PasskeyError.failed(reason: "the system returned no assertion")
        }
        let id = Base64URL.encode(credential.credentialID)
        return AuthenticationResponseJSON(
            id: id, rawId: id,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URL.encode(credential.rawClientDataJSON),
                authenticatorData: Base64URL.encode(credential.rawAuthenticatorData),
                signature: Base64URL.encode(credential.signature),
                userHandle: credential.userID.map { Base64URL.encode($0) }),
            authenticatorAttachment: credential is ASAuthorizationPlatformPublicKeyCredentialAssertion ? "platform" : "cross-platform")
    }

    /// Runs `requests` in one controller; the task's cancellation cancels the controller.
    private func perform(_ requests: [ASAuthorizationRequest]) async throws -> ASAuthorization {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Task { @MainActor in
                    guard !Task.isCancelled else { return continuation.resume(throwing: PasskeyError.cancelled) }
                    let controller = ASAuthorizationController(authorizationRequests: requests)
                    controller.delegate = self
                    controller.presentationContextProvider = self
                    self.waiting = continuation
                    self.running = controller
                    controller.performRequests()
                }
            }
        } onCancel: {
            Task { @MainActor in
                self.running?.cancel()
                self.finish(.failure(PasskeyError.cancelled))
            }
        }
    }

    @MainActor private func finish(_ result: Result<ASAuthorization, any Error>) {
        running = nil
        let continuation = waiting
        waiting = nil
        continuation?.resume(with: result)
    }
}

extension PlatformPasskeyProvider: ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    {
        MainActor.assumeIsolated { finish(.success(authorization)) }
    }

    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        let failure: PasskeyError =
            (error as? ASAuthorizationError)?.code == .canceled ? .cancelled : .failed(reason: error.localizedDescription)
        MainActor.assumeIsolated { finish(.failure(failure)) }
    }

    public func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        MainActor.assumeIsolated { anchor() }
    }
}
#endif
