import Foundation
import Sesame

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension CombineAuthenticationService {
    /// ``AuthenticationService/authenticate(with:authorization:context:)`` as a future of the
    /// user's details: a browser sign-in that sends `authorization` (`acr_values`, `max_age`,
    /// `prompt`, `login_hint`), as after a ``SesameError/stepUpRequired(operation:challenge:)``.
    /// Without `context`, a user already `authenticated` must sign in again
    /// (``AuthenticationContext/sameAccount``: another user fails with
    /// ``SesameError/accountMismatch(reason:)`` and changes nothing).
    /// It fails with the error that call throws.
    public func authenticate(
        with method: some SingleStepAuthenticationMethod, authorization: AuthorizationParameters,
        context: AuthenticationContext? = nil
    ) -> Future<Schema.Details, any Error> {
        let service = service
        return FutureBridge.future { try await service.authenticate(with: method, authorization: authorization, context: context) }
    }
}
