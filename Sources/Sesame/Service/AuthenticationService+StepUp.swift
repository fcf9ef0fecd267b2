import Foundation
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// Signs in with a method whose browser step sends `authorization` on its authorization
    /// request (`acr_values`, `max_age`, `prompt`, `login_hint`), as
    /// ``authenticate(with:context:)`` does otherwise. After a
    /// ``SesameError/stepUpRequired(operation:challenge:)``, sign in again with
    /// `AuthorizationParameters(stepUp: challenge)`, then retry the operation:
    ///
    /// ```swift
    /// do {
    ///     return try await service.perform(request)
    /// } catch SesameError.stepUpRequired(_, let challenge) {
    ///     _ = try await service.authenticate(
    ///         with: SingleStepMethod.oauth2(), authorization: AuthorizationParameters(stepUp: challenge))
    ///     return try await service.perform(request)
    /// }
    /// ```
    ///
    /// Without `context`, a sign-in while a user is `authenticated` is
    /// ``AuthenticationContext/sameAccount``: whoever signs in at the authorization server
    /// must be the current user (compared by user id before anything is committed), so the
    /// retried request never runs as someone else; otherwise it is ``AuthenticationContext/new``.
    /// Pass `.new` to let another user replace the session.
    ///
    /// With an ID token validator in the configuration, the code exchange's ID token must
    /// show the `acr` and `auth_time` asked for (`IDTokenRejection.authenticationContext` and
    /// `.authenticationTime` otherwise, and the sign-in fails as for any refused ID token).
    /// Without one, the API that asked for the step-up decides whether the new access token
    /// satisfies it, and answers with another step-up challenge if not.
    /// - Throws: ``SesameError/authenticationProcess(reason:)`` before anything is sent when
    ///   the method has no browser step; ``SesameError/encoding(reason:)`` when `authorization`
    ///   is malformed (see ``AuthorizationParameters``);
    ///   ``SesameError/accountMismatch(reason:)`` when another user signed in under
    ///   `.sameAccount` (their tokens are revoked); otherwise as
    ///   ``authenticate(with:context:)``. A failed authentication never changes the state.
    public func authenticate(
        with method: some SingleStepAuthenticationMethod, authorization: AuthorizationParameters,
        context: AuthenticationContext? = nil
    ) async throws -> Schema.Details {
        let context = context ?? (machine.current.isAuthenticated ? .sameAccount : .new)
        return try await authenticate(singleStep: method, context: context, authorization: authorization)
    }
}
