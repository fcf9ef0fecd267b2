import Foundation
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// Signs in with a method whose browser step sends `authorization` on its authorization
    /// request (`acr_values`, `max_age`, `prompt`, `login_hint`), as
    /// ``authenticate(with:context:)`` does otherwise. After a
    /// ``SesameError/stepUpRequired(operation:challenge:)``, sign in with
    /// `AuthorizationParameters(stepUp: challenge)` into the same account
    /// (`context: .currentAccount` for a back-end that attaches identities, or `.new`, which
    /// replaces the session), then retry the operation:
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
    /// The ID token's `acr` and `auth_time` are checked against what was asked when the
    /// method validates ID tokens.
    /// - Throws: ``SesameError/authenticationProcess(reason:)`` before anything is sent when
    ///   the method has no browser step; ``SesameError/encoding(reason:)`` when `authorization`
    ///   is malformed (see ``AuthorizationParameters``); otherwise as
    ///   ``authenticate(with:context:)``. A failed authentication never changes the state.
    public func authenticate(
        with method: some SingleStepAuthenticationMethod, authorization: AuthorizationParameters,
        context: AuthenticationContext = .new
    ) async throws -> Schema.Details {
        try method.validate()
        let description = method.methodDescription
        guard description.steps.contains(where: { $0.browser != nil }) else {
            throw SesameError.authenticationProcess(
                reason: "\(description.name) has no browser step: authorization parameters go on a browser sign-in")
        }
        _ = try authorization.queryItems()
        let id = try startProcess(description, arguments: method.arguments, context: context, authorization: authorization)
        switch try await runSteps(of: id) {
        case .authenticated(let details):
            return details
        case .needsInput(let ongoing):
            signIn.abandon(id: id)
            throw SesameError.authenticationProcess(
                reason: "\(ongoing.methodName) needs input between steps: use initializeAuthentication(with:)")
        }
    }
}
